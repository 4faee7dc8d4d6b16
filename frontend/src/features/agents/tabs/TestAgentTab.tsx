/**
 * Test Agent tab (SPEC §2 Test Agent, §3 Chat message, §5 chat, §8): a chat with the agent as
 * customers will meet it. Send is off for an empty or blank message; Enter sends (Shift+Enter is a
 * new line). Each reply has an expandable 'What the agent used' (tools with arguments and results,
 * knowledge sources: the matching passage with the question's terms marked, document, page, section
 * and absolute relevance) and an escalation notice when the agent handed over to a human.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { keyframes } from '@mui/material/styles';
import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import BuildOutlined from '@mui/icons-material/BuildOutlined';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import DeleteSweepOutlined from '@mui/icons-material/DeleteSweepOutlined';
import ExpandMore from '@mui/icons-material/ExpandMore';
import LanguageOutlined from '@mui/icons-material/LanguageOutlined';
import QuestionAnswerOutlined from '@mui/icons-material/QuestionAnswerOutlined';
import Send from '@mui/icons-material/Send';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AGENT_LIMITS, agentMessages, type Agent, type ChatMessage, type ChatSource, type ChatToolCall } from '@agentdesk/functions/contract';
import { useToast } from '../../../shared/useToast';
import { formatDateTime } from './format';
import { formatPercent } from '../../../shared/intl';
import { highlightPieces, isLongPassage, sourcePage } from './sources';
import { knowledgeKeys } from './knowledge/queries';
import { TabHeader } from './TabLayout';
import { WhatsAppPreview } from './WhatsAppPreview';
import { tabErrorMessage, tabMessage } from './messages';
import { clearTestChat, openTestChat, sendTestMessage, useTestChat } from './testChat';

const bounce = keyframes`
  0%, 80%, 100% { transform: translateY(0); opacity: 0.4; }
  40% { transform: translateY(-4px); opacity: 1; }
`;

function TypingIndicator() {
  const { t } = useTranslation();
  return (
    <Stack direction="row" sx={{ justifyContent: 'flex-start' }}>
      <Paper
        variant="outlined"
        role="status"
        aria-label={t('agentTabs.chat.typing')}
        sx={{ px: 2, py: 1.5, borderRadius: 3, borderTopLeftRadius: 4, display: 'flex', gap: 0.5 }}
      >
        {[0, 1, 2].map((i) => (
          <Box
            key={i}
            sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'text.secondary', animation: `${bounce} 1.2s ${i * 0.15}s infinite ease-in-out` }}
          />
        ))}
      </Paper>
    </Stack>
  );
}

function formatArguments(args: Record<string, unknown>): string {
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}

const codeBlock = {
  m: 0,
  p: 1,
  borderRadius: 1,
  bgcolor: 'action.hover',
  fontFamily: 'monospace',
  fontSize: 12,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
  maxHeight: 200,
  overflow: 'auto',
} as const;

function ToolCallItem({ call }: { call: ChatToolCall }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="chat-tool-call">
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <BuildOutlined fontSize="small" color="action" aria-hidden />
        <Typography sx={{ fontFamily: 'monospace', fontWeight: 600 }}>{call.name}</Typography>
        <Chip
          size="small"
          color={call.ok ? 'success' : 'error'}
          variant="outlined"
          label={call.ok ? t('agentTabs.chat.toolOk') : t('agentTabs.chat.toolFailed')}
        />
        {call.status !== undefined && (
          <Typography variant="caption" color="text.secondary">
            HTTP {call.status}
          </Typography>
        )}
        <Typography variant="caption" color="text.secondary">
          {t('agentTabs.chat.duration', { ms: Math.round(call.durationMs) })}
        </Typography>
      </Stack>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {t('agentTabs.chat.arguments')}
      </Typography>
      <Box component="pre" sx={codeBlock}>
        {formatArguments(call.arguments)}
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {t('agentTabs.chat.result')}
      </Typography>
      <Box component="pre" sx={codeBlock}>
        {call.result}
      </Box>
    </Paper>
  );
}

const KIND_ICONS = { file: ArticleOutlined, url: LanguageOutlined, entry: QuestionAnswerOutlined } as const;

/** The highlighted terms: dark text on light yellow in both themes (contrast well above 7:1). */
const markSx = { bgcolor: '#ffe58f', color: '#1a1a1a', borderRadius: 0.5, px: 0.25 } as const;

/** A knowledge source: the passage with the question's terms marked, where it is, and how relevant (issue 18). */
function SourceItem({ source }: { source: ChatSource }) {
  const { t, i18n } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const Icon = KIND_ICONS[source.kind] ?? ArticleOutlined;
  const page = sourcePage(source);
  const long = isLongPassage(source.excerpt ?? '');
  const clamped = long && !expanded;
  const percent = formatPercent(i18n.language, source.score);
  const where = [t(`agentTabs.chat.sourceKind.${source.kind}`), page !== null ? t('agentTabs.chat.page', { page }) : null, source.section || null].filter(Boolean);
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="chat-source" data-kind={source.kind}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Icon fontSize="small" color="action" titleAccess={t(`agentTabs.chat.sourceKind.${source.kind}`)} />
        <Typography sx={{ fontWeight: 600, wordBreak: 'break-word', flex: 1, minWidth: 0 }} data-testid="chat-source-name">
          {source.name}
        </Typography>
        <Tooltip title={t('agentTabs.chat.relevanceHelp')} arrow describeChild>
          <Chip
            size="small"
            variant="outlined"
            color={source.score >= 0.5 ? 'success' : 'default'}
            label={t('agentTabs.chat.relevance', { percent })}
            tabIndex={0}
            data-testid="chat-source-score"
            sx={{ flexShrink: 0 }}
          />
        </Tooltip>
      </Stack>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }} data-testid="chat-source-location">
        {where.join(' · ')}
      </Typography>
      {source.excerpt && (
        <>
          <Typography
            variant="body2"
            color="text.secondary"
            component="blockquote"
            aria-label={t('agentTabs.chat.passageLabel', { name: source.name })}
            data-testid="chat-source-passage"
            sx={{
              m: 0,
              mt: 1,
              pl: 1.5,
              borderLeft: 3,
              borderColor: 'divider',
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              ...(clamped ? { display: '-webkit-box', WebkitLineClamp: 4, WebkitBoxOrient: 'vertical', overflow: 'hidden' } : {}),
            }}
          >
            {highlightPieces(source.excerpt, source.highlights).map((piece, i) =>
              piece.mark ? (
                <Box component="mark" key={i} sx={markSx}>
                  {piece.text}
                </Box>
              ) : (
                piece.text
              ),
            )}
          </Typography>
          {long && (
            <Button size="small" onClick={() => setExpanded((v) => !v)} aria-expanded={expanded} sx={{ mt: 0.5, ml: 0.5 }}>
              {expanded ? t('agentTabs.chat.showLess') : t('agentTabs.chat.showMore')}
            </Button>
          )}
        </>
      )}
    </Paper>
  );
}

function UsedDetails({ details }: { details: NonNullable<ChatMessage['details']> }) {
  const { t } = useTranslation();
  const { toolCalls, sources } = details;
  const summary =
    toolCalls.length + sources.length === 0
      ? t('agentTabs.chat.usedNothingShort')
      : [
          toolCalls.length > 0 ? t('agentTabs.chat.toolCount', { count: toolCalls.length }) : null,
          sources.length > 0 ? t('agentTabs.chat.sourceCount', { count: sources.length }) : null,
        ]
          .filter(Boolean)
          .join(', ');
  return (
    <Accordion disableGutters variant="outlined" sx={{ mt: 1, '&:before': { display: 'none' }, borderRadius: 2, overflow: 'hidden' }}>
      <AccordionSummary expandIcon={<ExpandMore />} sx={{ minHeight: 40, '& .MuiAccordionSummary-content': { my: 0.5 } }}>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {t('agentTabs.chat.used')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ ml: 1 }}>
          ({summary})
        </Typography>
      </AccordionSummary>
      <AccordionDetails sx={{ pt: 0 }}>
        {toolCalls.length + sources.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('agentTabs.chat.usedNothing')}
          </Typography>
        ) : (
          <Stack spacing={2}>
            {toolCalls.length > 0 && (
              <Box>
                <Typography variant="subtitle2" component="h4" sx={{ mb: 1 }}>
                  {t('agentTabs.chat.tools')}
                </Typography>
                <Stack spacing={1}>
                  {toolCalls.map((call, i) => (
                    <ToolCallItem key={`${call.name}-${i}`} call={call} />
                  ))}
                </Stack>
              </Box>
            )}
            {sources.length > 0 && (
              <Box>
                <Typography variant="subtitle2" component="h4" sx={{ mb: 1 }}>
                  {t('agentTabs.chat.sources')}
                </Typography>
                <Stack spacing={1}>
                  {sources.map((source, i) => (
                    <SourceItem key={`${source.sourceId}-${i}`} source={source} />
                  ))}
                </Stack>
              </Box>
            )}
          </Stack>
        )}
      </AccordionDetails>
    </Accordion>
  );
}

function MessageBubble({ message }: { message: ChatMessage }) {
  const { t, i18n } = useTranslation();
  const mine = message.role === 'user';
  return (
    <Stack direction="row" sx={{ justifyContent: mine ? 'flex-end' : 'flex-start' }} data-testid={mine ? 'chat-user-message' : 'chat-agent-message'}>
      <Box sx={{ maxWidth: { xs: '92%', md: '80%' }, minWidth: 0 }}>
        <Paper
          variant={mine ? 'elevation' : 'outlined'}
          elevation={0}
          sx={{
            px: 2,
            py: 1.25,
            borderRadius: 3,
            ...(mine
              ? { bgcolor: 'primary.main', color: 'primary.contrastText', borderTopRightRadius: 4 }
              : { bgcolor: 'background.paper', borderTopLeftRadius: 4 }),
          }}
        >
          {!mine && message.agent && (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ fontWeight: 600 }}>
              {message.agent}
            </Typography>
          )}
          <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{message.content}</Typography>
        </Paper>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ textAlign: mine ? 'right' : 'left', mt: 0.25, px: 1 }}>
          {formatDateTime(message.timestamp, i18n.language)}
        </Typography>
        {message.details?.escalation && (
          <Alert severity="warning" icon={<SupportAgentOutlined />} sx={{ mt: 1 }}>
            {t('agentTabs.chat.escalated', { reason: message.details.escalation.reason })}
          </Alert>
        )}
        {message.details && <WhatsAppPreview details={message.details} />}
        {message.details && <UsedDetails details={message.details} />}
      </Box>
    </Stack>
  );
}

export default function TestAgentTab({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const chat = useTestChat(agent._id);
  const [draft, setDraft] = useState('');
  const scrollRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const agentId = agent._id;
  // Opening another agent's chat starts it empty (and drops the text typed for the previous one).
  useEffect(() => {
    openTestChat(agentId);
    setDraft('');
  }, [agentId]);

  // Keep the newest message in view.
  useEffect(() => {
    const box = scrollRef.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [chat.messages.length, chat.pending]);

  const trimmed = draft.trim();
  const tooLong = trimmed.length > AGENT_LIMITS.chatMessage;
  const canSend = trimmed !== '' && !tooLong && !chat.pending;

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    const text = trimmed;
    setDraft('');
    try {
      await sendTestMessage(agentId, text);
      // A refusal is recorded as an unanswered question: the Knowledge tab's badge follows.
      void queryClient.invalidateQueries({ queryKey: knowledgeKeys.unanswered(agentId) });
    } catch (err) {
      setDraft((current) => (current === '' ? text : current));
      toast.error(tabErrorMessage(err, t('agentTabs.chat.sendFailed')));
    } finally {
      inputRef.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <Stack spacing={2}>
      <TabHeader
        title={t('agentTabs.chat.title')}
        intro={t('agentTabs.chat.intro')}
        actions={
          <Button
            variant="outlined"
            startIcon={<DeleteSweepOutlined />}
            onClick={() => clearTestChat(agentId)}
            disabled={chat.messages.length === 0 && !chat.pending}
            sx={{ flexShrink: 0 }}
          >
            {t('agentTabs.chat.clear')}
          </Button>
        }
      />

      <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column', height: { xs: '65vh', md: '60vh' }, minHeight: 360, overflow: 'hidden' }}>
        <Box
          ref={scrollRef}
          role="log"
          aria-live="polite"
          aria-label={t('agentTabs.chat.logLabel')}
          sx={{ flex: 1, overflowY: 'auto', p: { xs: 1.5, sm: 2 }, bgcolor: 'background.default' }}
        >
          {chat.messages.length === 0 && !chat.pending ? (
            <Stack spacing={1} sx={{ height: '100%', alignItems: 'center', justifyContent: 'center', textAlign: 'center', px: 2 }}>
              <ChatOutlined sx={{ fontSize: 48, color: 'text.disabled' }} aria-hidden />
              <Typography variant="subtitle1" component="p">
                {t('agentTabs.chat.emptyTitle', { name: agent.name })}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 420 }}>
                {t('agentTabs.chat.emptyBody')}
              </Typography>
            </Stack>
          ) : (
            <Stack spacing={2}>
              {chat.messages.map((message, i) => (
                <MessageBubble key={`${message.timestamp}-${i}`} message={message} />
              ))}
              {chat.pending && <TypingIndicator />}
            </Stack>
          )}
        </Box>
        <Box component="form" onSubmit={(e) => void send(e)} sx={{ p: 1.5, borderTop: 1, borderColor: 'divider', display: 'flex', gap: 1, alignItems: 'flex-end' }}>
          <TextField
            inputRef={inputRef}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder={t('agentTabs.chat.placeholder')}
            multiline
            maxRows={5}
            fullWidth
            size="small"
            autoComplete="off"
            slotProps={{ htmlInput: { 'aria-label': t('agentTabs.chat.inputLabel') } }}
            error={tooLong}
            helperText={tooLong ? tabMessage(agentMessages.messageTooLong) : undefined}
          />
          <Button type="submit" variant="contained" endIcon={<Send />} disabled={!canSend} sx={{ flexShrink: 0, mb: tooLong ? 2.75 : 0 }}>
            {t('agentTabs.chat.send')}
          </Button>
        </Box>
      </Paper>
    </Stack>
  );
}
