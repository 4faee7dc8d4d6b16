/**
 * Conversations test support: W2's DynamoDB repositories in-process against the test DynamoDB
 * Local (the same code the inbound worker writes through), to seed conversations and messages
 * at chosen times; and typed calls of the conversations and messages API.
 */
import { randomInt } from 'node:crypto';
import { DynamoConversationRepository } from '../../src/adapters/dynamo/conversations.js';
import { DynamoMessageRepository, idTimePrefix } from '../../src/adapters/dynamo/messages.js';
import type { MessageStatus, MessageType } from '../../src/contract/whatsapp.js';
import type { StoredConversation, StoredMessage } from '../../src/domain/conversations/ports.js';
import { newId } from '../../src/lib/ids.js';
import { api, db, tableName } from './api.js';
import { newWamid } from './whatsapp.js';

let repositories: { messages: DynamoMessageRepository; conversations: DynamoConversationRepository } | undefined;
export function repos() {
  if (!repositories) {
    const messages = new DynamoMessageRepository(db(), tableName());
    repositories = { messages, conversations: new DynamoConversationRepository(db(), tableName(), messages) };
  }
  return repositories;
}

export const HOUR = 3600_000;
export const DAY = 24 * HOUR;
export const ago = (ms: number) => new Date(Date.now() - ms);

/** A Spanish mobile number's wa_id (valid E.164 once '+' is added, unique per test in practice). */
export const spanishWaId = () => `346${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

export interface SeedCustomer {
  waId: string;
  name: string;
  /** Default: '+' + waId. '' = a username-only customer. */
  phone?: string;
}

/** The business side: Meta's phone_number_id and our number (from connectWhatsApp, or made up). */
export interface SeedBusiness {
  phoneId: string;
  phoneNumber: string;
}

/** Opens (or finds) the customer's conversation at `at`. */
export async function openConversation(userId: string, business: SeedBusiness, customer: SeedCustomer, at = new Date()) {
  const { conversation } = await repos().conversations.findOrOpen(
    userId,
    { waId: customer.waId, phone: customer.phone ?? `+${customer.waId}`, name: customer.name, contactId: '', phoneNumberId: business.phoneId },
    at.toISOString(),
  );
  return conversation;
}

interface SeedMessage {
  body?: string;
  at?: Date;
  type?: MessageType;
  hasMedia?: boolean;
}

/**
 * A message id made at `at`: the time part is set directly because newId() is monotonic within a
 * process (an id for an earlier time after a later one would get the later time).
 */
const messageId = (conv: StoredConversation, at: Date) => `${conv.id}-${idTimePrefix(at.getTime())}${newId().slice(10)}`;

/** A customer's message, stored as the worker stores it; it opens the 24-hour window at `at`. */
export async function inbound(userId: string, business: SeedBusiness, conv: StoredConversation, options: SeedMessage = {}): Promise<StoredMessage> {
  const at = options.at ?? new Date();
  const message: StoredMessage = {
    id: messageId(conv, at),
    conversationId: conv.id,
    waMessageId: newWamid(),
    contactId: conv.contactId,
    type: options.type ?? 'chat',
    hasMedia: options.hasMedia ?? false,
    fromMe: false,
    from: conv.customerPhone || conv.customerWaId,
    to: business.phoneNumber,
    phoneNumberId: { id: business.phoneId, name: business.phoneNumber },
    status: 'delivered',
    timestamp: at.toISOString(),
    body: options.body ?? 'Hola',
    createdAt: at.toISOString(),
  };
  await repos().messages.insertInbound(userId, message);
  await repos().conversations.touch(userId, conv.id, {
    lastMessage: { type: 'text', fromMe: false, content: message.body, body: message.body, timestamp: message.timestamp, createdAt: message.timestamp },
    lastMessageAt: message.timestamp,
    lastInboundAt: message.timestamp,
    messageCountDelta: 1,
  });
  return message;
}

/** One of our messages (an agent's reply) ending in `status`. */
export async function outbound(
  userId: string,
  business: SeedBusiness,
  conv: StoredConversation,
  options: SeedMessage & { status?: MessageStatus; error?: string } = {},
): Promise<StoredMessage> {
  const at = options.at ?? new Date();
  const message: StoredMessage = {
    id: messageId(conv, at),
    conversationId: conv.id,
    waMessageId: '',
    contactId: conv.contactId,
    type: options.type ?? 'chat',
    hasMedia: options.hasMedia ?? false,
    fromMe: true,
    from: business.phoneNumber,
    to: conv.customerPhone || conv.customerWaId,
    phoneNumberId: { id: business.phoneId, name: business.phoneNumber },
    status: 'pending',
    timestamp: at.toISOString(),
    body: options.body ?? 'Buenos días',
    sentBy: 'agent',
    agent: { _id: 'agent-1', name: 'Sonia' },
    createdAt: at.toISOString(),
  };
  const { messages, conversations } = repos();
  await messages.insertOutbound(userId, message);
  const status = options.status ?? 'sent';
  if (status === 'failed') await messages.markFailed(userId, message.id, options.error ?? 'WhatsApp could not be reached. Please try again later.');
  else if (status !== 'pending') {
    const wamid = newWamid();
    await messages.markSent(userId, message.id, wamid);
    if (status !== 'sent') await messages.updateStatusByWamid(userId, wamid, status);
  }
  await conversations.touch(userId, conv.id, {
    lastMessage: { type: 'text', fromMe: true, content: message.body, body: message.body, timestamp: message.timestamp, createdAt: message.timestamp },
    lastMessageAt: message.timestamp,
    messageCountDelta: 1,
  });
  return message;
}

// ---- API calls ----

const qs = (query: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return params ? `?${params}` : '';
};

export const conversationsApi = {
  overview: (token: string, dateFilter?: string) => api('GET', `/api/conversations/overview${qs({ dateFilter })}`, { token }),
  list: (token: string, query: Record<string, string | number | undefined> = {}) => api('GET', `/api/conversations${qs(query)}`, { token }),
  stats: (token: string) => api('GET', '/api/conversations/stats', { token }),
  get: (token: string, id: string) => api('GET', `/api/conversations/${id}`, { token }),
  update: (token: string, id: string, body: unknown) => api('PUT', `/api/conversations/${id}`, { token, body }),
  escalate: (token: string, id: string, body: unknown) => api('POST', `/api/conversations/${id}/escalate`, { token, body }),
  reply: (token: string, id: string, body: unknown) => api('POST', `/api/conversations/${id}/messages`, { token, body }),
  remove: (token: string, id: string) => api('DELETE', `/api/conversations/${id}`, { token }),
};

export const messagesApi = {
  list: (token: string, query: Record<string, string | number | undefined> = {}) => api('GET', `/api/messages${qs(query)}`, { token }),
  stats: (token: string, timeFilter?: string) => api('GET', `/api/messages/stats${qs({ timeFilter })}`, { token }),
  latest: (token: string, limit?: number) => api('GET', `/api/messages/latest${qs({ limit })}`, { token }),
  get: (token: string, id: string) => api('GET', `/api/messages/${id}`, { token }),
  retry: (token: string, id: string) => api('POST', `/api/messages/${id}/retry`, { token }),
  remove: (token: string, id: string) => api('DELETE', `/api/messages/${id}`, { token }),
};
