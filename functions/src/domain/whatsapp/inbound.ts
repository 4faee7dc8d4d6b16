/**
 * The whatsapp-inbound pipeline (SPEC §2 Conversations/Messages, §5 escalation, §9): one verified
 * Meta webhook delivery in, its messages stored and answered, its delivery statuses applied.
 * Pure over ports: storage (conversations/messages), contacts, agents + the runtime, the ChatGPT
 * connection, plan usage, the Graph API.
 *
 * Per inbound message: upsert the contact (never fails the message) → find or open the customer's
 * conversation (one per customer, even under concurrency) → store the message and claim its wamid
 * in one conditional write (Meta redelivers: a wamid is stored once) → if the conversation is
 * active, an agent is enabled and ChatGPT is connected: take the reply claim (only one worker
 * answers a wamid; the SQS retry of a crashed worker takes it over), reserve 1 message of the
 * plan, run the agent on the conversation's recent history, send through the Graph API, store the
 * reply (pending → sent with its wamid, or failed with the reason), escalate when the agent handed
 * over. Statuses: forward only, failed with Meta's error text.
 */
import type { MessageMedia, MessageStatus } from '../../contract/whatsapp.js';
import { whatsappMessages } from '../../contract/whatsapp.js';
import { pickAnsweringAgent, type AgentReader, type AgentWithChildren } from '../agents/ports.js';
import { answerAs, type AgentReply, type HistoryMessage, type ToolExecutor } from '../agents/runtime/index.js';
import { type AiConnector, ModelError } from '../ai/ports.js';
import type { ConversationAgentRef, ConversationRepository, MessageRepository, StoredConversation, StoredMessage } from '../conversations/ports.js';
import { LimitExceededError, PaymentRequiredError } from '../errors.js';
import type { KnowledgeRetriever } from '../knowledge/ports.js';
import { arr, obj, str, type Obj } from './json-walk.js';
import { GraphError, type GraphClient, type WhatsAppCredentials, type WhatsAppInboundJob } from './ports.js';

// ---------------------------------------------------------------------------------------------
// Parsing Meta's delivery (unknown fields ignored; anything malformed is skipped, not thrown)

export interface InboundCustomer {
  /** wa_id, or the username-era user_id when Meta sends no wa_id. */
  waId: string;
  /** E.164 ('+' + wa_id digits) or '' when the customer has no phone number. */
  phone: string;
  name: string;
}

export interface ParsedInboundMessage {
  wamid: string;
  customer: InboundCustomer;
  /** ISO. */
  timestamp: string;
  type: string;
  body: string;
  media?: MessageMedia;
}

export interface ParsedStatus {
  wamid: string;
  status: MessageStatus;
  error?: string;
}

export interface ParsedChange {
  phoneNumberId: string;
  displayPhoneNumber: string;
  messages: ParsedInboundMessage[];
  statuses: ParsedStatus[];
}

/**
 * Characters of an inbound body kept (Meta caps texts at 4096): a forged or future oversized text
 * must still fit the message item and the conversation's lastMessage (DynamoDB: 400 KB an item).
 */
export const MAX_INBOUND_BODY = 16_384;
/** The first `max` UTF-16 units, without splitting a surrogate pair. */
const cut = (text: string, max: number) => text.slice(0, /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max);

const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const;
const STATUS_MAP: Record<string, MessageStatus> = { sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };

function isoFromSeconds(value: unknown, fallback: string): string {
  const n = Number(str(value));
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : fallback;
}

/** '+' + digits when the WhatsApp id is a phone number's digits; '' otherwise. */
export function phoneFromWaId(waId: string): string {
  return /^[1-9]\d{6,14}$/.test(waId) ? `+${waId}` : '';
}

function parseMessage(m: Obj, contacts: Obj[], receivedAt: string): ParsedInboundMessage | null {
  const wamid = str(m.id);
  const from = str(m.from) || str(m.from_user_id);
  const contact =
    contacts.find((c) => (str(c.wa_id) && str(c.wa_id) === str(m.from)) || (str(c.user_id) && str(c.user_id) === str(m.from_user_id))) ??
    (contacts.length === 1 ? contacts[0] : undefined);
  const waId = from || str(contact?.wa_id) || str(contact?.user_id);
  if (!wamid || !waId) return null;
  const phoneDigits = str(m.from) || str(contact?.wa_id);
  const customer: InboundCustomer = { waId, phone: phoneFromWaId(phoneDigits), name: str(obj(contact?.profile)?.name).trim() };
  const type = str(m.type) || 'unknown';
  const base = { wamid, customer, timestamp: isoFromSeconds(m.timestamp, receivedAt) };
  if (type === 'text') return { ...base, type: 'chat', body: str(obj(m.text)?.body) };
  if ((MEDIA_KINDS as readonly string[]).includes(type)) {
    const media = obj(m[type]) ?? {};
    const info: MessageMedia = {
      ...(str(media.id) ? { id: str(media.id) } : {}),
      ...(str(media.mime_type) ? { mimeType: str(media.mime_type) } : {}),
      ...(str(media.sha256) ? { sha256: str(media.sha256) } : {}),
      ...(str(media.caption) ? { caption: str(media.caption) } : {}),
      ...(str(media.filename) ? { filename: str(media.filename) } : {}),
    };
    const stored = type === 'audio' && media.voice === true ? 'ptt' : type;
    return { ...base, type: stored, body: info.caption ?? '', media: info };
  }
  if (type === 'button') return { ...base, type: 'chat', body: str(obj(m.button)?.text) };
  if (type === 'interactive') {
    const i = obj(m.interactive) ?? {};
    const reply = obj(i.button_reply) ?? obj(i.list_reply) ?? {};
    return { ...base, type: 'chat', body: str(reply.title) };
  }
  if (type === 'location') {
    const l = obj(m.location) ?? {};
    return { ...base, type: 'location', body: [str(l.name), str(l.address), `${str(l.latitude)},${str(l.longitude)}`].filter(Boolean).join(' · ') };
  }
  if (type === 'reaction') return { ...base, type: 'reaction', body: str(obj(m.reaction)?.emoji) };
  return { ...base, type, body: '' };
}

function parseStatus(s: Obj): ParsedStatus | null {
  const wamid = str(s.id);
  const status = STATUS_MAP[str(s.status)];
  if (!wamid || !status) return null;
  if (status !== 'failed') return { wamid, status };
  const e = obj(arr(s.errors)[0]) ?? {};
  const title = str(e.title) || str(e.message);
  const details = str(obj(e.error_data)?.details) || (str(e.message) !== title ? str(e.message) : '');
  const text = [title, details].filter(Boolean).join(': ') || 'WhatsApp could not deliver the message.';
  return { wamid, status, error: text.slice(0, 500) };
}

/** The message changes of a webhook body (`entry[].changes[].value`); null when it is not JSON. */
export function parseDelivery(body: string, receivedAt: string): ParsedChange[] | null {
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch {
    return null;
  }
  const changes: ParsedChange[] = [];
  for (const entry of arr(obj(root)?.entry)) {
    for (const change of arr(obj(entry)?.changes)) {
      const value = obj(obj(change)?.value);
      if (!value) continue;
      const metadata = obj(value.metadata) ?? {};
      const contacts = arr(value.contacts).map(obj).filter((c): c is Obj => c !== null);
      changes.push({
        phoneNumberId: str(metadata.phone_number_id),
        displayPhoneNumber: str(metadata.display_phone_number),
        messages: arr(value.messages)
          .map(obj)
          .filter((m): m is Obj => m !== null)
          .map((m) => parseMessage(m, contacts, receivedAt))
          .filter((m): m is ParsedInboundMessage => m !== null)
          .map((m) => (m.body.length > MAX_INBOUND_BODY ? { ...m, body: cut(m.body, MAX_INBOUND_BODY) } : m)),
        statuses: arr(value.statuses)
          .map(obj)
          .filter((s): s is Obj => s !== null)
          .map(parseStatus)
          .filter((s): s is ParsedStatus => s !== null),
      });
    }
  }
  return changes;
}

// ---------------------------------------------------------------------------------------------
// The pipeline

export interface InboundContacts {
  /** The contact of a WhatsApp customer (found by phone, or created: whatsapp_import, isWAContact); null when it cannot be made. */
  upsertFromWhatsApp(userId: string, customer: { waId: string; phone: string; name: string }): Promise<string | null>;
}

export interface InboundUsage {
  reserve(userId: string, action: 'messages', amount?: number): Promise<number>;
  release(userId: string, action: 'messages', amount?: number): Promise<void>;
}

export interface InboundConnection {
  credentials: WhatsAppCredentials;
  phoneNumber: string;
}

export interface InboundDeps {
  conversations: ConversationRepository;
  messages: MessageRepository;
  contacts: InboundContacts;
  agents: AgentReader;
  ai: AiConnector;
  retriever: KnowledgeRetriever;
  tools: ToolExecutor;
  usage: InboundUsage;
  graph: GraphClient;
  /** The user's WhatsApp connection (token opened), or null when not connected. */
  connection(userId: string): Promise<InboundConnection | null>;
  /** 26-character time-sortable id. */
  newId(now: number): string;
  now?: () => number;
  /** Messages of history given to the agent. */
  historyLimit?: number;
  /** How long a reply claim is held before another worker may take it over (shorter than the queue's visibility timeout). */
  replyLeaseMs?: number;
  /** Time budget of one agent reply. */
  replyBudgetMs?: number;
  /** Waits before giving up on a status whose wamid is not indexed yet (the send is still being recorded). */
  statusRetryDelaysMs?: readonly number[];
  onError?: (message: string, error: unknown) => void;
  onInfo?: (message: string, data?: Record<string, unknown>) => void;
}

export type MessageOutcome =
  | 'duplicate'
  | 'busy'
  | 'stored'
  | 'not_active'
  | 'no_agent'
  | 'not_connected'
  | 'limit'
  | 'replied'
  | 'send_failed'
  | 'model_failed';

export interface DeliveryOutcome {
  messages: Array<{ wamid: string; outcome: MessageOutcome; conversationId?: string }>;
  statuses: Array<{ wamid: string; result: string }>;
}

/** A failure worth a retry of the queue message (the SQS redelivery resumes where it stopped). */
export class RetryableInboundError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RetryableInboundError';
  }
}

const RETRYABLE_MODEL_ERRORS = new Set(['rate_limit', 'timeout', 'unavailable']);
const HISTORY_LIMIT = 20;

function lastMessageOf(m: StoredMessage) {
  return { type: m.type, fromMe: m.fromMe, content: m.body, body: m.body, timestamp: m.timestamp, createdAt: m.createdAt };
}

function agentRef(agent: AgentWithChildren): ConversationAgentRef {
  return { _id: agent._id, name: agent.name, description: agent.description, objective: agent.objective, priority: agent.priority };
}

/** What the agent reads for a message: its text, or a note of what was sent. */
export function agentTextOf(m: Pick<StoredMessage, 'type' | 'body' | 'media'>): string {
  if (m.body.trim()) return m.type === 'chat' ? m.body : `[${m.type}] ${m.body}`;
  if (m.media?.filename) return `[The customer sent a ${m.type}: ${m.media.filename}]`;
  return `[The customer sent a ${m.type === 'ptt' ? 'voice message' : m.type}]`;
}

export function createInboundPipeline(deps: InboundDeps) {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const onError = deps.onError ?? (() => undefined);
  const leaseMs = deps.replyLeaseMs ?? 60_000;

  async function contactFor(userId: string, customer: InboundCustomer): Promise<string> {
    try {
      return (await deps.contacts.upsertFromWhatsApp(userId, customer)) ?? '';
    } catch (error) {
      onError('WhatsApp contact could not be made; the message is kept', error);
      return '';
    }
  }

  async function handleMessage(job: WhatsAppInboundJob, change: ParsedChange, m: ParsedInboundMessage, owner: string) {
    const userId = job.userId;
    const customerRef = { ...m.customer, contactId: '', phoneNumberId: change.phoneNumberId };
    // The customer's contact (found, or made, by phone number; customers without one get none) is
    // looked up beside the conversation and kept off the reply's path: a new customer's contact is
    // linked to the conversation when it is ready, the messages stored before that carry none.
    let contactReady: string | undefined;
    const contactLookup = (m.customer.phone ? contactFor(userId, m.customer) : Promise.resolve('')).then((id) => (contactReady = id));
    let { conversation } = await deps.conversations.findOrOpen(userId, customerRef, iso());
    const known = conversation.contactId;
    const contactId = known || contactReady || '';
    const linking = contactLookup.then(async (id) => {
      if (id && id !== known) {
        await deps.conversations.linkContact(userId, m.customer.waId, id).catch((error: unknown) => onError('linking the contact failed', error));
      }
    });

    const storedAt = now();
    const inbound: StoredMessage = {
      id: `${conversation.id}-${deps.newId(storedAt)}`,
      conversationId: conversation.id,
      waMessageId: m.wamid,
      contactId,
      type: m.type,
      hasMedia: m.media !== undefined,
      ...(m.media ? { media: m.media } : {}),
      fromMe: false,
      from: m.customer.phone || m.customer.waId,
      to: change.displayPhoneNumber ? `+${change.displayPhoneNumber.replace(/\D/g, '')}` : change.phoneNumberId,
      phoneNumberId: { id: change.phoneNumberId, name: change.displayPhoneNumber },
      status: 'delivered',
      timestamp: m.timestamp,
      body: m.body,
      createdAt: new Date(storedAt).toISOString(),
    };
    // A new message is stored and claimed for the reply in one conditional write.
    const stored = await deps.messages.insertInbound(userId, inbound, { owner, now: storedAt, leaseMs });
    if (!stored.isNew) {
      if (stored.state === 'handled') {
        await linking;
        return { outcome: 'duplicate' as const, conversationId: stored.message.conversationId };
      }
      if (stored.message.conversationId !== conversation.id) {
        conversation = (await deps.conversations.get(userId, stored.message.conversationId)) ?? conversation;
      }
    }
    const message = stored.message;
    // Recorded on the conversation while the reply is prepared; idempotent on a retry (the count
    // only moves for a new message, lastMessage only forward).
    const touched = deps.conversations
      .touch(userId, conversation.id, {
        lastMessage: lastMessageOf(message),
        lastMessageAt: message.createdAt,
        lastInboundAt: message.createdAt,
        messageCountDelta: stored.isNew ? 1 : 0,
        ...(m.customer.name ? { customerName: m.customer.name } : {}),
        ...(contactId ? { contactId } : {}),
      })
      .then((c) => c ?? conversation);

    const claimed = stored.isNew || (await deps.messages.claimReply(userId, m.wamid, owner, now(), leaseMs));
    if (!claimed) {
      await Promise.all([touched, linking]);
      return { outcome: 'busy' as const, conversationId: conversation.id };
    }
    const outcome = await reply(userId, conversation, message, m.customer);
    await Promise.all([touched, linking, deps.messages.finishInbound(userId, m.wamid)]);
    return { outcome, conversationId: conversation.id };
  }

  type Reservation = { ok: true } | { ok: false; error: unknown };

  /** Decides and sends the agent's answer to `message` (the reply claim is held). */
  async function reply(userId: string, conversation: StoredConversation, message: StoredMessage, customer: InboundCustomer): Promise<MessageOutcome> {
    if (conversation.status !== 'active') return 'not_active';
    // Everything the reply needs, read at once; the plan's message is reserved alongside (given
    // back below when no reply is due).
    const [agents, connection, whatsapp, history, reservation] = await Promise.all([
      deps.agents.list(userId),
      deps.ai.forUser(userId),
      deps.connection(userId),
      deps.messages.recent(userId, conversation.id, (deps.historyLimit ?? HISTORY_LIMIT) + 1),
      deps.usage.reserve(userId, 'messages', 1).then(
        (): Reservation => ({ ok: true }),
        (error: unknown): Reservation => ({ ok: false, error }),
      ),
    ]);
    const agent = pickAnsweringAgent(agents);
    const skip: MessageOutcome | null = !agent || !connection ? 'no_agent' : !whatsapp ? 'not_connected' : null;
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
      const turns: HistoryMessage[] = history
        .filter((h) => h.id !== message.id && (h.status !== 'failed' || !h.fromMe))
        .map((h) => ({ role: h.fromMe ? 'assistant' : 'user', content: h.fromMe ? h.body : agentTextOf(h) }));
      answer = await answerAs('whatsapp', deps, {
        userId,
        agent,
        connection,
        history: turns.slice(-(deps.historyLimit ?? HISTORY_LIMIT)),
        message: agentTextOf(message),
        deadline: now() + (deps.replyBudgetMs ?? 60_000),
        now,
        onError,
      });
    } catch (error) {
      await deps.usage.release(userId, 'messages', 1);
      if (error instanceof ModelError && RETRYABLE_MODEL_ERRORS.has(error.kind)) {
        throw new RetryableInboundError(`Model ${error.kind}: the reply is retried`, { cause: error });
      }
      onError('The agent could not answer a WhatsApp message', error);
      return 'model_failed';
    }

    // Escalated: the conversation leaves the agent first, so the customer's next messages wait for a person.
    if (answer.escalation) {
      await deps.conversations.escalate(userId, conversation.id, answer.escalation.reason.slice(0, 500), iso());
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
    let sent: StoredMessage;
    let outcome: MessageOutcome = 'replied';
    if (send.status === 'fulfilled') {
      sent = (await deps.messages.markSent(userId, pending.id, send.value.messageId)) ?? { ...pending, status: 'sent', waMessageId: send.value.messageId };
    } else {
      const error: unknown = send.reason;
      const text = error instanceof GraphError ? error.message : whatsappMessages.graphUnavailable;
      sent = (await deps.messages.markFailed(userId, pending.id, text)) ?? { ...pending, status: 'failed', error: text };
      await deps.usage.release(userId, 'messages', 1);
      if (!(error instanceof GraphError)) throw error;
      onError(`WhatsApp send failed (${error.kind})`, error);
      outcome = 'send_failed';
    }
    await deps.conversations.touch(userId, conversation.id, {
      lastMessage: lastMessageOf(sent),
      lastAgent: agentRef(agent),
      lastMessageAt: sent.createdAt,
      messageCountDelta: 1,
    });
    return outcome;
  }

  async function handleStatus(userId: string, s: ParsedStatus): Promise<string> {
    const delays = deps.statusRetryDelaysMs ?? [200, 800];
    for (let i = 0; ; i++) {
      const result = await deps.messages.updateStatusByWamid(userId, s.wamid, s.status, s.error);
      if (result !== 'unknown' || i >= delays.length) return result;
      await new Promise((r) => setTimeout(r, delays[i]));
    }
  }

  return {
    /**
     * Processes one delivery. `owner` identifies the queue message (its SQS message id): a retry of
     * the same queue message resumes a reply its crashed predecessor had claimed.
     */
    async process(job: WhatsAppInboundJob, owner: string): Promise<DeliveryOutcome> {
      const changes = parseDelivery(job.body, job.receivedAt);
      const outcome: DeliveryOutcome = { messages: [], statuses: [] };
      if (!changes) {
        onError('whatsapp-inbound: the delivery is not JSON; dropped', new Error('malformed body'));
        return outcome;
      }
      try {
        for (const change of changes) {
          // Messages of one delivery in order (a customer's burst is answered in the order written).
          for (const m of change.messages) {
            const r = await handleMessage(job, change, m, owner);
            outcome.messages.push({ wamid: m.wamid, ...r });
          }
          for (const s of change.statuses) outcome.statuses.push({ wamid: s.wamid, result: await handleStatus(job.userId, s) });
        }
      } finally {
        await deps.messages.flushCounters?.();
      }
      return outcome;
    },
  };
}

export type InboundPipeline = ReturnType<typeof createInboundPipeline>;
