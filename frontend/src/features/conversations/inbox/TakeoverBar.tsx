/**
 * The conversation modal's takeover line (issue 17): who answers (AI or a person), and while a
 * person does, when the AI resumes on its own and "Return to AI"; the assignee with "Assign to me"
 * / "Unassign" (one user today).
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AssignmentIndOutlined from '@mui/icons-material/AssignmentIndOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import { useTranslation } from 'react-i18next';
import type { Conversation } from '@agentdesk/functions/contract';
import { errorMessage } from '../../../i18n';
import { useCurrentUser } from '../../../shared/session';
import { useToast } from '../../../shared/useToast';
import { windowOpen } from '../format';
import { useResumeAi, useUpdateConversation } from '../queries';
import { useDateTime } from '../useNow';
import { AnsweredByChip } from './AnsweredByChip';
import './i18n';

/** `compact`: the phone's header (who answers only; the assignment is on the Details tab, no room kept for a close button). */
export function TakeoverBar({ conversation, compact = false }: { conversation: Conversation; compact?: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const dateTime = useDateTime();
  const resume = useResumeAi(conversation._id);
  const human = conversation.answeredBy === 'human';

  const onResume = () =>
    resume.mutate(undefined, {
      // What the customer wrote while a person answered (issue 29): the AI answers it now, or the
      // 24-hour window has closed and only a template can reach them.
      onSuccess: ({ left }) => {
        if (left.answering) toast.success(t('inbox.header.answeringLeft', { count: left.count }));
        else if (left.count > 0 && !windowOpen(conversation.lastInboundAt, Date.now())) toast.info(t('inbox.header.leftWindowClosed', { count: left.count }));
        else toast.success(t('inbox.header.returned'));
      },
      onError: (err) => toast.error(errorMessage(err, t('inbox.header.returnFailed'))),
    });

  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1.5}
      useFlexGap
      sx={{ mt: compact ? 1 : 1.5, px: compact ? 1 : 0, alignItems: { sm: 'center' }, justifyContent: 'space-between', flexWrap: 'wrap', pr: compact ? 1 : 5 }}
      data-testid="conversation-takeover"
    >
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <AnsweredByChip conversation={conversation} />
        <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="conversation-answered-by-text">
          {t(human ? 'inbox.header.human' : 'inbox.header.ai')}
        </Typography>
        {human && conversation.aiResumesAt && (
          <Typography variant="body2" color="text.secondary" data-testid="conversation-ai-resumes">
            {t('inbox.header.resumesAt', { time: dateTime(conversation.aiResumesAt) })}
          </Typography>
        )}
        {human && (
          <Button size="small" variant="contained" startIcon={<SmartToyOutlined />} onClick={onResume} disabled={resume.isPending}>
            {t('inbox.header.returnToAi')}
          </Button>
        )}
      </Stack>
      {!compact && <AssigneeLine conversation={conversation} />}
    </Stack>
  );
}

/** The assignee with "Assign to me" / "Unassign". */
export function AssigneeLine({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const toast = useToast();
  const user = useCurrentUser();
  const assign = useUpdateConversation(conversation._id);
  const mine = conversation.assignee === user._id;
  const onAssign = () =>
    assign.mutate({ assignee: mine ? null : user._id }, { onError: (err) => toast.error(errorMessage(err, t('inbox.header.assignFailed'))) });
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Typography variant="body2" color="text.secondary" data-testid="conversation-assignee">
        {t(mine ? 'inbox.header.assignedToYou' : conversation.assignee ? 'inbox.header.assignee' : 'inbox.header.unassigned')}
      </Typography>
      <Button size="small" variant="outlined" startIcon={<AssignmentIndOutlined />} onClick={onAssign} disabled={assign.isPending}>
        {t(mine ? 'inbox.header.unassign' : 'inbox.header.assignToMe')}
      </Button>
    </Stack>
  );
}
