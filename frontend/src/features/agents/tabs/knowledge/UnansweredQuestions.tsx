/**
 * Unanswered questions (issue 18, "teach the agent"): the refusals recorded from every channel,
 * grouped by similarity, most asked first. Answer opens the entry form with the question prefilled
 * (the answer becomes a knowledge entry and the group leaves the list); Dismiss drops the group.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import HelpOutline from '@mui/icons-material/HelpOutline';
import QuestionAnswerOutlined from '@mui/icons-material/QuestionAnswerOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { KnowledgeEntryInput, UnansweredGroup } from '@agentdesk/functions/contract';
import { formatDate } from '../../../../shared/intl';
import { RetryAlert } from '../../../../shared/RetryAlert';
import { SectionHeading } from '../../../../shared/SectionHeading';
import { useNow } from '../../../../shared/useNow';
import { useToast } from '../../../../shared/useToast';
import { EmptyList, ListSkeleton } from '../TabLayout';
import { tabErrorMessage, tabMessage } from '../messages';
import { EntryDialog } from './EntryDialog';
import { askedWhere, formatRelative, groupChannels, otherWordings } from './format';
import { useAnswerUnanswered, useDismissUnanswered, useUnanswered } from './queries';

const ids = (group: UnansweredGroup) => group.questions.map((q) => q._id);

function GroupRow({ group, divider, onAnswer, onDismiss, dismissing }: { group: UnansweredGroup; divider: boolean; onAnswer: () => void; onDismiss: () => void; dismissing: boolean }) {
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  const wordings = otherWordings(group);
  const where = askedWhere(group);
  return (
    <ListItem divider={divider} data-testid="unanswered-group" sx={{ display: 'block', py: 1.5 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}>
        <Stack spacing={0.75} sx={{ minWidth: 0, flex: 1 }}>
          <Typography sx={{ fontWeight: 500, wordBreak: 'break-word' }} data-testid="unanswered-question">
            {group.question}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
            <Chip size="small" color="warning" variant="outlined" label={t('agentTabs.knowledge.unanswered.asked', { count: group.count })} data-testid="unanswered-count" />
            {groupChannels(group).map((channel) => (
              <Chip key={channel} size="small" variant="outlined" label={t(`agentTabs.knowledge.unanswered.channels.${channel}`)} />
            ))}
            <Tooltip title={formatDate(i18n.language, group.lastAskedAt) ?? ''}>
              <Typography variant="caption" color="text.secondary" component="span" tabIndex={0}>
                {t('agentTabs.knowledge.unanswered.lastAsked', { time: formatRelative(i18n.language, group.lastAskedAt, now) })}
              </Typography>
            </Tooltip>
          </Stack>
          {where && (
            <Link component={RouterLink} to={where.href} variant="body2" sx={{ alignSelf: 'flex-start' }}>
              {t(`agentTabs.knowledge.unanswered.${where.kind === 'call' ? 'viewCall' : 'viewConversation'}`)}
            </Link>
          )}
          {wordings.length > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
              {t('agentTabs.knowledge.unanswered.wordings')}: {wordings.map((w) => `«${w}»`).join(', ')}
            </Typography>
          )}
        </Stack>
        <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
          <Button size="small" onClick={onDismiss} disabled={dismissing} aria-label={t('agentTabs.knowledge.unanswered.dismissAria', { question: group.question })}>
            {t('agentTabs.knowledge.unanswered.dismiss')}
          </Button>
          <Button
            size="small"
            variant="contained"
            startIcon={<QuestionAnswerOutlined />}
            onClick={onAnswer}
            aria-label={t('agentTabs.knowledge.unanswered.answerAria', { question: group.question })}
          >
            {t('agentTabs.knowledge.unanswered.answer')}
          </Button>
        </Stack>
      </Stack>
    </ListItem>
  );
}

export function UnansweredQuestions({ agentId }: { agentId: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const query = useUnanswered(agentId);
  const answer = useAnswerUnanswered(agentId);
  const dismiss = useDismissUnanswered(agentId);
  const [answering, setAnswering] = useState<UnansweredGroup | null>(null);
  const initial = useMemo<KnowledgeEntryInput>(() => ({ question: answering?.question ?? '', answer: '' }), [answering]);
  const groups = query.data ?? [];

  const onSave = async (input: KnowledgeEntryInput) => {
    if (!answering) return;
    try {
      const res = await answer.mutateAsync({ ids: ids(answering), ...input });
      toast.success(res.message ? tabMessage(res.message) : t('agentTabs.knowledge.unanswered.answered'));
      setAnswering(null);
    } catch (err) {
      toast.error(tabErrorMessage(err, t('agentTabs.knowledge.unanswered.answerFailed')));
    }
  };

  const onDismiss = (group: UnansweredGroup) =>
    dismiss.mutate(ids(group), {
      onSuccess: (res) => toast.success(res.message ? tabMessage(res.message) : t('agentTabs.knowledge.unanswered.dismissed')),
      onError: (err) => toast.error(tabErrorMessage(err, t('agentTabs.knowledge.unanswered.dismissFailed'))),
    });

  let body;
  if (query.isPending) {
    body = <ListSkeleton label={t('agentTabs.knowledge.unanswered.loading')} height={72} spacing={1} />;
  } else if (query.isError) {
    body = (
      <RetryAlert retryLabel={t('agentTabs.common.retry')} onRetry={() => void query.refetch()} retrying={query.isFetching} data-testid="unanswered-error">
        {tabErrorMessage(query.error, t('agentTabs.knowledge.unanswered.loadFailed'))}
      </RetryAlert>
    );
  } else if (groups.length === 0) {
    body = <EmptyList icon={HelpOutline} title={t('agentTabs.knowledge.unanswered.emptyTitle')} body={t('agentTabs.knowledge.unanswered.emptyBody')} />;
  } else {
    body = (
      <List disablePadding aria-label={t('agentTabs.knowledge.unanswered.title')}>
        {groups.map((group, i) => (
          <GroupRow
            key={group.questions[0]?._id ?? group.question}
            group={group}
            divider={i < groups.length - 1}
            onAnswer={() => setAnswering(group)}
            onDismiss={() => onDismiss(group)}
            dismissing={dismiss.isPending && dismiss.variables?.[0] === group.questions[0]?._id}
          />
        ))}
      </List>
    );
  }

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={t('agentTabs.knowledge.unanswered.title')} data-testid="unanswered-card">
      <SectionHeading variant="h6" component="h3" title={t('agentTabs.knowledge.unanswered.title')} text={t('agentTabs.knowledge.unanswered.intro')} />
      <Stack sx={{ mt: 1.5 }}>{body}</Stack>
      <EntryDialog
        open={answering !== null}
        title={t('agentTabs.knowledge.unanswered.answerTitle')}
        intro={t('agentTabs.knowledge.unanswered.answerIntro')}
        initial={initial}
        submitLabel={t('agentTabs.knowledge.entries.save')}
        pending={answer.isPending}
        onClose={() => setAnswering(null)}
        onSave={onSave}
      />
    </Paper>
  );
}
