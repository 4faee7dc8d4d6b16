/**
 * Storing an inbound WhatsApp message and claiming its reply (domain/whatsapp/store-inbound.ts)
 * over memory ports: a new message, Meta's redelivery of an answered one, and one another worker
 * is answering; and the status step (domain/whatsapp/apply-status.ts).
 */
import { describe, expect, it } from 'vitest';
import type {
  ConversationActivity,
  ConversationRepository,
  InboundInsertResult,
  MessageRepository,
  StatusUpdateResult,
  StoredMessage,
} from '../../../src/domain/conversations/ports.js';
import { applyStatus } from '../../../src/domain/whatsapp/apply-status.js';
import type { ParsedChange, ParsedInboundMessage } from '../../../src/domain/whatsapp/parse-delivery.js';
import { createInboundStore, customerWroteAt } from '../../../src/domain/whatsapp/store-inbound.js';
import { conversation, message } from '../conversations-service/fakes.js';

const CHANGE: ParsedChange = { phoneNumberId: '1055', displayPhoneNumber: '1 555-0100', messages: [], statuses: [] };
const INBOUND: ParsedInboundMessage = {
  wamid: 'wamid.in1',
  customer: { waId: '34612345678', phone: '+34612345678', name: 'Lucía' },
  timestamp: '2026-03-18T11:59:00.000Z',
  type: 'chat',
  body: 'Hola',
};

function setup(insert: (m: StoredMessage) => InboundInsertResult, claim = true) {
  const conv = conversation({ contactId: '' });
  const touches: ConversationActivity[] = [];
  const links: string[] = [];
  const claims: string[] = [];
  const conversations: Partial<ConversationRepository> = {
    findOrOpen: async () => ({ conversation: conv, opened: false }),
    get: async () => conv,
    touch: async (_u, _id, activity) => (touches.push(activity), conv),
    linkContact: async (_u, _waId, contactId) => void links.push(contactId),
  };
  const messages: Partial<MessageRepository> = {
    insertInbound: async (_u, m) => insert(m),
    claimReply: async (_u, wamid, owner) => (claims.push(`${wamid}:${owner}`), claim),
  };
  const store = createInboundStore({
    conversations: conversations as ConversationRepository,
    messages: messages as MessageRepository,
    contacts: { upsertFromWhatsApp: async () => 'contact-1' },
    newId: () => 'ID000000000000000000000001',
    now: () => Date.parse('2026-03-18T12:00:00.000Z'),
  });
  return { store, conv, touches, links, claims };
}

describe('store inbound', () => {
  it('a new message is stored for the conversation, claimed with the write, and counted on the conversation', async () => {
    const { store, conv, touches, links, claims } = setup((m) => ({ isNew: true, message: m, state: 'replying' }));

    const result = await store.store('u1', CHANGE, INBOUND, 'sqs-1');
    if (result.state !== 'claimed') throw new Error(`expected claimed, got ${result.state}`);
    await result.recorded;

    expect(result.conversation.id).toBe(conv.id);
    expect(result.message).toMatchObject({
      id: `${conv.id}-ID000000000000000000000001`,
      waMessageId: 'wamid.in1',
      fromMe: false,
      from: '+34612345678',
      to: '+15550100',
      phoneNumberId: { id: '1055', name: '1 555-0100' },
      status: 'delivered',
      body: 'Hola',
    });
    expect(claims).toEqual([]);
    // The 24-hour window starts when the customer wrote as Meta stamped it, not when it was stored (issue 29).
    expect(touches).toMatchObject([{ messageCountDelta: 1, customerName: 'Lucía', lastInboundAt: '2026-03-18T11:59:00.000Z' }]);
    expect(links).toEqual(['contact-1']);
  });

  it('the window’s start: Meta’s time, never later than now (a clock ahead), now when Meta sent none readable', () => {
    const now = Date.parse('2026-03-18T12:00:00.000Z');
    expect(customerWroteAt('2026-03-17T06:00:00.000Z', now)).toBe('2026-03-17T06:00:00.000Z');
    expect(customerWroteAt('2026-03-18T17:00:00.000Z', now)).toBe('2026-03-18T12:00:00.000Z');
    expect(customerWroteAt('', now)).toBe('2026-03-18T12:00:00.000Z');
  });

  it('Meta’s redelivery of an answered message is a duplicate: nothing claimed, nothing counted', async () => {
    const { store, conv, touches, claims } = setup(() => ({ isNew: false, message: message(conversation({ id: 'OTHER' })), state: 'handled' }));

    const result = await store.store('u1', CHANGE, INBOUND, 'sqs-2');

    expect(result).toEqual({ state: 'duplicate', conversationId: 'OTHER' });
    expect(conv.id).not.toBe('OTHER');
    expect(claims).toEqual([]);
    expect(touches).toEqual([]);
  });

  it('a stored message another worker is answering is busy; its own retry takes the claim over', async () => {
    const stored = (m: StoredMessage): InboundInsertResult => ({ isNew: false, message: m, state: 'replying' });
    const other = setup(stored, false);
    const retry = setup(stored, true);

    const busy = await other.store.store('u1', CHANGE, INBOUND, 'sqs-3');
    const resumed = await retry.store.store('u1', CHANGE, INBOUND, 'sqs-1');

    expect(busy).toEqual({ state: 'busy', conversationId: other.conv.id });
    expect(resumed.state).toBe('claimed');
    expect(other.claims).toEqual(['wamid.in1:sqs-3']);
    expect(other.touches).toMatchObject([{ messageCountDelta: 0 }]);
  });
});

describe('apply status', () => {
  it('tries an unknown wamid again after each wait, then reports it', async () => {
    const answers: StatusUpdateResult[] = ['unknown', 'unknown', 'updated'];
    const seen: string[] = [];
    const messages = {
      updateStatusByWamid: async (_u: string, wamid: string, status: string) => (seen.push(`${wamid}:${status}`), answers.shift()!),
    };

    expect(await applyStatus({ messages, statusRetryDelaysMs: [1, 1] }, 'u1', { wamid: 'wamid.out', status: 'read' })).toBe('updated');
    expect(seen).toEqual(['wamid.out:read', 'wamid.out:read', 'wamid.out:read']);
    expect(await applyStatus({ messages: { updateStatusByWamid: async () => 'unknown' }, statusRetryDelaysMs: [] }, 'u1', { wamid: 'x', status: 'sent' })).toBe('unknown');
  });

  it('a wamid still unknown with our reference: the send whose answer was lost takes it, then the status applies (issue 34)', async () => {
    const indexed = new Set<string>();
    const adopted: string[] = [];
    const messages = {
      updateStatusByWamid: async (_u: string, wamid: string): Promise<StatusUpdateResult> => (indexed.has(wamid) ? 'updated' : 'unknown'),
      adoptSend: async (_u: string, id: string, wamid: string) => {
        if (id !== 'CONV-MINE') return null;
        adopted.push(`${id} ${wamid}`);
        indexed.add(wamid);
        return message(conversation(), { id });
      },
    };

    expect(await applyStatus({ messages, statusRetryDelaysMs: [1] }, 'u1', { wamid: 'wamid.lost', status: 'delivered', reference: 'CONV-MINE' })).toBe('updated');
    expect(await applyStatus({ messages, statusRetryDelaysMs: [1] }, 'u1', { wamid: 'wamid.other', status: 'read', reference: 'CONV-NOT-OURS' })).toBe('unknown');
    expect(await applyStatus({ messages, statusRetryDelaysMs: [1] }, 'u1', { wamid: 'wamid.none', status: 'read' })).toBe('unknown');
    expect(adopted).toEqual(['CONV-MINE wamid.lost']);
  });
});
