/**
 * One message of the Message Hub (SPEC §2 Messages): direction, recipient (or sender) — by their
 * contact's name when they have one, with the number in the app's one phone format (issue 29) —
 * the sending phone number's name, the status badge (unknown → pending; a customer's message is
 * 'Received', not a send status), the relative time, the type icon and the body clamped to 2
 * lines; a failed outgoing message can be retried, any can be deleted.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CallMadeOutlined from '@mui/icons-material/CallMadeOutlined';
import CallReceivedOutlined from '@mui/icons-material/CallReceivedOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Replay from '@mui/icons-material/Replay';
import { useTranslation } from 'react-i18next';
import type { Message, MessageStatus } from '@agentdesk/functions/contract';
import { translateHubText } from './i18n';
import { canRetry, hasRichContent, relativeTime, shownStatus, typeIconKind } from './model';
import { TypeIcon } from './TypeIcon';
import { formatDate } from '../../shared/intl';
import { MessageContent } from '../../shared/MessageContent';
import { healthLine } from '../../shared/integrationHealth';
import { formatPhone } from '../../shared/phone';

const STATUS_COLORS: Record<MessageStatus, 'default' | 'info' | 'primary' | 'success' | 'error' | 'warning'> = {
  pending: 'warning',
  sent: 'info',
  delivered: 'primary',
  read: 'success',
  failed: 'error',
};

function useRelativeTime(iso: string, now: number): string {
  const { t, i18n } = useTranslation();
  const rel = relativeTime(iso, now);
  if (!rel) return '';
  if (rel.kind === 'now') return t('messageHub.list.justNow');
  if (rel.kind === 'minutes') return t('messageHub.list.minutesAgo', { count: rel.value });
  if (rel.kind === 'hours') return t('messageHub.list.hoursAgo', { count: rel.value });
  return formatDate(i18n.language, rel.value) ?? '';
}

/**
 * A number as the app shows numbers (Meta's display number comes as bare digits with the country
 * code, '34910000000'), its groups kept on one line: a narrow card breaks before it, not inside it.
 */
function shownNumber(value: string): string {
  return formatPhone(/^\d{8,15}$/.test(value) ? `+${value}` : value).replace(/ /g, '\u00a0');
}

/** The body clamped to 2 lines. */
function clamped(text: string) {
  return (
    <Typography
      variant="body2"
      sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
      data-testid="message-body"
    >
      {text}
    </Typography>
  );
}

interface MessageCardProps {
  message: Message;
  now: number;
  retrying: boolean;
  onRetry: (message: Message) => void;
  onDelete: (message: Message) => void;
}

export function MessageCard({ message, now, retrying, onRetry, onDelete }: MessageCardProps) {
  const { t } = useTranslation();
  const status = shownStatus(message.status);
  const when = useRelativeTime(message.timestamp, now);
  const number = shownNumber(message.fromMe ? message.to : message.from);
  const party = message.contact?.name || number;
  const kind = typeIconKind(message.type);
  const body = message.body || message.media?.caption || message.media?.filename || t('messageHub.list.noBody', { type: t(`messageHub.types.${kind}`) });
  const rich = hasRichContent(message);
  const author = message.fromMe
    ? message.agent?.name
      ? t('messageHub.list.byAgent', { name: message.agent.name })
      : message.sentBy === 'human'
        ? // Issue 32: the member (or API key) who sent it, as of sending; older messages: the team.
          message.sender?.name
          ? t('messageHub.list.byAgent', { name: message.sender.name })
          : t('messageHub.list.byHuman')
        : ''
    : '';

  return (
    <Paper component="li" variant="outlined" sx={{ p: 2, listStyle: 'none' }} data-testid="message-card" data-message-id={message._id}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <Tooltip title={message.fromMe ? t('messageHub.list.outgoing') : t('messageHub.list.incoming')}>
          <Box
            sx={{
              width: 36,
              height: 36,
              borderRadius: '50%',
              display: 'grid',
              placeItems: 'center',
              flexShrink: 0,
              bgcolor: message.fromMe ? 'success.main' : 'info.main',
              color: '#fff',
            }}
            role="img"
            aria-label={message.fromMe ? t('messageHub.list.outgoing') : t('messageHub.list.incoming')}
          >
            {message.fromMe ? <CallMadeOutlined fontSize="small" /> : <CallReceivedOutlined fontSize="small" />}
          </Box>
        </Tooltip>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 0.5 }}>
            <Typography sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'break-word' }} data-testid="message-party">
              {message.fromMe ? t('messageHub.list.to', { recipient: party }) : t('messageHub.list.from', { sender: party })}
            </Typography>
            {message.fromMe ? (
              <Chip size="small" color={STATUS_COLORS[status]} label={t(`messageHub.statuses.${status}`)} data-testid="message-status" />
            ) : (
              <Chip size="small" variant="outlined" label={t('messageHub.list.incoming')} data-testid="message-status" />
            )}
            <Tooltip title={t(`messageHub.types.${kind}`)}>
              <Box component="span" sx={{ display: 'inline-flex', color: 'text.secondary' }} role="img" aria-label={t(`messageHub.types.${kind}`)}>
                <TypeIcon type={message.type} fontSize="small" />
              </Box>
            </Tooltip>
            <Box sx={{ flex: 1 }} />
            <Typography variant="caption" color="text.secondary" component="time" dateTime={message.timestamp} sx={{ whiteSpace: 'nowrap' }}>
              {when}
            </Typography>
          </Stack>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }}>
            {[
              message.contact?.name && number !== party ? number : '',
              message.phoneNumberId?.name ? t('messageHub.list.via', { name: shownNumber(message.phoneNumberId.name) }) : '',
              author,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
          {rich ? (
            // Issue 31: a voice note's player and transcript, a photo, a document, a location, contact cards, options.
            <Box sx={{ maxWidth: 480 }}>
              <MessageContent message={message} own={message.fromMe} renderText={clamped} />
            </Box>
          ) : (
            clamped(body)
          )}
          {status === 'failed' && message.error && (
            <Typography variant="caption" color="error" component="p" sx={{ mt: 0.5 }}>
              {message.errorReason ? healthLine(message.errorReason, message.errorCode) : translateHubText(message.error)}
            </Typography>
          )}
        </Box>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexShrink: 0 }}>
          {canRetry(message) && (
            <Button
              size="small"
              variant="outlined"
              startIcon={<Replay />}
              disabled={retrying}
              onClick={() => onRetry(message)}
              aria-label={t('messageHub.list.retryLabel', { recipient: party })}
            >
              {retrying ? t('messageHub.list.retrying') : t('messageHub.list.retry')}
            </Button>
          )}
          <Tooltip title={t('messageHub.list.delete')}>
            <IconButton size="small" onClick={() => onDelete(message)} aria-label={t('messageHub.list.deleteLabel', { party })} sx={{ color: 'error.main' }}>
              <DeleteOutline fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
      </Stack>
    </Paper>
  );
}
