/**
 * Conversations API (SPEC §7 Conversations, §8) through the local gateway against DynamoDB Local
 * and the fake WhatsApp Graph API: board overview by date filter, list (filters, pagination),
 * stats from counters, detail with messages, status/notes (closedAt), escalation, delete with its
 * messages, the human reply's 24-hour window, ownership (404), and Import from WhatsApp.
 * Conversations and messages are seeded through the DynamoDB repositories the worker uses.
 */
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/contract/contacts.js';
import { whatsappMessages, type Conversation, type ConversationDetail, type ConversationMessage, type ConversationOverview, type ConversationStats, type WhatsAppImportResult } from '../../src/contract/whatsapp.js';
import { api, itemsOf, registerUser } from '../support/api.js';
import { activeUser, addContact, listContacts } from '../support/contacts.js';
import {
  ago,
  conversationsApi,
  DAY,
  HOUR,
  inbound,
  messagesApi,
  openConversation,
  outbound,
  repos,
  spanishWaId,
  type SeedBusiness,
} from '../support/conversations.js';
import { connectWhatsApp, failGraphSends, graphSends } from '../support/whatsapp.js';

const business = (): SeedBusiness => ({ phoneId: `9${Date.now()}${Math.floor(Math.random() * 1000)}`, phoneNumber: '+14155550100' });
const customer = (name: string) => ({ waId: spanishWaId(), name });

/** A user with an active subscription, a connected WhatsApp number and one conversation (customer wrote `lastInboundAgo` ago). */
async function withConversation(options: { lastInboundAgo?: number; connect?: boolean } = {}) {
  const user = await activeUser();
  const wa = options.connect === false ? business() : await connectWhatsApp(user.token);
  const at = ago(options.lastInboundAgo ?? HOUR);
  const conv = await openConversation(user.userId, wa, customer('Lucía Gómez'), at);
  const first = await inbound(user.userId, wa, conv, { body: '¿Abrís el sábado?', at });
  return { ...user, wa, conv, first };
}

describe('overview, list and stats', () => {
  it('overview: columns by status filtered by the date of the last message; stats from the counters', async () => {
    const { token, userId } = await activeUser();
    const wa = business();
    const today = await openConversation(userId, wa, customer('Ana'));
    await inbound(userId, wa, today, { body: 'today' });
    const lastMonth = await openConversation(userId, wa, customer('Bea'), ago(40 * DAY));
    await inbound(userId, wa, lastMonth, { body: 'long ago', at: ago(40 * DAY) });
    const escalated = await openConversation(userId, wa, customer('Carla'));
    await inbound(userId, wa, escalated, { body: 'I want a human' });
    const closed = await openConversation(userId, wa, customer('Dora'));
    await inbound(userId, wa, closed, { body: 'thanks, bye' });
    expect((await conversationsApi.escalate(token, escalated.id, { reason: 'Refund' })).status).toBe(200);
    expect((await conversationsApi.update(token, closed.id, { status: 'closed' })).status).toBe(200);

    const res = await conversationsApi.overview(token);
    const month = await conversationsApi.overview(token, 'this_month');
    const unknown = await conversationsApi.overview(token, 'next_year');

    expect(res.status).toBe(200);
    const data = res.body.data as ConversationOverview;
    expect(data.conversationsByStatus.active.map((c) => c._id)).toEqual([today.id]);
    expect(data.conversationsByStatus.requires_human.map((c) => c._id)).toEqual([escalated.id]);
    expect(data.conversationsByStatus.closed.map((c) => c._id)).toEqual([closed.id]);
    expect(data.conversationsByStatus.active[0]).toMatchObject({
      status: 'active',
      contact: { name: 'Ana', phoneNumber: today.customerPhone },
      lastMessage: { body: 'today', fromMe: false },
      messageCount: 1,
    });
    expect(data.stats).toEqual({ total: 4, active: 2, requiresHuman: 1, closed: 1, archived: 0 });
    // The 40-day-old conversation is not in this month's board either, but is counted.
    expect((month.body.data as ConversationOverview).conversationsByStatus.active.map((c) => c._id)).not.toContain(lastMonth.id);
    expect((unknown.body.data as ConversationOverview).conversationsByStatus.active.map((c) => c._id)).toEqual([today.id]);
    expect((await conversationsApi.stats(token)).body.data).toEqual({ total: 4, active: 2, requiresHuman: 1, closed: 1, archived: 0 });
  });

  it('list: newest activity first, status filter, search, pagination; a bad status is a 400', async () => {
    const { token, userId } = await activeUser();
    const wa = business();
    const ids: string[] = [];
    for (const [i, name] of ['Elena', 'Fabio', 'Gema'].entries()) {
      const conv = await openConversation(userId, wa, customer(name), ago((3 - i) * HOUR));
      await inbound(userId, wa, conv, { body: `hello from ${name}`, at: ago((3 - i) * HOUR) });
      ids.push(conv.id);
    }
    await conversationsApi.update(token, ids[0]!, { status: 'closed' });

    const all = await conversationsApi.list(token);
    const page2 = await conversationsApi.list(token, { limit: 1, page: 2 });
    const active = await conversationsApi.list(token, { status: 'active' });
    const search = await conversationsApi.list(token, { search: 'fabio' });
    const bad = await conversationsApi.list(token, { status: 'sleeping' });

    expect((all.body.data as Conversation[]).map((c) => c._id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(all.body.pagination).toMatchObject({ currentPage: 1, totalPages: 1, totalConversations: 3 });
    expect((page2.body.data as Conversation[]).map((c) => c._id)).toEqual([ids[1]]);
    expect(page2.body.pagination).toMatchObject({ currentPage: 2, totalPages: 3, totalConversations: 3, limit: 1 });
    expect((active.body.data as Conversation[]).map((c) => c._id)).toEqual([ids[2], ids[1]]);
    expect((search.body.data as Conversation[]).map((c) => c._id)).toEqual([ids[1]]);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Status must be one of active, closed, requires_human, archived');
  });
});

describe('a conversation', () => {
  it('get: data.conversation and data.messages, oldest first', async () => {
    const { token, userId, wa, conv, first } = await withConversation();
    const reply = await outbound(userId, wa, conv, { body: 'Sí, de 10 a 14', status: 'read' });

    const res = await conversationsApi.get(token, conv.id);

    expect(res.status).toBe(200);
    const data = res.body.data as ConversationDetail;
    expect(data.conversation).toMatchObject({ _id: conv.id, status: 'active', messageCount: 2, lastInboundAt: first.timestamp });
    expect(data.messages.map((m) => [m._id, m.fromMe, m.body, m.content, m.status])).toEqual([
      [first.id, false, '¿Abrís el sábado?', '¿Abrís el sábado?', 'delivered'],
      [reply.id, true, 'Sí, de 10 a 14', 'Sí, de 10 a 14', 'read'],
    ]);
  });

  it('PUT: closing sets closedAt and moves the counters; reopening clears it; notes are trimmed; bad input is a 400', async () => {
    const { token, conv } = await withConversation();

    const closed = await conversationsApi.update(token, conv.id, { status: 'closed', notes: '  Called back  ' });
    const statsClosed = (await conversationsApi.stats(token)).body.data as ConversationStats;
    const reopened = await conversationsApi.update(token, conv.id, { status: 'active' });
    const badStatus = await conversationsApi.update(token, conv.id, { status: 'done' });
    const longNotes = await conversationsApi.update(token, conv.id, { notes: 'x'.repeat(2001) });

    expect(closed.status).toBe(200);
    expect(closed.body.message).toBe('Conversation updated successfully');
    expect(closed.body.data).toMatchObject({ status: 'closed', notes: 'Called back' });
    expect(Date.now() - Date.parse((closed.body.data as Conversation).closedAt!)).toBeLessThan(60_000);
    expect(statsClosed).toMatchObject({ total: 1, active: 0, closed: 1 });
    expect(reopened.body.data).toMatchObject({ status: 'active', closedAt: null, notes: 'Called back' });
    expect((await conversationsApi.stats(token)).body.data).toMatchObject({ total: 1, active: 1, closed: 0 });
    expect(badStatus.status).toBe(400);
    expect(longNotes).toMatchObject({ status: 400, body: { message: 'Notes must be 2000 characters or less' } });
  });

  it('escalate: an empty reason is refused with nothing changed; a reason moves it to requires_human', async () => {
    const { token, conv } = await withConversation();

    const empty = await conversationsApi.escalate(token, conv.id, { reason: '   ' });
    const missing = await conversationsApi.escalate(token, conv.id, {});
    const unchanged = (await conversationsApi.get(token, conv.id)).body.data as ConversationDetail;
    const res = await conversationsApi.escalate(token, conv.id, { reason: ' Wants to talk to the owner ' });

    expect(empty).toMatchObject({ status: 400, body: { success: false, message: 'Escalation reason is required' } });
    expect(missing).toMatchObject({ status: 400, body: { message: 'Escalation reason is required' } });
    expect(unchanged.conversation).toMatchObject({ status: 'active', escalationReason: '', escalatedAt: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'requires_human', escalationReason: 'Wants to talk to the owner' });
    expect((res.body.data as Conversation).escalatedAt).toBeTruthy();
    expect((await conversationsApi.stats(token)).body.data).toMatchObject({ active: 0, requiresHuman: 1 });
  });

  it('DELETE removes the conversation and its messages, and the counters', async () => {
    const { token, userId, wa, conv, first } = await withConversation();
    const reply = await outbound(userId, wa, conv, { body: 'ok' });

    const res = await conversationsApi.remove(token, conv.id);

    expect(res).toMatchObject({ status: 200, body: { message: 'Conversation deleted successfully' } });
    expect((await conversationsApi.get(token, conv.id)).status).toBe(404);
    expect((await messagesApi.get(token, first.id)).status).toBe(404);
    expect((await messagesApi.get(token, reply.id)).status).toBe(404);
    expect(await itemsOf(`USER#${userId}#CONV#${conv.id}`)).toEqual([]);
    expect((await conversationsApi.stats(token)).body.data).toMatchObject({ total: 0, active: 0 });
    expect((await messagesApi.stats(token, 'all')).body.data).toMatchObject({ totalMessages: 0 });
    expect((await conversationsApi.remove(token, conv.id)).status).toBe(404);
  });

  it("another user's conversation (and a malformed id) is a 404 on every call, and stays untouched", async () => {
    const owner = await withConversation();
    const { token } = await activeUser();
    await connectWhatsApp(token);

    const calls = [
      conversationsApi.get(token, owner.conv.id),
      conversationsApi.update(token, owner.conv.id, { status: 'closed' }),
      conversationsApi.escalate(token, owner.conv.id, { reason: 'x' }),
      conversationsApi.reply(token, owner.conv.id, { text: 'hi' }),
      conversationsApi.remove(token, owner.conv.id),
      conversationsApi.get(token, 'not-an-id'),
    ];

    for (const res of await Promise.all(calls)) expect(res).toMatchObject({ status: 404, body: { message: 'Conversation not found' } });
    expect((await conversationsApi.get(owner.token, owner.conv.id)).body.data).toMatchObject({ conversation: { status: 'active' } });
    expect(await graphSends(owner.wa.phoneId)).toEqual([]);
  });
});

describe('human reply (POST /api/conversations/{id}/messages)', () => {
  it('inside the 24-hour window: sent as free text through the Graph API, stored as a human message (sent), counted in usage', async () => {
    const { token, userId, wa, conv } = await withConversation({ lastInboundAgo: 23 * HOUR });

    const res = await conversationsApi.reply(token, conv.id, { text: '  Sí, abrimos de 10 a 14  ' });

    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Message sent');
    const message = res.body.data as ConversationMessage;
    expect(message).toMatchObject({ fromMe: true, body: 'Sí, abrimos de 10 a 14', status: 'sent', sentBy: 'human' });
    const sends = await graphSends(wa.phoneId);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ to: conv.customerWaId, text: 'Sí, abrimos de 10 a 14', type: 'text', status: 200 });
    expect((await messagesApi.get(token, message._id)).body.data).toMatchObject({ waMessageId: sends[0]!.id, sentBy: 'human', status: 'sent' });
    const detail = (await conversationsApi.get(token, conv.id)).body.data as ConversationDetail;
    expect(detail.conversation).toMatchObject({ messageCount: 2, lastMessage: { fromMe: true, body: 'Sí, abrimos de 10 a 14' } });
    expect(detail.messages.at(-1)?._id).toBe(message._id);
    const usage = (await itemsOf(`USER#${userId}`)).find((i) => String(i.sk).startsWith('USAGE#') && i.sk !== 'USAGE#CONTACTS');
    expect(usage?.messagesSent).toBe(1);
  });

  it('outside the window: 400 with the template message, nothing sent or stored', async () => {
    const { token, wa, conv } = await withConversation({ lastInboundAgo: 25 * HOUR });

    const res = await conversationsApi.reply(token, conv.id, { text: 'Are you still there?' });

    expect(res).toMatchObject({
      status: 400,
      body: { message: 'The last customer message is more than 24 hours old: WhatsApp only allows a template message now.' },
    });
    expect(await graphSends(wa.phoneId)).toEqual([]);
    expect(((await conversationsApi.get(token, conv.id)).body.data as ConversationDetail).messages).toHaveLength(1);
  });

  it('without the WhatsApp integration: 400 notConnected; an empty text: 400', async () => {
    const { token, conv } = await withConversation({ connect: false });

    const res = await conversationsApi.reply(token, conv.id, { text: 'Hi' });
    const empty = await conversationsApi.reply(token, conv.id, { text: '   ' });

    expect(res).toMatchObject({ status: 400, body: { message: 'Connect the WhatsApp Business integration first' } });
    expect(empty).toMatchObject({ status: 400, body: { message: 'Message is required' } });
  });

  it('a Graph API outage: 503 "not sent, try again", the message is kept as failed with the reason and Meta’s code (issue 34)', async () => {
    const { token, wa, conv } = await withConversation();
    await failGraphSends(wa.phoneId, { status: 500, code: 131000 });

    const res = await conversationsApi.reply(token, conv.id, { text: 'Hello' });

    expect(res).toMatchObject({ status: 503, body: { message: whatsappMessages.graphTemporarilyUnavailable, errorCode: '131000' } });
    const detail = (await conversationsApi.get(token, conv.id)).body.data as ConversationDetail;
    expect(detail.messages.at(-1)).toMatchObject({ fromMe: true, body: 'Hello', status: 'failed', error: whatsappMessages.graphTemporarilyUnavailable, errorCode: '131000' });
  });
});

describe('POST /api/contacts/import-whatsapp', () => {
  it('adds a whatsapp_import contact for every customer not yet in the directory, links their conversations, and only once', async () => {
    const { token, userId } = await activeUser();
    const wa = business();
    const known = customer('Known Person');
    const existing = await addContact(token, { name: 'Already Here', phoneNumber: `+${known.waId}` });
    const newOnes = [customer('Nuria Sáez'), customer('Óscar Ruiz')];
    const convs = [];
    for (const c of [known, ...newOnes]) {
      const conv = await openConversation(userId, wa, c);
      await inbound(userId, wa, conv);
      convs.push(conv);
    }
    // A username-only customer (no phone number) cannot become a contact.
    await inbound(userId, wa, await openConversation(userId, wa, { waId: 'US.1234567890', name: 'NoPhone', phone: '' }));

    const res = await api<WhatsAppImportResult>('POST', '/api/contacts/import-whatsapp', { token });
    const again = await api<WhatsAppImportResult>('POST', '/api/contacts/import-whatsapp', { token });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: '2 contacts imported from WhatsApp', data: { imported: 2, skipped: 2 } });
    expect(again.body).toMatchObject({ message: '0 contacts imported from WhatsApp', data: { imported: 0, skipped: 4 } });
    const contacts = (await listContacts(token, { limit: 50 })).body.data as Contact[];
    expect(contacts).toHaveLength(3);
    const imported = contacts.filter((c) => c.source === 'whatsapp_import');
    expect(imported.map((c) => [c.name, c.phoneNumber, c.isWAContact]).sort()).toEqual(
      newOnes.map((c) => [c.name, `+${c.waId}`, true]).sort(),
    );
    expect(imported.every((c) => c.metadata.importedAt)).toBe(true);
    expect(contacts.find((c) => c._id === existing._id)).toMatchObject({ source: 'manual', name: 'Already Here' });
    // The customers' conversations now point at their contacts.
    for (const [i, conv] of convs.entries()) {
      const linked = await repos().conversations.get(userId, conv.id);
      const expected = i === 0 ? existing._id : imported.find((c) => c.phoneNumber === `+${newOnes[i - 1]!.waId}`)!._id;
      expect(linked?.contactId).toBe(expected);
    }
  });

  it('deleting the contact keeps its conversation and clears the link', async () => {
    const { token, userId } = await activeUser();
    const conv = await openConversation(userId, business(), customer('Rosa'));
    await inbound(userId, business(), conv);
    await api('POST', '/api/contacts/import-whatsapp', { token });
    const contactId = (await repos().conversations.get(userId, conv.id))?.contactId;
    expect(contactId).toBeTruthy();

    const res = await api('DELETE', `/api/contacts/${contactId}`, { token });

    expect(res.status).toBe(200);
    const after = (await conversationsApi.get(token, conv.id)).body.data as ConversationDetail;
    expect(after.conversation.contact).toMatchObject({ _id: '', name: 'Rosa' });
    expect(after.messages).toHaveLength(1);
  });

  it('is premium-gated: without an active subscription it is a 402 and nothing is created', async () => {
    const { session } = await registerUser();
    const userId = session.user._id;
    const conv = await openConversation(userId, business(), customer('Pablo'));
    await inbound(userId, business(), conv);

    const res = await api('POST', '/api/contacts/import-whatsapp', { token: session.token });

    expect(res.status).toBe(402);
    expect((await listContacts(session.token)).body.data).toEqual([]);
  });
});
