/**
 * The modal's right panel (SPEC §2 Conversations): the messages grouped by date in a list that
 * takes the height left, the total count, the 24-hour window note ('Can send new messages for free during 24h
 * period' / 'Last message sent more than 24h ago', from the customer's last message), and the
 * human-reply composer (beyond the spec; ReplyComposer, with the `/` saved replies) while the window
 * is open, the template composer (TemplateComposer) once it is closed.
 */
import { useEffect, useRef } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Conversation, ConversationDetailMessage } from '@agentdesk/functions/contract';
import { groupByDate, messageText, windowOpen } from './format';
import { ReplyComposer } from './ReplyComposer';
import { TemplateComposer } from './TemplateComposer';
import { formatDate } from '../../shared/intl';
import { BubbleText, ChatBubble } from '../../shared/ChatBubble';
import { MessageContent } from '../../shared/MessageContent';
import { sendFailureText } from '../../shared/integrationHealth';
import { NoAnswerNote } from './waiting/NoAnswer';
import { senderLabel } from './inbox/team';
import './inbox/i18n';

function MessageBubble({ message, time }: { message: ConversationDetailMessage; time: string }) {
  const { t } = useTranslation();
  const text = messageText(message);
  const mine = message.fromMe;
  // Who sent it (issue 32): a person's message names the member (or the API key) as of sending.
  const label = senderLabel(message);
  const sender = t(label.key, label.name === undefined ? {} : { name: label.name });
  return (
    <ChatBubble
      own={mine}
      attributes={{ 'data-testid': 'conversation-message', 'data-from-me': mine ? 'true' : 'false' }}
      meta={[sender, time, mine ? t(`conversations.modal.messageStatus.${message.status}`, { defaultValue: message.status }) : ''].filter(Boolean).join(' · ')}
      after={
        message.noAnswer ? (
          // A customer's message the agent could not answer (issue 34).
          <NoAnswerNote marker={message.noAnswer} />
        ) : (
          message.status === 'failed' &&
          (message.error || message.errorReason) && (
            <Typography variant="caption" color="error.main" sx={{ maxWidth: '85%', textAlign: 'right' }} data-testid="message-failure">
              {sendFailureText(message)}
            </Typography>
          )
        )
      }
    >
      {/* Issue 31: a voice note's player and transcript, a photo, a document, a location, contact cards, options. */}
      <MessageContent message={{ ...message, body: text }} own={mine} renderText={(value) => <BubbleText>{value}</BubbleText>} />
    </ChatBubble>
  );
}

interface MessagesPanelProps {
  conversation: Conversation;
  messages: ConversationDetailMessage[];
  now: number;
  sending: boolean;
  /** Resolves true when the reply was sent (the composer then clears); `attachment`: a file uploaded for it (issue 31). */
  onSend: (text: string, attachment?: { uploadId: string }) => Promise<boolean>;
}

export function MessagesPanel({ conversation, messages, now, sending, onSend }: MessagesPanelProps) {
  const { t, i18n } = useTranslation();
  const listRef = useRef<HTMLDivElement>(null);
  const groups = groupByDate(messages, now);
  const open = windowOpen(conversation.lastInboundAt, now);
  const total = Math.max(conversation.messageCount ?? 0, messages.length);
  const lastId = messages.at(-1)?._id;

  // Newest message in view when the list first shows and whenever one arrives.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [lastId, messages.length]);

  return (
    // Fills the height it is given: the list scrolls inside it and the reply box stays at the bottom (issue 29).
    <Stack spacing={1.5} sx={{ minWidth: 0, minHeight: 0, flex: 1 }}>
      {/* On a phone the 'Messages' tab names the list already. */}
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', display: { xs: 'none', md: 'flex' } }}>
        <Typography variant="h6" component="h3">
          {t('conversations.modal.messagesTitle')}
        </Typography>
        <Chip size="small" label={t('conversations.modal.messageCount', { count: total })} data-testid="conversation-message-count" />
      </Stack>
      <Box
        ref={listRef}
        role="log"
        aria-label={t('conversations.modal.messagesTitle')}
        // Scrollable from the keyboard too (axe: scrollable-region-focusable).
        tabIndex={0}
        sx={{ flex: 1, minHeight: 120, overflowY: 'auto', bgcolor: 'action.hover', borderRadius: 1, p: { xs: 1, md: 1.5 } }}
      >
        {groups.length === 0 ? (
          <Typography color="text.secondary" sx={{ textAlign: 'center', mt: 8 }}>
            {t('conversations.modal.noMessages')}
          </Typography>
        ) : (
          groups.map((group) => (
            <Box key={group.day} component="section" sx={{ mb: 1.5 }}>
              <Divider sx={{ mb: 1 }}>
                <Typography variant="caption" color="text.secondary">
                  {group.label === 'today'
                    ? t('conversations.modal.today')
                    : group.label === 'yesterday'
                      ? t('conversations.modal.yesterday')
                      : (formatDate(i18n.language, group.label, 'fullDate') ?? '')}
                </Typography>
              </Divider>
              <Stack spacing={1}>
                {group.messages.map((message) => (
                  <MessageBubble key={message._id} message={message} time={formatDate(i18n.language, message.timestamp, 'time') ?? ''} />
                ))}
              </Stack>
            </Box>
          ))
        )}
      </Box>
      <Alert severity={open ? 'success' : 'warning'} variant="outlined" sx={{ py: 0 }} data-testid="conversation-window-note">
        {open ? t('conversations.modal.windowOpen') : t('conversations.modal.windowClosed')}
      </Alert>
      {open ? (
        <ReplyComposer conversationId={conversation._id} open={open} sending={sending} onSend={onSend} />
      ) : (
        // Outside the 24-hour window WhatsApp only delivers an approved template (issue 17).
        <TemplateComposer conversationId={conversation._id} />
      )}
    </Stack>
  );
}
