/**
 * The conversation modal's takeover line (issue 17): who answers (AI or a person), and while a
 * person does, when the AI resumes on its own and "Return to AI"; the assignee with "Assign to me"
 * / "Unassign", and in a team (issue 32) a choice of any member ("Me" first) or nobody.
 */
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
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
import { assigneeOptions, assigneeShown, useTeamMembers } from './team';
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

/** Value of "nobody" in the member choice (a member's id is never empty). */
const UNASSIGNED = '';

/**
 * The assignee with "Assign to me" / "Unassign" in a single-user account (as before issue 32); when
 * the account has other members (GET /api/team), a choice of any of them instead, "Me" first, or nobody.
 */
export function AssigneeLine({ conversation }: { conversation: Conversation }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const user = useCurrentUser();
  const team = useTeamMembers();
  const assign = useUpdateConversation(conversation._id);
  // The person (the team's `you`); the profile's id until the team loads.
  const meId = team.data?.you._id ?? user._id;
  const members = team.data?.members;
  const shown = assigneeShown(conversation.assignee, meId, members);
  const mine = shown.kind === 'me';
  const change = (assignee: string | null) =>
    assign.mutate({ assignee }, { onError: (err) => toast.error(errorMessage(err, t('inbox.header.assignFailed'))) });
  const options = members && members.length > 1 ? assigneeOptions(members, meId, i18n.language) : null;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="body2" color="text.secondary" data-testid="conversation-assignee">
        {shown.kind === 'me'
          ? t('inbox.header.assignedToYou')
          : shown.kind === 'member'
            ? t('inbox.header.assignedTo', { name: shown.name })
            : shown.kind === 'someone'
              ? t('inbox.header.assignedToSomeone')
              : shown.kind === 'gone'
                ? t('inbox.header.assignedToOther')
                : t('inbox.header.unassigned')}
      </Typography>
      {!options && (
        <Button size="small" variant="outlined" startIcon={<AssignmentIndOutlined />} onClick={() => change(mine ? null : meId)} disabled={assign.isPending}>
          {t(mine ? 'inbox.header.unassign' : 'inbox.header.assignToMe')}
        </Button>
      )}
      {options && (
        <TextField
          select
          size="small"
          label={t('inbox.header.assignTo')}
          value={options.some((o) => o._id === conversation.assignee) ? conversation.assignee : UNASSIGNED}
          onChange={(e) => change(e.target.value === UNASSIGNED ? null : e.target.value)}
          disabled={assign.isPending}
          sx={{ width: 240 }}
          data-testid="conversation-assign-to"
        >
          {/* The line under the last member is the item's own border: a Divider child would be read as an empty option. */}
          {options.map((o, i) => (
            <MenuItem key={o._id} value={o._id} divider={i === options.length - 1}>
              {o.me ? `${t('inbox.header.me')}${o.name ? ` (${o.name})` : ''}` : o.name}
            </MenuItem>
          ))}
          <MenuItem value={UNASSIGNED}>{t('inbox.header.unassigned')}</MenuItem>
        </TextField>
      )}
    </Stack>
  );
}
