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
import { useResumeAi, useUpdateConversation } from '../queries';
import { useDateTime } from '../useNow';
import { AnsweredByChip } from './AnsweredByChip';
import './i18n';

export function TakeoverBar({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const toast = useToast();
  const user = useCurrentUser();
  const dateTime = useDateTime();
  const resume = useResumeAi(conversation._id);
  const assign = useUpdateConversation(conversation._id);
  const human = conversation.answeredBy === 'human';
  const mine = conversation.assignee === user._id;

  const onResume = () =>
    resume.mutate(undefined, {
      onSuccess: () => toast.success(t('inbox.header.returned')),
      onError: (err) => toast.error(errorMessage(err, t('inbox.header.returnFailed'))),
    });
  const onAssign = () =>
    assign.mutate({ assignee: mine ? null : user._id }, { onError: (err) => toast.error(errorMessage(err, t('inbox.header.assignFailed'))) });

  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1.5}
      useFlexGap
      sx={{ mt: 1.5, alignItems: { sm: 'center' }, justifyContent: 'space-between', flexWrap: 'wrap', pr: 5 }}
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
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="body2" color="text.secondary" data-testid="conversation-assignee">
          {t(mine ? 'inbox.header.assignedToYou' : conversation.assignee ? 'inbox.header.assignee' : 'inbox.header.unassigned')}
        </Typography>
        <Button size="small" variant="outlined" startIcon={<AssignmentIndOutlined />} onClick={onAssign} disabled={assign.isPending}>
          {t(mine ? 'inbox.header.unassign' : 'inbox.header.assignToMe')}
        </Button>
      </Stack>
    </Stack>
  );
}
