/**
 * The "no answer sent" marker (issue 34): a customer's message the agent could not answer (the
 * model was unavailable, or refused the key) is marked in the conversation, its card says how many
 * wait, and "Answer waiting messages" lets the agent answer them once the model works again — for
 * one conversation (the modal) or for all (the board's banner). The reason comes as a key and is
 * said in the user's language.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import SmsFailedOutlined from '@mui/icons-material/SmsFailedOutlined';
import { useTranslation } from 'react-i18next';
import type { AnswerWaitingResult, Conversation, NoAnswerMarker } from '@agentdesk/functions/contract';
import { errorMessage } from '../../../i18n';
import { useToast } from '../../../shared/useToast';
import { useAnswerWaiting } from './api';
import './i18n';

/** "No answer sent — model unavailable" for a marker. */
function useMarkerText() {
  const { t } = useTranslation();
  return (marker: Pick<NoAnswerMarker, 'reason'>) => t('noAnswer.marker', { reason: t(`noAnswer.reasons.${marker.reason}`, { defaultValue: t('noAnswer.reasons.unavailable') }) });
}

/** Under a customer's message that got no answer. */
export function NoAnswerNote({ marker }: { marker: NoAnswerMarker }) {
  const text = useMarkerText();
  return (
    <Typography variant="caption" color="warning.dark" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="message-no-answer" data-reason={marker.reason}>
      <SmsFailedOutlined sx={{ fontSize: 14 }} aria-hidden />
      {text(marker)}
    </Typography>
  );
}

/** On a board card: the marker and how many of its messages wait. */
export function NoAnswerChip({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const text = useMarkerText();
  const waiting = conversation.noAnswer;
  if (!waiting) return null;
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      icon={<SmsFailedOutlined />}
      label={text(waiting)}
      title={t('noAnswer.card', { count: waiting.count })}
      data-testid="conversation-no-answer"
      data-reason={waiting.reason}
      // The whole reason, wrapped on a narrow card rather than cut.
      sx={{ alignSelf: 'flex-start', maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
    />
  );
}

/** What an answer action did, as a toast. */
function useOutcomeToast() {
  const { t } = useTranslation();
  const toast = useToast();
  return {
    done: (result: AnswerWaitingResult) => {
      if (result.queued > 0) toast.success(t('noAnswer.queued', { count: result.messages }));
      else if (result.skipped === 0) toast.info(t('noAnswer.nothing'));
      if (result.skipped > 0) toast.info(t('noAnswer.skipped', { count: result.skipped }));
    },
    failed: (err: unknown) => toast.error(errorMessage(err, t('noAnswer.failed'))),
  };
}

function AnswerButton({ id, label }: { id: string | null; label?: string }) {
  const { t } = useTranslation();
  const answer = useAnswerWaiting(id);
  const outcome = useOutcomeToast();
  return (
    <Button
      color="inherit"
      size="small"
      variant="outlined"
      disabled={answer.isPending}
      onClick={() => answer.mutate(undefined, { onSuccess: outcome.done, onError: outcome.failed })}
      sx={{ flex: 'none', whiteSpace: 'nowrap' }}
    >
      {answer.isPending ? t('noAnswer.answering') : (label ?? t('noAnswer.answer'))}
    </Button>
  );
}

/** In the conversation's modal while messages of it wait. */
export function NoAnswerBar({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const text = useMarkerText();
  const waiting = conversation.noAnswer;
  if (!waiting) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="conversation-no-answer-bar" action={<AnswerButton id={conversation._id} />}>
      <AlertTitle>{text(waiting)}</AlertTitle>
      {t('noAnswer.card', { count: waiting.count })}. {t(waiting.reason === 'taken_over' ? 'noAnswer.modalHintTakenOver' : 'noAnswer.modalHint')}
    </Alert>
  );
}

/** On the board while conversations of the account wait (where the owner's notification leads). */
export function WaitingBanner({ count }: { count: number }) {
  const { t } = useTranslation();
  if (count <= 0) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="conversations-waiting-banner" action={<AnswerButton id={null} />}>
      <AlertTitle>{t('noAnswer.banner', { count })}</AlertTitle>
      {t('noAnswer.bannerHint')}
    </Alert>
  );
}
