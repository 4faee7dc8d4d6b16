/**
 * The agent's answer to one stored inbound message whose reply claim is held (the
 * whatsapp-inbound pipeline, inbound.ts): only when the conversation is active, an agent is
 * enabled and ChatGPT and WhatsApp are connected; 1 message of the plan is reserved (a reached
 * limit is stored as a failed reply), the agent runs on the conversation's recent history, its
 * reply is sent through the Graph API and stored (pending → sent with its wamid, or failed with
 * the reason), and the conversation is escalated when the agent handed over.
 *
 * A send Meta refuses for now (issue 34 item 2: 5xx, its "temporarily unavailable" codes,
 * throttling, a connection never made) is retried on the queue's schedule with the SAME reply:
 * the reply is noted on the customer's message when it is stored (ReplyDraft, one transaction),
 * and a later try of the job resumes it without asking the model again. On the job's last try it
 * is stored as failed (our words, Meta's code), the customer's message waits with a "no answer
 * sent — WhatsApp unavailable" marker, the owner is told once per incident (conversations/
 * waiting.ts), and "Answer waiting messages" sends that reply then.
 *
 * Never twice: Meta's send API is not idempotent. A send whose answer was lost after the request
 * went out (a timeout, a connection broken once open) may have been accepted, and so may a send a
 * later try finds still 'sending' (the try died mid-send). We chose at most once for those: the
 * reply is stored as failed, "not confirmed", and never sent again by itself; a duplicate reply
 * cannot be taken back, while an unconfirmed one is in front of the owner, and each send carries
 * our message id as Meta's biz_opaque_callback_data, so when Meta did take it its status webhook
 * turns the reply to sent (apply-status.ts). Lasting refusals (131047, 131026, 100, 190…) fail at
 * once with their reason.
 */
import { integrationHealthReasons, type IntegrationHealth } from '../../contract/integration-health.js';
import { privacyMessages } from '../../contract/privacy.js';
import { whatsappMessages } from '../../contract/whatsapp.js';
import { pickAnsweringAgent, type AgentReader, type AgentWithChildren } from '../agents/ports.js';
import { answerAs, customerE164, type AgentReply, type HistoryMessage, type ToolExecutor } from '../agents/runtime/index.js';
import type { BusinessLocationReader } from '../agents/runtime/ports.js';
import type { AiConnector } from '../ai/ports.js';
import type { Bookings } from '../bookings/ports.js';
import {
  lastMessageOf,
  type ConversationAgentRef,
  type ConversationRepository,
  type InboxSettingsRepository,
  type MessageRepository,
  type MessageUsage,
  type ReplyDraft,
  type StoredConversation,
  type StoredMessage,
} from '../conversations/ports.js';
import { insideWindow } from '../conversations/service.js';
import { aiPausedAt, humanSinceOf } from '../conversations/takeover.js';
import { INBOX_DEFAULTS } from '../../contract/inbox.js';
import { LimitExceededError, PaymentRequiredError } from '../errors.js';
import { classifyProviderFailure, LastingError } from '../retry.js';
import type { NoAnswer } from '../conversations/waiting.js';
import { credentialFailureOf, type IntegrationHealthReports } from '../integrations/health.js';
import type { KnowledgeRetriever } from '../knowledge/ports.js';
import { aiNotice, noticeLanguage, withNotice, type AccountNoticesReader } from '../privacy/notices.js';
import { mayBeOptOutWord, optOutWordOf } from '../privacy/opt-outs.js';
import type { OptOuts } from '../privacy/ports.js';
import type { RecordUnanswered } from '../knowledge/unanswered.js';
import type { EscalationAlerts } from '../notifications/ports.js';
import type { InboundCustomer } from './parse-delivery.js';
import { customerWroteAt } from './store-inbound.js';
import { agentText, type AgentTextMessage } from './media/agent-text.js';
import type { MediaForAgent, MediaUnderstanding } from './media/ports.js';
import { sendFailureOf } from './graph-errors.js';
import { assistantTextOf, interactiveOf, sendStoredMessage, textWithOptions, type StoredSendDeps } from './outbound-content.js';
import { GraphError, type GraphClient, type GraphContentClient, type WhatsAppCredentials } from './ports.js';
import { createReplyOutbound, type ReplyOutboundDeps } from './reply-outbound.js';

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
  /** The owner's business location for the agent's send_location tool (issue 31); absent = not offered. */
  businessLocations?: BusinessLocationReader;
  /** The bookings core for the agent's built-in booking tools (issue 30); absent = not offered. */
  bookings?: Bookings;
  usage: MessageUsage;
  /** Issue 31: what the agent reads of the message it answers (a transcript, a document's text, the photo as an image input); absent = its text only. */
  understanding?: Pick<MediaUnderstanding, 'forAgent'>;
  /** Text sends, and (issue 31) replies with buttons or a list, files and locations when the client has sendContent. */
  graph: GraphClient & Partial<GraphContentClient>;
  /** Issue 31: a file the agent sends is read from the uploads bucket and uploaded to Meta; absent = files are stored as not sent. */
  mediaUpload?: StoredSendDeps['mediaUpload'];
  /** Keeps Meta's media id of an agent file's upload on the file, to send it again by id (issue 31); absent = uploaded each time. */
  fileMedia?: ReplyOutboundDeps['fileMedia'];
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
  /**
   * Issue 33: the account's AI notice (the first agent message of a conversation starts with it)
   * and its opt-out words (a customer's stop or start word is answered with its confirmation, not
   * by the agent). Absent = neither.
   */
  privacy?: { notices: AccountNoticesReader; optOuts: Pick<OptOuts, 'set' | 'clear'> };
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
 * AI stays quiet. window_closed: the customer last wrote more than 24 hours ago as Meta stamped it
 * (a late redelivery, issue 29): Meta would refuse a free-form reply, so none is written; the
 * owner's way is a template. waiting: the model could not answer (issue 34): the message keeps a "no answer
 * sent" marker and waits for the answer action (conversations/waiting.ts).
 */
export type ReplyOutcome = 'not_active' | 'human_answering' | 'window_closed' | 'no_agent' | 'not_connected' | 'limit' | 'replied' | 'send_failed' | 'waiting';

export interface AnswerOptions {
  /**
   * The queue job's last try (Delivery.finalAttempt): a model failure that may pass is no longer
   * thrown for a retry; the message waits, visibly (issue 34).
   */
  finalAttempt?: boolean;
  /** A waiting message answered later (the answer action): the agent reads the conversation before it, not after. */
  waiting?: boolean;
  /** What the media step (inbound.ts) already read for this message: not read again. */
  known?: { agents?: Promise<AgentWithChildren[]>; whatsapp?: InboundConnection | null };
}

/** The provider behind the agent's model: its incident is per account (conversations/waiting.ts). */
export const MODEL_PROVIDER = 'openai';
/** The provider behind the replies' sends: a reply it refused on every try is an incident of its own. */
export const SEND_PROVIDER = 'whatsapp';
const HISTORY_LIMIT = 20;

function agentRef(agent: AgentWithChildren): ConversationAgentRef {
  return { _id: agent._id, name: agent.name, description: agent.description, objective: agent.objective, priority: agent.priority };
}

/** What the agent reads for a message in the history: its text, a transcript, a document's preview, a location, or a note of what was sent (media/agent-text.ts). */
export function agentTextOf(m: AgentTextMessage): string {
  return agentText(m);
}

/**
 * The conversation's recent messages as the agent's history for `message`: without the message
 * itself and without our failed sends, the newest `limit` turns.
 */
export function historyTurns(history: StoredMessage[], message: Pick<StoredMessage, 'id'>, limit: number): HistoryMessage[] {
  const turns: HistoryMessage[] = history
    .filter((h) => h.id !== message.id && (h.status !== 'failed' || !h.fromMe))
    .map((h) => ({ role: h.fromMe ? 'assistant' : 'user', content: h.fromMe ? assistantTextOf(h) : agentTextOf(h) }));
  return turns.slice(-limit);
}

type Reservation = { ok: true } | { ok: false; error: unknown };

/** Where a reply's activity goes: the conversation, and the agent it names (absent when the agent is gone). */
interface ActivityTarget {
  userId: string;
  conversation: StoredConversation;
  agent?: ConversationAgentRef;
  /** The reply was counted on the conversation already (it failed before: the answer action sends it again). */
  counted?: boolean;
}

/** What a send of the reply needs besides the reply. */
interface SendContext extends ActivityTarget {
  /** The customer's message it answers (its ReplyDraft note, its "no answer sent" marker). */
  message: StoredMessage;
  whatsapp: InboundConnection;
  finalAttempt: boolean;
}

/**
 * Whether the conversation has had an agent message already (issue 33: the AI notice goes on the
 * first only). Read from the history the reply reads anyway (no extra request); the agent's
 * failed sends never reached the customer, and booking messages and opt-out confirmations carry
 * no agent.
 */
export const hadAgentMessage = (history: readonly Pick<StoredMessage, 'id' | 'fromMe' | 'agent' | 'status'>[], message: Pick<StoredMessage, 'id'>): boolean =>
  history.some((h) => h.id !== message.id && h.fromMe && !!h.agent && h.status !== 'failed');

/** A promise's outcome, never rejected (the send's outcome is decided on, not thrown). */
const settledOf = <T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> =>
  promise.then(
    (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason }),
  );

export function createAgentReply(deps: AgentReplyDeps) {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const onError = deps.onError ?? (() => undefined);
  const historyLimit = deps.historyLimit ?? HISTORY_LIMIT;
  /** A stored reply as it goes out: its text, or (issue 31) its buttons or list — one place for the first send and a resumed one. */
  const sendStored = (credentials: WhatsAppCredentials, to: string, reply: StoredMessage) => sendStoredMessage({ ...deps, now }, credentials, to, reply);
  const outbound = createReplyOutbound({ ...deps, now, onError });

  /**
   * A reply stored as pending (noted on the customer's message, one transaction) and sent, side by
   * side. A store that failed is thrown (the plan's message given back when the send failed too);
   * otherwise the send's outcome is for settle().
   */
  async function storeAndSend(userId: string, message: StoredMessage, whatsapp: { credentials: WhatsAppCredentials }, to: string, pending: StoredMessage) {
    const [insert, send] = await Promise.all([
      settledOf(deps.messages.insertOutbound(userId, pending, { replyTo: message.id })),
      settledOf(sendStored(whatsapp.credentials, to, pending)),
    ]);
    if (insert.status === 'rejected') {
      if (send.status === 'rejected') await deps.usage.release(userId, 'messages', 1);
      throw insert.reason;
    }
    return send;
  }

  /**
   * The reply's send is over: its status, the conversation's activity (its last message is the
   * reply's text and time whatever the status; issue 28: beside the status, one round trip less),
   * and what the queue does next. A send Meta refused for now is thrown as a TransientError (the
   * job is retried with this reply) unless this is the last try. A send that failed for another
   * reason than a GraphError (a bug: the client answers GraphErrors) is stored as failed and
   * thrown, with no activity: its outcome is unknown, so the retry does not send it again.
   */
  async function settle(ctx: SendContext, pending: StoredMessage, send: PromiseSettledResult<{ messageId: string }>): Promise<ReplyOutcome> {
    const { userId, message, whatsapp } = ctx;
    if (send.status === 'rejected' && send.reason instanceof GraphError && sendFailureOf(send.reason) === 'retry' && !ctx.finalAttempt) {
      // Meta did not take it: the same reply goes again on the queue's schedule (no activity yet).
      await Promise.all([deps.messages.noteReply(userId, message.id, { id: pending.id, state: 'retry' }), deps.usage.release(userId, 'messages', 1)]);
      throw classifyProviderFailure(send.reason) ?? send.reason;
    }
    const failed = (text: string, code: number | undefined, detail: { errorReason?: StoredMessage['errorReason'] } = {}) =>
      deps.messages.markFailed(userId, pending.id, text, { ...(code !== undefined ? { errorCode: String(code) } : {}), ...detail });
    const status = async (): Promise<ReplyOutcome> => {
      if (send.status === 'fulfilled') {
        await deps.messages.markSent(userId, pending.id, send.value.messageId);
        // WhatsApp took it: a refused token or a sending outage it was in is over.
        await Promise.all([deps.health?.recovered(userId, 'whatsapp-business', whatsapp.health), deps.noAnswer?.answered(userId, SEND_PROVIDER)]);
        return 'replied';
      }
      const error: unknown = send.reason;
      if (!(error instanceof GraphError)) {
        await failed(whatsappMessages.graphUnavailable, undefined);
        await deps.usage.release(userId, 'messages', 1);
        throw error;
      }
      const failure = sendFailureOf(error);
      if (failure === 'unknown') {
        // At most once (see the header): stored as not confirmed, never sent again by itself; the
        // plan's message stays counted, as Meta most likely has it.
        onError('WhatsApp did not confirm the agent’s reply: stored as not confirmed, not sent again', error);
        await failed(whatsappMessages.deliveryUnknown, error.code);
        return 'send_failed';
      }
      if (failure === 'retry') {
        // The last try: the reply is kept as failed (the answer action sends it), the customer's
        // message waits with the marker, the owner is told once per incident.
        onError('WhatsApp refused the agent’s reply on every try: it waits for "Answer waiting messages"', error);
        await Promise.all([
          failed(whatsappMessages.replyNotSentUnavailable, error.code),
          deps.messages.noteReply(userId, message.id, { id: pending.id, state: 'retry' }),
          deps.usage.release(userId, 'messages', 1),
        ]);
        if (!deps.noAnswer) return 'send_failed';
        await deps.noAnswer.unanswered(userId, message, SEND_PROVIDER, 'whatsapp_unavailable');
        return 'waiting';
      }
      // Refused for good. A refused token (Meta 190…) is stored as our reason with Meta's code, not
      // Meta's English, and flags the integration (the owner is notified once).
      const refused = credentialFailureOf(error);
      if (refused) await deps.health?.failed(userId, error, whatsapp.health);
      await failed(refused ? integrationHealthReasons[refused.reason] : error.message, error.code, refused ? { errorReason: refused.reason } : {});
      await deps.usage.release(userId, 'messages', 1);
      onError(`WhatsApp send failed (${error.kind})`, error);
      return 'send_failed';
    };
    const recordsActivity = send.status === 'fulfilled' || send.reason instanceof GraphError;
    const [outcome, touched] = await Promise.allSettled([status(), recordsActivity ? touchFor(ctx, pending) : undefined]);
    if (outcome.status === 'rejected') throw outcome.reason;
    if (touched.status === 'rejected') throw touched.reason;
    return outcome.value;
  }

  /** The conversation's activity of a reply (recorded once per reply, when its send is over: the count moves by one). */
  function touchFor(target: ActivityTarget, reply: StoredMessage) {
    return deps.conversations.touch(target.userId, target.conversation.id, {
      lastMessage: lastMessageOf(reply),
      ...(target.agent ? { lastAgent: target.agent } : {}),
      lastMessageAt: reply.createdAt,
      messageCountDelta: target.counted ? 0 : 1,
    });
  }

  /** A written reply that is not sent after all (not confirmed; not connected, the plan's limit): stored as failed with why. */
  async function failDraft(target: ActivityTarget, draft: StoredMessage, text: string): Promise<void> {
    // A failed one (the answer action's) had its activity recorded when it failed.
    await Promise.all([deps.messages.markFailed(target.userId, draft.id, text), draft.status === 'pending' ? touchFor(target, draft) : undefined]);
  }

  /**
   * An earlier try of this job wrote the reply (`reply`, the customer's message's note): it is
   * resumed, never written again. Null: the reply was written before a person took the
   * conversation over (or it was closed), so it is dropped and the usual rules decide anew.
   */
  async function resume(
    userId: string,
    conversation: StoredConversation,
    message: StoredMessage,
    customer: InboundCustomer,
    reply: ReplyDraft,
    options: AnswerOptions,
  ): Promise<ReplyOutcome | null> {
    const draft = await deps.messages.get(userId, reply.id);
    // Deleted by a person meanwhile: not sent.
    if (!draft) return 'send_failed';
    const [whatsapp, agent] = await Promise.all([deps.connection(userId), draft.agent ? deps.agents.get(userId, draft.agent._id) : null]);
    const target: ActivityTarget = { userId, conversation, ...(agent ? { agent: agentRef(agent) } : {}) };
    if (draft.status === 'pending' && reply.state === 'sending') {
      // The try that sent it died before Meta's answer was recorded: Meta may have it. At most once.
      onError('An agent reply was being sent when its try died: stored as not confirmed, not sent again', new Error(draft.id));
      await failDraft(target, draft, whatsappMessages.deliveryUnknown);
      return 'send_failed';
    }
    // Sent again: a reply Meta refused for now, or (the answer action) one it refused on every try.
    const again = draft.status === 'pending' || (options.waiting === true && draft.status === 'failed' && reply.state === 'retry');
    if (!again) return draft.status === 'failed' ? 'send_failed' : 'replied';
    const superseded = conversation.status === 'closed' || conversation.status === 'archived' || (conversation.humanAt ?? '') > draft.createdAt;
    if (superseded) {
      if (draft.status === 'pending') await deps.messages.remove(userId, draft.id);
      return null;
    }
    if (!whatsapp) {
      await failDraft(target, draft, whatsappMessages.notConnected);
      return 'not_connected';
    }
    try {
      await deps.usage.reserve(userId, 'messages', 1);
    } catch (error) {
      if (!(error instanceof LimitExceededError) && !(error instanceof PaymentRequiredError)) throw error;
      await failDraft(target, draft, error instanceof LimitExceededError ? whatsappMessages.usageLimitReached : error.message);
      return 'limit';
    }
    if (draft.status === 'failed' && !(await deps.messages.beginRetry(userId, draft.id))) {
      // Sent again from the Message Hub (or deleted) meanwhile.
      await deps.usage.release(userId, 'messages', 1);
      return 'send_failed';
    }
    // Noted as under way first: a try that dies mid-send leaves it 'sending', never sent a third time.
    await deps.messages.noteReply(userId, message.id, { id: draft.id, state: 'sending' });
    const send = await settledOf(sendStored(whatsapp.credentials, customer.waId, draft));
    return settle({ ...target, counted: draft.status === 'failed', message, whatsapp, finalAttempt: options.finalAttempt ?? false }, { ...draft, status: 'pending' }, send);
  }

  /**
   * Issue 33: the customer's stop or start word: the opt-out stored (or cleared), then its
   * confirmation in the agent's language instead of the agent's answer, sent and settled as a
   * reply (its plan message, a retry resumes it). Null: the message is not one of the words.
   */
  async function optOutAnswer(userId: string, conversation: StoredConversation, message: StoredMessage, customer: InboundCustomer, options: AnswerOptions): Promise<ReplyOutcome | null> {
    const privacy = deps.privacy!;
    const word = optOutWordOf(message.body, (await privacy.notices(userId)).optOut);
    if (!word) return null;
    const e164 = customerE164(customer.phone || conversation.customerPhone) ?? customerE164(customer.waId);
    if (e164) await (word.action === 'stop' ? privacy.optOuts.set(userId, e164, { at: iso(), keyword: word.keyword }) : privacy.optOuts.clear(userId, e164));
    const wrote = [conversation.lastInboundAt, customerWroteAt(message.timestamp, now())].filter((t): t is string => !!t).sort().at(-1) ?? null;
    if (!insideWindow(wrote, new Date(now()))) return 'window_closed';
    const [agents, whatsapp] = await Promise.all([
      options.known?.agents ?? deps.agents.list(userId),
      options.known?.whatsapp !== undefined ? options.known.whatsapp : deps.connection(userId),
    ]);
    if (!whatsapp) return 'not_connected';
    try {
      await deps.usage.reserve(userId, 'messages', 1);
    } catch (error) {
      if (error instanceof LimitExceededError || error instanceof PaymentRequiredError) return 'limit';
      throw error;
    }
    const language = pickAnsweringAgent(agents)?.language;
    const text = (word.action === 'stop' ? privacyMessages.optedOutReply : privacyMessages.optedInReply)[noticeLanguage(language)];
    // No agent on it: the confirmation is the product's, not an AI answer (the AI notice still goes on the first one).
    const pending = outgoingMessage({ conversation, message, customer, whatsapp, agent: null }, text, 'pending');
    const send = await storeAndSend(userId, message, whatsapp, customer.waId, pending);
    return settle({ userId, conversation, message, whatsapp, finalAttempt: options.finalAttempt ?? false }, pending, send);
  }

  /** A reply to `message` as stored: pending while it is sent (or failed with why); an agent's names it. */
  function outgoingMessage(
    ctx: { conversation: StoredConversation; message: StoredMessage; customer: InboundCustomer; whatsapp: InboundConnection; agent: AgentWithChildren | null },
    body: string,
    status: 'pending' | 'failed',
    error?: string,
  ): StoredMessage {
    const at = now();
    return {
      id: `${ctx.conversation.id}-${deps.newId(at)}`,
      conversationId: ctx.conversation.id,
      waMessageId: '',
      contactId: ctx.message.contactId,
      type: 'chat',
      hasMedia: false,
      fromMe: true,
      from: ctx.whatsapp.phoneNumber,
      to: ctx.customer.phone || ctx.customer.waId,
      phoneNumberId: ctx.message.phoneNumberId,
      status,
      timestamp: new Date(at).toISOString(),
      body,
      ...(error ? { error } : {}),
      ...(ctx.agent ? { agent: { _id: ctx.agent._id, name: ctx.agent.name } } : {}),
      sentBy: 'agent',
      createdAt: new Date(at).toISOString(),
    };
  }

  return {
    /** Decides and sends the agent's answer to `message` (the reply claim is held). */
    async answer(userId: string, conversation: StoredConversation, message: StoredMessage, customer: InboundCustomer, options: AnswerOptions = {}): Promise<ReplyOutcome> {
      if (message.reply) {
        const resumed = await resume(userId, conversation, message, customer, message.reply, options);
        if (resumed) return resumed;
      }
      // Issue 33: "BAJA", "STOP!"… (whatever the conversation's state: it is the customer's choice, not a question).
      if (deps.privacy && message.type === 'chat' && mayBeOptOutWord(message.body)) {
        const optOut = await optOutAnswer(userId, conversation, message, customer, options);
        if (optOut) return optOut;
      }
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
      // Meta refuses a free-form reply once the customer's last message is 24 hours old (as Meta
      // stamped it: a late redelivery is not a new message): no model call, no plan message.
      const wrote = [conversation.lastInboundAt, customerWroteAt(message.timestamp, now())].filter((t): t is string => !!t).sort().at(-1) ?? null;
      if (!insideWindow(wrote, new Date(now()))) return 'window_closed';
      // Everything the reply needs, read at once; the plan's message is reserved alongside (given
      // back below when no reply is due).
      const [agents, connection, whatsapp, history, reservation, read, notices] = await Promise.all([
        options.known?.agents ?? deps.agents.list(userId),
        deps.ai.forUser(userId),
        options.known?.whatsapp !== undefined ? options.known.whatsapp : deps.connection(userId),
        deps.messages.recent(userId, conversation.id, historyLimit + 1),
        deps.usage.reserve(userId, 'messages', 1).then(
          (): Reservation => ({ ok: true }),
          (error: unknown): Reservation => ({ ok: false, error }),
        ),
        // Only the message answered carries its photo; the history reads media messages as text.
        deps.understanding ? deps.understanding.forAgent(userId, message, { withImage: true }) : Promise.resolve<MediaForAgent>({ text: agentTextOf(message) }),
        // Issue 33: the AI notice's settings (a minute's cache), beside the rest.
        deps.privacy ? deps.privacy.notices(userId) : null,
      ]);
      const agent = pickAnsweringAgent(agents);
      const skip: ReplyOutcome | null = !agent || !connection ? 'no_agent' : !whatsapp ? 'not_connected' : null;
      if (skip || !agent || !connection || !whatsapp) {
        if (reservation.ok) await deps.usage.release(userId, 'messages', 1);
        return skip ?? 'no_agent';
      }

      const outgoing = (body: string, status: 'pending' | 'failed', error?: string): StoredMessage =>
        outgoingMessage({ conversation, message, customer, whatsapp, agent }, body, status, error);

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
          message: read.text,
          ...(read.imageDataUrl ? { image: read.imageDataUrl } : {}),
          deadline: now() + (deps.replyBudgetMs ?? 60_000),
          now,
          onError,
          // The booking tools act for the number that wrote (E.164), never one the model names.
          customer: { customerPhone: customerE164(customer.phone || conversation.customerPhone), customerName: customer.name || conversation.customerName, conversationId: conversation.id },
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
            // Issue 32: the assignee alone is told; unassigned, every member.
            assignee: escalated.assignee,
          });
        }
      }

      // The reply is stored as pending (and noted on the customer's message, one transaction) while
      // it is sent, side by side; then moved to sent or failed (settle).
      // Issue 31: offered choices go as reply buttons or a list (stored so, and resumed so); a text
      // too long for Meta's interactive body carries them as lines instead.
      // Issue 33: the conversation's first agent message starts with the account's AI notice (stored with it: the transcript shows it).
      const replyText = withNotice(hadAgentMessage(history, message) ? null : aiNotice(notices, agent.language), answer.reply);
      const interactive = interactiveOf(replyText, answer.choices, agent.language);
      const body = answer.choices && !interactive ? textWithOptions(replyText, answer.choices) : replyText;
      const pending: StoredMessage = { ...outgoing(body, 'pending'), ...(interactive ? { type: 'interactive', interactive } : {}) };
      const send = await storeAndSend(userId, message, whatsapp, customer.waId, pending);
      try {
        return await settle({ userId, conversation, message, whatsapp, agent: agentRef(agent), finalAttempt: options.finalAttempt ?? false }, pending, send);
      } finally {
        // The files and location the agent sent go once the reply's send is over, each its own
        // message, whatever became of the reply (a job retried for it does not send them again).
        if (answer.outbound?.length) {
          const uploaded = (fileId: string) => agent.files.find((f) => f._id === fileId)?.metaMedia;
          await outbound.send({ userId, credentials: whatsapp.credentials, to: customer.waId, reply: pending, agentId: agent._id, uploaded }, answer.outbound);
        }
      }
    },
  };
}

export type AgentReplier = ReturnType<typeof createAgentReply>;
