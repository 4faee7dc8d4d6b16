/**
 * The agent's answer to one stored inbound message whose reply claim is held (the
 * whatsapp-inbound pipeline, inbound.ts): only when the conversation is active, an agent is
 * enabled and ChatGPT and WhatsApp are connected; 1 message of the plan is reserved (a reached
 * limit is stored as a failed reply), the agent runs on the conversation's recent history, its
 * reply is sent through the Graph API and stored (pending → sent with its wamid, or failed with
 * the reason), and the conversation is escalated when the agent handed over.
 */
import { integrationHealthReasons, type IntegrationHealth } from '../../contract/integration-health.js';
import { whatsappMessages } from '../../contract/whatsapp.js';
import { pickAnsweringAgent, type AgentReader, type AgentWithChildren } from '../agents/ports.js';
import { answerAs, type AgentReply, type HistoryMessage, type ToolExecutor } from '../agents/runtime/index.js';
import type { AiConnector } from '../ai/ports.js';
import {
  lastMessageOf,
  type ConversationAgentRef,
  type ConversationRepository,
  type InboxSettingsRepository,
  type MessageRepository,
  type MessageUsage,
  type StoredConversation,
  type StoredMessage,
} from '../conversations/ports.js';
import { aiPausedAt, humanSinceOf } from '../conversations/takeover.js';
import { INBOX_DEFAULTS } from '../../contract/inbox.js';
import { LimitExceededError, PaymentRequiredError } from '../errors.js';
import { classifyProviderFailure, LastingError } from '../retry.js';
import type { NoAnswer } from '../conversations/waiting.js';
import { credentialFailureOf, type IntegrationHealthReports } from '../integrations/health.js';
import type { KnowledgeRetriever } from '../knowledge/ports.js';
import type { RecordUnanswered } from '../knowledge/unanswered.js';
import type { EscalationAlerts } from '../notifications/ports.js';
import type { InboundCustomer } from './parse-delivery.js';
import { GraphError, type GraphClient, type WhatsAppCredentials } from './ports.js';

export interface InboundConnection {
  credentials: WhatsAppCredentials;
  phoneNumber: string;
  /** Set while the WhatsApp integration needs attention (issue 34). */
  health?: IntegrationHealth;
}

export interface AgentReplyDeps {
  conversations: ConversationRepository;
  messages: MessageRepository;
  agents: AgentReader;
  ai: AiConnector;
  retriever: KnowledgeRetriever;
  tools: ToolExecutor;
  usage: MessageUsage;
  graph: GraphClient;
  /** The idle hours after which the AI takes a conversation back from a person (issue 17); INBOX_DEFAULTS when absent. */
  inboxSettings?: Pick<InboxSettingsRepository, 'get'>;
  /** The owner's alert when the agent escalates (issue 17); never throws. Absent = no alert. */
  alerts?: EscalationAlerts;
  /** Records a question the agent's knowledge could not answer (issue 18; never throws). Absent = not recorded. */
  recordUnanswered?: RecordUnanswered;
  /**
   * A message the model could not answer is marked and waits, the owner told once per incident;
   * an answer ends the incident (issue 34). Absent: such a failure is thrown (the job retries,
   * then dead-letters).
   */
  noAnswer?: Pick<NoAnswer, 'unanswered' | 'answered'>;
  /** A send refused for the token flags the WhatsApp integration, one that works clears it (issue 34; never throws). Absent = not reported. */
  health?: IntegrationHealthReports;
  /** The user's WhatsApp connection (token opened), or null when not connected. */
  connection(userId: string): Promise<InboundConnection | null>;
  /** 26-character time-sortable id. */
  newId(now: number): string;
  now?: () => number;
  /** Messages of history given to the agent. */
  historyLimit?: number;
  /** Time budget of one agent reply. */
  replyBudgetMs?: number;
  onError?: (message: string, error: unknown) => void;
}

/**
 * human_answering: a person took the conversation over (takeover.ts): the message is stored, the
 * AI stays quiet. waiting: the model could not answer (issue 34): the message keeps a "no answer
 * sent" marker and waits for the answer action (conversations/waiting.ts).
 */
export type ReplyOutcome = 'not_active' | 'human_answering' | 'no_agent' | 'not_connected' | 'limit' | 'replied' | 'send_failed' | 'waiting';

export interface AnswerOptions {
  /**
   * The queue job's last try (Delivery.finalAttempt): a model failure that may pass is no longer
   * thrown for a retry; the message waits, visibly (issue 34).
   */
  finalAttempt?: boolean;
  /** A waiting message answered later (the answer action): the agent reads the conversation before it, not after. */
  waiting?: boolean;
}

/** The provider behind the agent's model: its incident is per account (conversations/waiting.ts). */
export const MODEL_PROVIDER = 'openai';
const HISTORY_LIMIT = 20;

function agentRef(agent: AgentWithChildren): ConversationAgentRef {
  return { _id: agent._id, name: agent.name, description: agent.description, objective: agent.objective, priority: agent.priority };
}

/** What the agent reads for a message: its text, or a note of what was sent. */
export function agentTextOf(m: Pick<StoredMessage, 'type' | 'body' | 'media'>): string {
  if (m.body.trim()) return m.type === 'chat' ? m.body : `[${m.type}] ${m.body}`;
  if (m.media?.filename) return `[The customer sent a ${m.type}: ${m.media.filename}]`;
  return `[The customer sent a ${m.type === 'ptt' ? 'voice message' : m.type}]`;
}

/**
 * The conversation's recent messages as the agent's history for `message`: without the message
 * itself and without our failed sends, the newest `limit` turns.
 */
export function historyTurns(history: StoredMessage[], message: Pick<StoredMessage, 'id'>, limit: number): HistoryMessage[] {
  const turns: HistoryMessage[] = history
    .filter((h) => h.id !== message.id && (h.status !== 'failed' || !h.fromMe))
    .map((h) => ({ role: h.fromMe ? 'assistant' : 'user', content: h.fromMe ? h.body : agentTextOf(h) }));
  return turns.slice(-limit);
}

type Reservation = { ok: true } | { ok: false; error: unknown };

export function createAgentReply(deps: AgentReplyDeps) {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const onError = deps.onError ?? (() => undefined);
  const historyLimit = deps.historyLimit ?? HISTORY_LIMIT;

  return {
    /** Decides and sends the agent's answer to `message` (the reply claim is held). */
    async answer(userId: string, conversation: StoredConversation, message: StoredMessage, customer: InboundCustomer, options: AnswerOptions = {}): Promise<ReplyOutcome> {
      if (conversation.status !== 'active' && conversation.status !== 'requires_human') return 'not_active';
      if (conversation.status === 'requires_human' || conversation.aiPaused) {
        // Escalated before the takeover was stored and with no time to count from: it waits for a person.
        if (!humanSinceOf(conversation)) return 'not_active';
        const { aiResumeAfterHours } = deps.inboxSettings ? await deps.inboxSettings.get(userId) : INBOX_DEFAULTS;
        if (aiPausedAt(conversation, aiResumeAfterHours, now())) return 'human_answering';
        // The idle time passed since the person last acted: the AI takes the conversation back
        // (an escalated one becomes active again) and answers.
        await deps.conversations.update(
          userId,
          conversation.id,
          { aiPaused: false, ...(conversation.status === 'requires_human' ? { status: 'active' as const } : {}) },
          iso(),
          conversation.status,
        );
      }
      // Everything the reply needs, read at once; the plan's message is reserved alongside (given
      // back below when no reply is due).
      const [agents, connection, whatsapp, history, reservation] = await Promise.all([
        deps.agents.list(userId),
        deps.ai.forUser(userId),
        deps.connection(userId),
        deps.messages.recent(userId, conversation.id, historyLimit + 1),
        deps.usage.reserve(userId, 'messages', 1).then(
          (): Reservation => ({ ok: true }),
          (error: unknown): Reservation => ({ ok: false, error }),
        ),
      ]);
      const agent = pickAnsweringAgent(agents);
      const skip: ReplyOutcome | null = !agent || !connection ? 'no_agent' : !whatsapp ? 'not_connected' : null;
      if (skip || !agent || !connection || !whatsapp) {
        if (reservation.ok) await deps.usage.release(userId, 'messages', 1);
        return skip ?? 'no_agent';
      }

      const outgoing = (body: string, status: 'pending' | 'failed', error?: string): StoredMessage => {
        const at = now();
        return {
          id: `${conversation.id}-${deps.newId(at)}`,
          conversationId: conversation.id,
          waMessageId: '',
          contactId: message.contactId,
          type: 'chat',
          hasMedia: false,
          fromMe: true,
          from: whatsapp.phoneNumber,
          to: customer.phone || customer.waId,
          phoneNumberId: message.phoneNumberId,
          status,
          timestamp: new Date(at).toISOString(),
          body,
          ...(error ? { error } : {}),
          agent: { _id: agent._id, name: agent.name },
          sentBy: 'agent',
          createdAt: new Date(at).toISOString(),
        };
      };

      if (!reservation.ok) {
        const error = reservation.error;
        if (!(error instanceof LimitExceededError) && !(error instanceof PaymentRequiredError)) throw error;
        const failed = outgoing('', 'failed', error instanceof LimitExceededError ? whatsappMessages.usageLimitReached : error.message);
        await deps.messages.insertOutbound(userId, failed);
        await deps.conversations.touch(userId, conversation.id, { lastMessage: lastMessageOf(failed), lastMessageAt: failed.createdAt, messageCountDelta: 1 });
        return 'limit';
      }

      let answer: AgentReply;
      try {
        answer = await answerAs('whatsapp', deps, {
          userId,
          agent,
          connection,
          // A waiting message is answered with what came before it (a later message may have been answered since).
          history: historyTurns(options.waiting ? history.filter((h) => h.id < message.id) : history, message, historyLimit),
          message: agentTextOf(message),
          deadline: now() + (deps.replyBudgetMs ?? 60_000),
          now,
          onError,
        });
      } catch (error) {
        await deps.usage.release(userId, 'messages', 1);
        // A model failure is never a processed reply (issue 34): retried on the queue's schedule
        // while it may pass (a TransientError keeps the provider's Retry-After), else the message
        // waits with a marker and the owner is told.
        const failure = classifyProviderFailure(error);
        const lasting = failure instanceof LastingError ? failure : undefined;
        if ((!lasting && !options.finalAttempt) || !deps.noAnswer) throw failure ?? error;
        onError(`The agent could not answer a WhatsApp message (${lasting ? lasting.reason : 'retries exhausted'}): it waits for an answer`, error);
        await deps.noAnswer.unanswered(userId, message, MODEL_PROVIDER, lasting ? lasting.reason : 'unavailable');
        return 'waiting';
      }
      await Promise.all([
        deps.recordUnanswered?.(userId, agent._id, answer.unanswered, { channel: 'whatsapp', conversationId: conversation.id }),
        // The model answered: an outage it was in is over for this account.
        deps.noAnswer?.answered(userId, MODEL_PROVIDER),
      ]);

      // A person took the conversation over while the model was writing (their reply or an
      // escalation paused the AI): the agent's answer would talk over them, so it is dropped.
      const latest = await deps.conversations.get(userId, conversation.id);
      if (latest?.aiPaused) {
        await deps.usage.release(userId, 'messages', 1);
        return 'human_answering';
      }

      // Escalated: the conversation leaves the agent first, so the customer's next messages wait for a person.
      if (answer.escalation) {
        const reason = answer.escalation.reason.slice(0, 500);
        const escalated = await deps.conversations.escalate(userId, conversation.id, reason, iso());
        // Once per escalation: a redelivery finds the conversation no longer active (or the same escalatedAt).
        if (escalated) {
          await deps.alerts?.escalated(userId, {
            kind: 'conversation_escalated',
            subjectId: conversation.id,
            contactName: escalated.customerName || escalated.customerPhone || escalated.customerWaId,
            reason,
            occurrence: escalated.escalatedAt ?? '',
          });
        }
      }

      // The reply is stored as pending while it is sent (side by side), then moved to sent or failed.
      const pending = outgoing(answer.reply, 'pending');
      const [insert, send] = await Promise.allSettled([
        deps.messages.insertOutbound(userId, pending),
        deps.graph.sendText(whatsapp.credentials, customer.waId, answer.reply),
      ]);
      if (insert.status === 'rejected') {
        if (send.status === 'rejected') await deps.usage.release(userId, 'messages', 1);
        throw insert.reason;
      }
      // The reply's status, and beside it (issue 28: one round trip less) the conversation's
      // activity: its last message is the reply's text and time whatever the status. A send that
      // failed for another reason than Meta's answer is retried (thrown): no activity then.
      const status = async (): Promise<ReplyOutcome> => {
        if (send.status === 'fulfilled') {
          await deps.messages.markSent(userId, pending.id, send.value.messageId);
          await deps.health?.recovered(userId, 'whatsapp-business', whatsapp.health);
          return 'replied';
        }
        const error: unknown = send.reason;
        // A refused token (Meta 190…) is stored as our reason with Meta's code, not Meta's English,
        // and flags the integration (the owner is notified once).
        const refused = error instanceof GraphError ? credentialFailureOf(error) : undefined;
        if (refused) await deps.health?.failed(userId, error, whatsapp.health);
        const text = refused ? integrationHealthReasons[refused.reason] : error instanceof GraphError ? error.message : whatsappMessages.graphUnavailable;
        const code = error instanceof GraphError && error.code !== undefined ? String(error.code) : undefined;
        await deps.messages.markFailed(userId, pending.id, text, { ...(code ? { errorCode: code } : {}), ...(refused ? { errorReason: refused.reason } : {}) });
        await deps.usage.release(userId, 'messages', 1);
        if (!(error instanceof GraphError)) throw error;
        onError(`WhatsApp send failed (${error.kind})`, error);
        return 'send_failed';
      };
      const recordsActivity = send.status === 'fulfilled' || send.reason instanceof GraphError;
      const [outcome, touched] = await Promise.allSettled([
        status(),
        recordsActivity
          ? deps.conversations.touch(userId, conversation.id, {
              lastMessage: lastMessageOf(pending),
              lastAgent: agentRef(agent),
              lastMessageAt: pending.createdAt,
              messageCountDelta: 1,
            })
          : undefined,
      ]);
      if (outcome.status === 'rejected') throw outcome.reason;
      if (touched.status === 'rejected') throw touched.reason;
      return outcome.value;
    },
  };
}

export type AgentReplier = ReturnType<typeof createAgentReply>;
