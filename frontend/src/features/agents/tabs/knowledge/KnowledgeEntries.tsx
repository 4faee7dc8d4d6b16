/**
 * Knowledge entries (issue 18): the owner's own question + answer pairs, searched like a passage of
 * the documents. List, add, edit and delete (with confirmation), within the contract's limits.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import QuestionAnswerOutlined from '@mui/icons-material/QuestionAnswerOutlined';
import { useTranslation } from 'react-i18next';
import { AGENT_LIMITS, agentMessages, type Agent, type KnowledgeEntry, type KnowledgeEntryInput } from '@agentdesk/functions/contract';
import { RetryAlert } from '../../../../shared/RetryAlert';
import { SectionHeading } from '../../../../shared/SectionHeading';
import { useToast } from '../../../../shared/useToast';
import { ConfirmDeleteDialog } from '../ConfirmDeleteDialog';
import { EmptyList, ListSkeleton } from '../TabLayout';
import { tabErrorMessage, tabMessage } from '../messages';
import { useConfirmedDelete } from '../useConfirmedDelete';
import { EntryDialog } from './EntryDialog';
import { useDeleteEntry, useEntries, useSaveEntry } from './queries';

type Editing = { entry: KnowledgeEntry | null } | null;

export function KnowledgeEntries({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const toast = useToast();
  const query = useEntries(agent);
  const save = useSaveEntry(agent._id);
  const remove = useDeleteEntry(agent._id);
  const toDelete = useConfirmedDelete(remove, (entry: KnowledgeEntry) => entry._id, {
    deleted: t('agentTabs.knowledge.entries.deleted'),
    failed: t('agentTabs.knowledge.entries.deleteFailed'),
  });
  const [editing, setEditing] = useState<Editing>(null);
  const initial = useMemo<KnowledgeEntryInput>(() => ({ question: editing?.entry?.question ?? '', answer: editing?.entry?.answer ?? '' }), [editing]);
  const entries = [...query.entries].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const full = entries.length >= AGENT_LIMITS.entriesPerAgent;

  const onSave = async (input: KnowledgeEntryInput) => {
    const entryId = editing?.entry?._id ?? null;
    try {
      const res = await save.mutateAsync({ entryId, input });
      toast.success(res.message ? tabMessage(res.message) : t(entryId ? 'agentTabs.knowledge.entries.updated' : 'agentTabs.knowledge.entries.created'));
      setEditing(null);
    } catch (err) {
      toast.error(tabErrorMessage(err, t('agentTabs.knowledge.entries.saveFailed')));
    }
  };

  let body;
  if (query.isPlaceholderData && query.isFetching && entries.length === 0) {
    body = <ListSkeleton label={t('agentTabs.knowledge.entries.loading')} height={64} spacing={1} />;
  } else if (query.isError && !query.isPlaceholderData && entries.length === 0) {
    body = (
      <RetryAlert retryLabel={t('agentTabs.common.retry')} onRetry={() => void query.refetch()} retrying={query.isFetching}>
        {tabErrorMessage(query.error, t('agentTabs.knowledge.entries.loadFailed'))}
      </RetryAlert>
    );
  } else if (entries.length === 0) {
    body = <EmptyList icon={QuestionAnswerOutlined} title={t('agentTabs.knowledge.entries.emptyTitle')} body={t('agentTabs.knowledge.entries.emptyBody')} />;
  } else {
    body = (
      <List disablePadding aria-label={t('agentTabs.knowledge.entries.title')}>
        {entries.map((entry, i) => (
          <ListItem key={entry._id} divider={i < entries.length - 1} data-testid="knowledge-entry" sx={{ alignItems: 'flex-start', gap: 1, py: 1.5 }}>
            <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }}>
              <Typography sx={{ fontWeight: 500, wordBreak: 'break-word' }}>{entry.question}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {entry.answer}
              </Typography>
            </Stack>
            <Tooltip title={t('agentTabs.common.edit')}>
              <IconButton aria-label={t('agentTabs.knowledge.entries.editAria', { question: entry.question })} onClick={() => setEditing({ entry })}>
                <EditOutlined />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('agentTabs.common.delete')}>
              <IconButton aria-label={t('agentTabs.knowledge.entries.deleteAria', { question: entry.question })} onClick={() => toDelete.ask(entry)} color="error">
                <DeleteOutline />
              </IconButton>
            </Tooltip>
          </ListItem>
        ))}
      </List>
    );
  }

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={t('agentTabs.knowledge.entries.title')} data-testid="entries-card">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}>
        <SectionHeading variant="h6" component="h3" title={t('agentTabs.knowledge.entries.title')} text={t('agentTabs.knowledge.entries.intro')} />
        <Stack spacing={0.5} sx={{ alignItems: { sm: 'flex-end' }, flexShrink: 0 }}>
          <Button variant="outlined" startIcon={<Add />} onClick={() => setEditing({ entry: null })} disabled={full}>
            {t('agentTabs.knowledge.entries.add')}
          </Button>
          <Typography variant="caption" color={full ? 'error' : 'text.secondary'}>
            {full ? tabMessage(agentMessages.tooManyEntries) : t('agentTabs.knowledge.entries.limit', { count: entries.length, max: AGENT_LIMITS.entriesPerAgent })}
          </Typography>
        </Stack>
      </Stack>
      <Stack sx={{ mt: 1.5 }}>{body}</Stack>
      <EntryDialog
        open={editing !== null}
        title={editing?.entry ? t('agentTabs.knowledge.entries.editTitle') : t('agentTabs.knowledge.entries.addTitle')}
        initial={initial}
        submitLabel={t('agentTabs.knowledge.entries.save')}
        pending={save.isPending}
        onClose={() => setEditing(null)}
        onSave={onSave}
      />
      <ConfirmDeleteDialog flow={toDelete} title={t('agentTabs.knowledge.entries.deleteTitle')} body={t('agentTabs.knowledge.entries.deleteConfirm')} subject={toDelete.item?.question} />
    </Paper>
  );
}
