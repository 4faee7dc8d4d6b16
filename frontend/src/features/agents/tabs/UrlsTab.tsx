/**
 * Web URLs tab (SPEC §2 Agent detail, §4 URL status, §5 URLs, §8): add pages one URL per line
 * (trimmed, blank lines dropped, each http(s)), the list with status ('Processing...' → Completed /
 * Failed with the reason, and Reprocess beside it) and last update, Refresh (re-read the page;
 * beyond the spec) and delete with confirmation. While a page is being read the list refreshes every 2 s.
 */
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddLink from '@mui/icons-material/AddLink';
import LanguageOutlined from '@mui/icons-material/LanguageOutlined';
import Refresh from '@mui/icons-material/Refresh';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type * as z from 'zod/mini';
import { addUrlsRequest, splitUrlLines, type Agent, type AgentUrl } from '@agentdesk/functions/contract';
import { fieldProps } from '../../../shared/forms';
import { useToast } from '../../../shared/useToast';
import { TabHeader } from './TabLayout';
import { KnowledgeList, KnowledgeRow } from './KnowledgeList';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { useConfirmedDelete } from './useConfirmedDelete';
import { formatDateTime } from './format';
import { tabErrorMessage, tabMessage } from './messages';
import { useAddUrls, useAgentUrls, useDeleteUrl, useRefreshUrl, useReprocessUrl } from './queries';

type UrlFormInput = z.input<typeof addUrlsRequest>;
type UrlFormValues = z.output<typeof addUrlsRequest>;

export default function UrlsTab({ agent }: { agent: Agent }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const { urls, isPlaceholderData, isFetching } = useAgentUrls(agent);
  const add = useAddUrls(agent._id);
  const refresh = useRefreshUrl(agent._id);
  const reprocess = useReprocessUrl(agent._id);
  const remove = useDeleteUrl(agent._id);
  const toDelete = useConfirmedDelete(remove, (url: AgentUrl) => url._id, {
    deleted: t('agentTabs.urls.deleted'),
    failed: t('agentTabs.urls.deleteFailed'),
  });
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<UrlFormInput, unknown, UrlFormValues>({ resolver: zodResolver(addUrlsRequest), defaultValues: { urls: '' } });

  const text = watch('urls');
  const lineCount = splitUrlLines(typeof text === 'string' ? text : '').length;
  const listed = [...urls].sort((a, b) => b.lastUpdateAt.localeCompare(a.lastUpdateAt));

  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await add.mutateAsync(values.urls);
      toast.success(res.message ? tabMessage(res.message) : t('agentTabs.urls.added'));
      reset({ urls: '' });
    } catch (err) {
      toast.error(tabErrorMessage(err, t('agentTabs.urls.addFailed')));
    }
  });

  const onRefresh = (url: AgentUrl) => {
    refresh.mutate(url._id, {
      onSuccess: (res) => toast.success(res.message ? tabMessage(res.message) : t('agentTabs.urls.refreshing')),
      onError: (err) => toast.error(tabErrorMessage(err, t('agentTabs.urls.refreshFailed'))),
    });
  };

  const onReprocess = (url: AgentUrl) => {
    reprocess.mutate(url._id, {
      onSuccess: (res) => toast.success(res.message ? tabMessage(res.message) : t('agentTabs.urls.reprocessing')),
      onError: (err) => toast.error(tabErrorMessage(err, t('agentTabs.urls.reprocessFailed'))),
    });
  };

  return (
    <Stack spacing={3}>
      <TabHeader title={t('agentTabs.urls.title')} intro={t('agentTabs.urls.intro')} />

      <Paper variant="outlined" component="form" noValidate onSubmit={onSubmit} sx={{ p: 2 }}>
        <TextField
          label={t('agentTabs.urls.inputLabel')}
          placeholder={t('agentTabs.urls.placeholder')}
          multiline
          minRows={3}
          maxRows={10}
          fullWidth
          autoComplete="off"
          slotProps={{ htmlInput: { spellCheck: false } }}
          {...register('urls')}
          {...fieldProps(errors.urls, t('agentTabs.urls.hint'), tabMessage)}
        />
        <Stack direction="row" spacing={2} sx={{ mt: 1.5, justifyContent: 'flex-end', alignItems: 'center' }}>
          {lineCount > 0 && (
            <Typography variant="caption" color="text.secondary">
              {t('agentTabs.urls.lineCount', { count: lineCount })}
            </Typography>
          )}
          <Button type="submit" variant="contained" startIcon={<AddLink />} disabled={lineCount === 0 || isSubmitting}>
            {isSubmitting ? t('agentTabs.urls.adding') : t('agentTabs.urls.add')}
          </Button>
        </Stack>
      </Paper>

      <KnowledgeList section="urls" items={listed} loading={isPlaceholderData && isFetching} emptyIcon={LanguageOutlined}>
        {(url, divider) => (
          <KnowledgeRow
            key={url._id}
            section="urls"
            testId="agent-url"
            divider={divider}
            icon={<LanguageOutlined color="primary" aria-hidden />}
            status={url.status}
            error={url.error}
            action={{
              title: t('agentTabs.urls.refresh'),
              label: t('agentTabs.urls.refreshAria', { url: url.link }),
              icon: <Refresh />,
              onClick: () => onRefresh(url),
              disabled: url.status === 'pending' || (refresh.isPending && refresh.variables === url._id),
            }}
            reprocess={{
              label: t('agentTabs.urls.reprocessAria', { url: url.link }),
              onClick: () => onReprocess(url),
              busy: reprocess.isPending && reprocess.variables === url._id,
            }}
            deleteLabel={t('agentTabs.urls.deleteAria', { url: url.link })}
            onDelete={() => toDelete.ask(url)}
          >
            {url.title && <Typography sx={{ fontWeight: 500 }}>{url.title}</Typography>}
            <Link href={url.link} target="_blank" rel="noopener noreferrer" sx={{ wordBreak: 'break-all' }} variant={url.title ? 'body2' : 'body1'}>
              {url.link}
            </Link>
            <Typography variant="body2" color="text.secondary">
              {t('agentTabs.urls.lastUpdate', { date: formatDateTime(url.lastUpdateAt, i18n.language) })}
            </Typography>
          </KnowledgeRow>
        )}
      </KnowledgeList>

      <ConfirmDeleteDialog
        flow={toDelete}
        title={t('agentTabs.urls.deleteTitle')}
        body={t('agentTabs.urls.deleteConfirm')}
        subject={toDelete.item?.link}
      />
    </Stack>
  );
}
