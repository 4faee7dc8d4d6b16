/**
 * A board card (SPEC §2 Conversations): status, contact name and phone, the last message
 * (truncated at 100), the last agent (description truncated at 60), the relative time, 'ACTION
 * NEEDED' with the escalation reason when a human is needed, and the closed-at time when closed.
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ReplyRounded from '@mui/icons-material/ReplyRounded';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import { useTranslation } from 'react-i18next';
import type { Conversation } from '@agentdesk/functions/contract';
import { kindPreview } from '../../shared/messageMedia';
import { formatPhone } from '../../shared/phone';
import { VisuallyHidden } from '../../shared/VisuallyHidden';
import { AGENT_DESCRIPTION_LENGTH, lastActivity, messageText, profileNameLine, truncate, usernameOnly } from './format';
import { ConversationStatusChip } from './StatusChip';
import { AnsweredByChip, UnreadBadge } from './inbox/AnsweredByChip';
import { NoAnswerChip } from './waiting/NoAnswer';
import { useDateTime } from './useNow';

interface ConversationCardProps {
  conversation: Conversation;
  relative: (iso: string | null | undefined) => string;
  onOpen: (conversation: Conversation) => void;
}

export function contactLabel(conversation: Conversation): string {
  // A username customer's business-scoped id is no name to show (the caller says "WhatsApp user").
  return conversation.contact?.name?.trim() || formatPhone(conversation.contact?.phoneNumber) || (usernameOnly(conversation) ? '' : conversation.customerWaId) || '';
}

export function ConversationCard({ conversation, relative, onOpen }: ConversationCardProps) {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const username = usernameOnly(conversation);
  const name = contactLabel(conversation) || (username ? t('conversations.card.whatsappUser') : t('conversations.card.unknownContact'));
  const phone = formatPhone(conversation.contact?.phoneNumber);
  const profile = profileNameLine(conversation);
  const last = conversation.lastMessage;
  // A media message leads with its kind ("🎤 Nota de voz: Quería pedir cita…", issue 31).
  const kind = kindPreview(last?.type);
  const lastBody = messageText(last);
  const lastText = (kind && lastBody ? `${kind}: ${lastBody}` : kind || lastBody) || (last ? t('conversations.card.media', { type: last.type }) : '');
  const activity = lastActivity(conversation);
  const agent = conversation.lastAgent;
  return (
    <Card
      component="article"
      variant="outlined"
      aria-label={name}
      data-testid="conversation-card"
      data-status={conversation.status}
      sx={conversation.status === 'requires_human' ? { borderColor: 'warning.main', borderLeftWidth: 4 } : undefined}
    >
      {/* Named by its content, led by what it does (an aria-label would hide the card's visible text: WCAG 2.5.3). */}
      <CardActionArea onClick={() => onOpen(conversation)}>
        <VisuallyHidden>{t('conversations.card.open', { name })}</VisuallyHidden>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1, p: 1.75, '&:last-child': { pb: 1.75 } }}>
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600 }} noWrap aria-hidden>
                {name}
              </Typography>
              {phone && phone !== name && (
                <Typography variant="body2" color="text.secondary" noWrap>
                  {phone}
                </Typography>
              )}
              {username && name !== t('conversations.card.whatsappUser') && (
                <Typography variant="body2" color="text.secondary" noWrap data-testid="conversation-whatsapp-user">
                  {t('conversations.card.whatsappUser')}
                </Typography>
              )}
              {profile && (
                <Typography variant="caption" color="text.secondary" noWrap component="p" data-testid="conversation-profile-name">
                  {t('conversations.card.profileName', { name: profile })}
                </Typography>
              )}
            </Box>
            <Stack direction="row" spacing={0.5} sx={{ flex: 'none', alignItems: 'center' }}>
              <UnreadBadge conversation={conversation} />
              <ConversationStatusChip status={conversation.status} />
            </Stack>
          </Stack>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <AnsweredByChip conversation={conversation} />
          </Stack>
          <NoAnswerChip conversation={conversation} />

          {conversation.status === 'requires_human' && (
            // warning.main under white text: 5:1 (warning.light was 3.5:1, below WCAG AA).
            <Box sx={{ bgcolor: 'warning.main', color: 'warning.contrastText', borderRadius: 1, px: 1, py: 0.5 }}>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                <WarningAmberRounded fontSize="small" aria-hidden />
                <Typography variant="caption" sx={{ fontWeight: 700, letterSpacing: 0.5 }}>
                  {t('conversations.card.actionNeeded')}
                </Typography>
              </Stack>
              {conversation.escalationReason && (
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {truncate(conversation.escalationReason)}
                </Typography>
              )}
            </Box>
          )}

          <Typography variant="body2" color={lastText ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere' }}>
            {last?.fromMe && lastText && (
              <Tooltip title={t('conversations.card.fromBusiness')}>
                <ReplyRounded aria-label={t('conversations.card.fromBusiness')} sx={{ fontSize: 16, mr: 0.5, verticalAlign: 'text-bottom', color: 'text.secondary' }} />
              </Tooltip>
            )}
            {lastText ? truncate(lastText) : t('conversations.card.noMessages')}
          </Typography>

          {agent && (
            <Stack direction="row" spacing={0.75} sx={{ alignItems: 'flex-start', color: 'text.secondary' }}>
              <SmartToyOutlined sx={{ fontSize: 16, mt: '2px' }} aria-hidden />
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="caption" component="div" sx={{ fontWeight: 600 }}>
                  {t('conversations.card.agent', { name: agent.name })}
                </Typography>
                {agent.description && (
                  <Typography variant="caption" component="div" sx={{ overflowWrap: 'anywhere' }}>
                    {truncate(agent.description, AGENT_DESCRIPTION_LENGTH)}
                  </Typography>
                )}
              </Box>
            </Stack>
          )}

          <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', color: 'text.secondary' }}>
            <Tooltip title={dateTime(activity)}>
              <Typography variant="caption">{relative(activity)}</Typography>
            </Tooltip>
            {conversation.status === 'closed' && conversation.closedAt && (
              <Tooltip title={dateTime(conversation.closedAt)}>
                <Typography variant="caption">{t('conversations.card.closedAt', { time: relative(conversation.closedAt) })}</Typography>
              </Tooltip>
            )}
          </Stack>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
