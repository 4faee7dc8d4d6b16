/**
 * In-memory ports for the conversations service's unit tests: the two repositories (same
 * contracts as adapters/dynamo/conversations.ts, kept minimal), WhatsApp as the reply channel over
 * a Graph client that records sends and fails on demand, and the plan's message usage.
 */
import type { ConversationStats, MessageStats, MessageStatus } from '../../../src/contract/whatsapp.js';
import type {
  ConversationActivity,
  ConversationPatch,
  ConversationRepository,
  MessageFailureDetail,
  MessageRepository,
  StoredConversation,
  StoredMessage,
} from '../../../src/domain/conversations/ports.js';
import type { SenderDirectory } from '../../../src/domain/conversations/sender.js';
import { createConversationService } from '../../../src/domain/conversations/service.js';
import type { WhatsAppConnection } from '../../../src/domain/whatsapp/integration.js';
import { LimitExceededError } from '../../../src/domain/errors.js';
import type { GraphClient, GraphError, WhatsAppCredentials } from '../../../src/domain/whatsapp/ports.js';
import { createWhatsAppReplyChannels } from '../../../src/domain/whatsapp/reply-channel.js';
import { newId } from '../../../src/lib/ids.js';

export const NOW = new Date('2026-03-18T12:00:00.000Z');
export const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3600 * 1000).toISOString();

export function conversation(over: Partial<StoredConversation> = {}): StoredConversation {
  return {
    id: newId(),
    status: 'active',
    notes: '',
    escalationReason: '',
    customerWaId: '34612345678',
    customerPhone: '+34612345678',
    customerName: 'Lucía',
    contactId: '',
    phoneNumberId: '1055',
    lastMessage: null,
    lastAgent: null,
    createdAt: hoursAgo(3),
    updatedAt: hoursAgo(1),
    lastMessageAt: hoursAgo(1),
    lastInboundAt: hoursAgo(1),
    closedAt: null,
    escalatedAt: null,
    messageCount: 1,
    ...over,
  };
}

export function message(conv: StoredConversation, over: Partial<StoredMessage> = {}): StoredMessage {
  return {
    id: `${conv.id}-${newId()}`,
    conversationId: conv.id,
    waMessageId: `wamid.${newId()}`,
    contactId: '',
    type: 'chat',
    hasMedia: false,
    fromMe: false,
    from: conv.customerPhone,
    to: '+15550100',
    phoneNumberId: { id: '1055', name: '+15550100' },
    status: 'delivered',
    timestamp: hoursAgo(1),
    body: 'Hola',
    createdAt: hoursAgo(1),
    ...over,
  };
}

const STATUS_KEYS = { active: 'active', closed: 'closed', requires_human: 'requiresHuman', archived: 'archived' } as const;

export class MemoryConversations implements Partial<ConversationRepository> {
  readonly byUser = new Map<string, Map<string, StoredConversation>>();

  seed(userId: string, conv: StoredConversation): StoredConversation {
    if (!this.byUser.has(userId)) this.byUser.set(userId, new Map());
    this.byUser.get(userId)!.set(conv.id, structuredClone(conv));
    return conv;
  }
  private of(userId: string) {
    return this.byUser.get(userId) ?? new Map<string, StoredConversation>();
  }
  async get(userId: string, id: string) {
    const found = this.of(userId).get(id);
    return found ? structuredClone(found) : null;
  }
  async touch(userId: string, id: string, activity: ConversationActivity) {
    const c = this.of(userId).get(id);
    if (!c) return null;
    c.lastMessage = activity.lastMessage;
    c.lastMessageAt = activity.lastMessageAt;
    if (activity.lastInboundAt && (!c.lastInboundAt || c.lastInboundAt <= activity.lastInboundAt)) c.lastInboundAt = activity.lastInboundAt;
    c.messageCount += activity.messageCountDelta;
    return structuredClone(c);
  }
  async update(userId: string, id: string, patch: ConversationPatch, now: string, expectedStatus?: StoredConversation['status']) {
    const c = this.of(userId).get(id);
    if (!c || (expectedStatus && c.status !== expectedStatus)) return null;
    Object.assign(c, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)), { updatedAt: now });
    return structuredClone(c);
  }
  async escalate(userId: string, id: string, reason: string, now: string) {
    const c = this.of(userId).get(id);
    if (!c) return null;
    Object.assign(c, { status: 'requires_human', escalationReason: reason, escalatedAt: now, updatedAt: now });
    return structuredClone(c);
  }
  async listActiveSince(userId: string, status: StoredConversation['status'], since: string, limit: number) {
    return [...this.of(userId).values()]
      .filter((c) => c.status === status && c.lastMessageAt >= since)
      .sort((a, b) => b.lastMessageAt.localeCompare(a.lastMessageAt))
      .slice(0, limit);
  }
  async page(userId: string, input: { status?: StoredConversation['status']; search: string; offset: number; limit: number }) {
    const all = [...this.of(userId).values()]
      .filter((c) => !input.status || c.status === input.status)
      .filter((c) => !input.search || c.customerName.toLowerCase().includes(input.search.toLowerCase()))
      .sort((a, b) => b.lastMessageAt.localeCompare(a.lastMessageAt));
    return { items: all.slice(input.offset, input.offset + input.limit), total: all.length };
  }
  async stats(userId: string): Promise<ConversationStats> {
    const stats = { total: 0, active: 0, requiresHuman: 0, closed: 0, archived: 0 };
    for (const c of this.of(userId).values()) {
      stats.total++;
      stats[STATUS_KEYS[c.status]]++;
    }
    return stats;
  }
  async remove(userId: string, id: string) {
    return this.of(userId).delete(id);
  }
}

export class MemoryMessages implements Partial<MessageRepository> {
  readonly byUser = new Map<string, Map<string, StoredMessage>>();

  seed(userId: string, msg: StoredMessage): StoredMessage {
    if (!this.byUser.has(userId)) this.byUser.set(userId, new Map());
    this.byUser.get(userId)!.set(msg.id, structuredClone(msg));
    return msg;
  }
  all(userId: string) {
    return [...(this.byUser.get(userId)?.values() ?? [])].sort((a, b) => a.id.localeCompare(b.id));
  }
  private of(userId: string) {
    return this.byUser.get(userId) ?? new Map<string, StoredMessage>();
  }
  async insertOutbound(userId: string, msg: StoredMessage) {
    this.seed(userId, msg);
  }
  private async set(userId: string, id: string, change: Partial<StoredMessage>, from?: MessageStatus) {
    const m = this.of(userId).get(id);
    if (!m || (from && m.status !== from)) return null;
    Object.assign(m, change);
    return structuredClone(m);
  }
  markSent(userId: string, id: string, waMessageId: string) {
    return this.set(userId, id, { status: 'sent', waMessageId, error: undefined });
  }
  markFailed(userId: string, id: string, error: string, detail: MessageFailureDetail = {}) {
    return this.set(userId, id, { status: 'failed', error, ...detail });
  }
  beginRetry(userId: string, id: string) {
    const m = this.of(userId).get(id);
    return this.set(userId, id, { status: 'pending', error: undefined, retryCount: (m?.retryCount ?? 0) + 1 }, 'failed');
  }
  async listByConversation(userId: string, conversationId: string, cap: number) {
    return this.all(userId)
      .filter((m) => m.conversationId === conversationId)
      .slice(0, cap);
  }
  async page(userId: string, input: { page: number; limit: number; status: MessageStatus | ''; fromMe?: boolean; search: string }) {
    const items = this.all(userId)
      .reverse()
      .filter((m) => !input.status || m.status === input.status)
      .filter((m) => input.fromMe === undefined || m.fromMe === input.fromMe)
      .filter((m) => !input.search || m.body.toLowerCase().includes(input.search.toLowerCase()));
    return { items: items.slice((input.page - 1) * input.limit, input.page * input.limit), total: items.length };
  }
  async stats(): Promise<MessageStats> {
    throw new Error('not used');
  }
  async latest(userId: string, limit: number) {
    return this.all(userId).reverse().slice(0, limit);
  }
  async get(userId: string, id: string) {
    const m = this.of(userId).get(id);
    return m ? structuredClone(m) : null;
  }
  async remove(userId: string, id: string) {
    return this.of(userId).delete(id);
  }
}

export class RecordingGraph implements GraphClient {
  readonly sent: { credentials: WhatsAppCredentials; to: string; text: string }[] = [];
  failures: GraphError[] = [];
  async sendText(credentials: WhatsAppCredentials, to: string, text: string) {
    const failure = this.failures.shift();
    if (failure) throw failure;
    this.sent.push({ credentials, to, text });
    return { messageId: `wamid.sent${this.sent.length}` };
  }
  async getPhoneNumber(credentials: WhatsAppCredentials) {
    return { id: credentials.phoneId, displayPhoneNumber: '+1 555-0100', verifiedName: 'Test' };
  }
}

export const CONNECTION: WhatsAppConnection = {
  credentials: { bearerToken: 'token-1', businessId: 'biz-1', phoneId: '1055' },
  phoneNumber: '+15550100',
  integrationId: 'int-1',
};

/** The service over the memory ports; `limit` = messages the plan still allows. */
export function setup(options: { connected?: boolean; limit?: number; senders?: SenderDirectory } = {}) {
  const conversations = new MemoryConversations();
  const messages = new MemoryMessages();
  const graph = new RecordingGraph();
  const usage = { used: 0, limit: options.limit ?? Infinity };
  const service = createConversationService({
    conversations: conversations as unknown as ConversationRepository,
    messages: messages as unknown as MessageRepository,
    channels: createWhatsAppReplyChannels({ graph, connection: async () => (options.connected === false ? null : CONNECTION) }),
    usage: {
      reserve: async (_u, _a, amount = 1) => {
        if (usage.used + amount > usage.limit) throw new LimitExceededError('Monthly message limit reached');
        usage.used += amount;
        return usage.used;
      },
      release: async (_u, _a, amount = 1) => {
        usage.used = Math.max(0, usage.used - amount);
      },
    },
    now: () => NOW,
    newId: () => newId(),
    ...(options.senders ? { senders: options.senders } : {}),
  });
  return { service, conversations, messages, graph, usage };
}
