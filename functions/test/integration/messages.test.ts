/**
 * Message Hub API (SPEC §7 Messages, §4, §8) through the local gateway against DynamoDB Local and
 * the fake WhatsApp Graph API: list (page, limit 20, search, status with unknown → pending,
 * fromMe, timeFilter), stats from the counters, latest, get, retry of a failed send, delete,
 * and ownership (another user's message id is a 404). Messages are seeded through the DynamoDB
 * repositories the worker uses, at chosen times.
 */
import { describe, expect, it } from 'vitest';
import { whatsappMessages, type Message, type MessageListResponse, type MessageStats } from '../../src/contract/whatsapp.js';
import { activeUser, addContact, putContact } from '../support/contacts.js';
import { ago, conversationsApi, DAY, inbound, messagesApi, openConversation, outbound, spanishWaId, type SeedBusiness } from '../support/conversations.js';
import { connectWhatsApp, failGraphSends, graphSends } from '../support/whatsapp.js';

const business = (): SeedBusiness => ({ phoneId: `8${Date.now()}${Math.floor(Math.random() * 1000)}`, phoneNumber: '+14155550100' });

async function userWithConversation(wa: SeedBusiness = business()) {
  const user = await activeUser();
  const conv = await openConversation(user.userId, wa, { waId: spanishWaId(), name: 'Marta' });
  return { ...user, wa, conv };
}

const bodies = (res: { body: { data?: unknown } }) => (res.body.data as Message[]).map((m) => m.body);

describe('GET /api/messages', () => {
  it('pages of 20 by default, newest first, with pagination beside data', async () => {
    const { token, userId, wa, conv } = await userWithConversation();
    for (let i = 0; i < 25; i++) await inbound(userId, wa, conv, { body: `m${String(i).padStart(2, '0')}` });

    const first = await messagesApi.list(token);
    const second = await messagesApi.list(token, { page: 2 });
    const small = await messagesApi.list(token, { page: 3, limit: 10 });
    const badPage = await messagesApi.list(token, { page: 0 });
    const badLimit = await messagesApi.list(token, { limit: 101 });

    expect(first.status).toBe(200);
    const body = first.body as unknown as MessageListResponse;
    expect(body.data).toHaveLength(20);
    expect(body.data[0]!.body).toBe('m24');
    expect(body.pagination).toEqual({ currentPage: 1, totalPages: 2, totalMessages: 25, limit: 20 });
    expect(bodies(second)).toEqual(['m04', 'm03', 'm02', 'm01', 'm00']);
    expect(small.body.pagination).toEqual({ currentPage: 3, totalPages: 3, totalMessages: 25, limit: 10 });
    expect(bodies(small)).toHaveLength(5);
    expect(badPage).toMatchObject({ status: 400, body: { message: 'Page must be a positive whole number' } });
    expect(badLimit).toMatchObject({ status: 400, body: { message: 'Limit must be between 1 and 100' } });
  });

  it("names the customer by their contact's current name (issue 29): by the number for a customer saved after writing; none without a contact", async () => {
    const { token, userId, wa, conv } = await userWithConversation();
    const stranger = await openConversation(userId, wa, { waId: spanishWaId(), name: 'Nico' });
    await inbound(userId, wa, conv, { body: 'Hola, soy Marta' });
    await outbound(userId, wa, conv, { body: 'Hola Marta', status: 'sent' });
    await inbound(userId, wa, stranger, { body: '¿Quién eres?' });
    const saved = await addContact(token, { name: 'Marta Peña Núñez', phoneNumber: conv.customerPhone });

    const res = await messagesApi.list(token);

    const named = Object.fromEntries((res.body.data as Message[]).map((m) => [m.body, m.contact ?? null]));
    expect(named).toEqual({
      'Hola, soy Marta': { _id: saved._id, name: 'Marta Peña Núñez' },
      'Hola Marta': { _id: saved._id, name: 'Marta Peña Núñez' },
      '¿Quién eres?': null,
    });
    // Renamed: the list follows the directory.
    await putContact(token, saved._id, { name: 'Marta P.', phoneNumber: conv.customerPhone });
    const renamed = await messagesApi.list(token, { search: 'soy Marta' });
    expect((renamed.body.data as Message[])[0]!.contact).toEqual({ _id: saved._id, name: 'Marta P.' });
  });

  it('filters: search in the body (accents ignored), status (unknown = pending), direction', async () => {
    const { token, userId, wa, conv } = await userWithConversation();
    await inbound(userId, wa, conv, { body: 'Quiero una cita para el sábado' });
    await outbound(userId, wa, conv, { body: 'Tenemos cita el sabado a las 10', status: 'read' });
    await outbound(userId, wa, conv, { body: 'Reply that failed', status: 'failed' });
    await outbound(userId, wa, conv, { body: 'Reply still pending', status: 'pending' });

    const search = await messagesApi.list(token, { search: 'SABADO' });
    const failed = await messagesApi.list(token, { status: 'failed' });
    const unknown = await messagesApi.list(token, { status: 'exploded' });
    const mine = await messagesApi.list(token, { fromMe: 'true' });
    const theirs = await messagesApi.list(token, { fromMe: 'false' });
    const badFromMe = await messagesApi.list(token, { fromMe: 'maybe' });

    expect(bodies(search)).toEqual(['Tenemos cita el sabado a las 10', 'Quiero una cita para el sábado']);
    expect(search.body.pagination).toMatchObject({ totalMessages: 2, totalPages: 1 });
    expect(bodies(failed)).toEqual(['Reply that failed']);
    expect((failed.body.data as Message[])[0]).toMatchObject({ fromMe: true, status: 'failed', error: expect.any(String) });
    expect(bodies(unknown)).toEqual(['Reply still pending']);
    expect(bodies(mine)).toHaveLength(3);
    expect(bodies(theirs)).toEqual(['Quiero una cita para el sábado']);
    expect(badFromMe.status).toBe(400);
  });

  it('timeFilter: today, lastWeek (the default), lastMonth, all; unknown values mean all time', async () => {
    const { token, userId, wa, conv } = await userWithConversation();
    for (const [body, at] of [
      ['40 days', ago(40 * DAY)],
      ['10 days', ago(10 * DAY)],
      ['3 days', ago(3 * DAY)],
      ['now', new Date()],
    ] as const) {
      await inbound(userId, wa, conv, { body, at });
    }

    expect(bodies(await messagesApi.list(token, { timeFilter: 'today' }))).toEqual(['now']);
    expect(bodies(await messagesApi.list(token))).toEqual(['now', '3 days']);
    expect(bodies(await messagesApi.list(token, { timeFilter: 'lastMonth' }))).toEqual(['now', '3 days', '10 days']);
    expect(bodies(await messagesApi.list(token, { timeFilter: 'all' }))).toEqual(['now', '3 days', '10 days', '40 days']);
    expect(bodies(await messagesApi.list(token, { timeFilter: 'forever' }))).toHaveLength(4);
    expect((await messagesApi.list(token, { timeFilter: 'lastMonth', search: 'days' })).body.pagination).toMatchObject({ totalMessages: 2 });
  });
});

describe('GET /api/messages/stats and /latest', () => {
  it('stats from the counters: totals, directions, media, status (of sent messages only) and type breakdowns, per time filter', async () => {
    const { token, userId, wa, conv } = await userWithConversation();
    await inbound(userId, wa, conv, { body: 'hola' });
    await inbound(userId, wa, conv, { body: '', type: 'image', hasMedia: true });
    await inbound(userId, wa, conv, { body: '', type: 'ptt', hasMedia: true });
    await outbound(userId, wa, conv, { status: 'read' });
    await outbound(userId, wa, conv, { status: 'failed' });
    await inbound(userId, wa, conv, { body: 'old', at: ago(20 * DAY) });

    const week = (await messagesApi.stats(token)).body.data as MessageStats;
    const all = (await messagesApi.stats(token, 'all')).body.data as MessageStats;

    expect(week).toEqual({
      totalMessages: 5,
      sentMessages: 2,
      receivedMessages: 3,
      mediaMessages: 2,
      // A customer's message is stored 'delivered' but was not sent by us: statuses count outbound only.
      statusBreakdown: { pending: 0, sent: 0, delivered: 0, read: 1, failed: 1 },
      typeBreakdown: { chat: 3, image: 1, video: 0, audio: 1, document: 0, sticker: 0 },
    });
    expect(all).toMatchObject({ totalMessages: 6, receivedMessages: 4 });
    expect((await messagesApi.stats(token, 'today')).body.data).toMatchObject({ totalMessages: 5 });
  });

  it('latest: the newest messages of all conversations (10 by default)', async () => {
    const { token, userId, wa, conv } = await userWithConversation();
    const other = await openConversation(userId, wa, { waId: spanishWaId(), name: 'Nico' });
    for (let i = 0; i < 12; i++) await inbound(userId, wa, i % 2 ? other : conv, { body: `n${i}` });

    const res = await messagesApi.latest(token);
    const three = await messagesApi.latest(token, 3);

    expect(bodies(res)).toEqual(['n11', 'n10', 'n9', 'n8', 'n7', 'n6', 'n5', 'n4', 'n3', 'n2']);
    expect(bodies(three)).toEqual(['n11', 'n10', 'n9']);
  });
});

describe('one message', () => {
  it('get: the Message with its sending number', async () => {
    const { token, userId, wa, conv } = await userWithConversation();
    const stored = await outbound(userId, wa, conv, { body: 'Gracias', status: 'delivered' });

    const res = await messagesApi.get(token, stored.id);

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      _id: stored.id,
      conversationId: conv.id,
      fromMe: true,
      to: conv.customerPhone,
      phoneNumberId: { id: wa.phoneId, name: wa.phoneNumber },
      status: 'delivered',
      body: 'Gracias',
      type: 'chat',
      hasMedia: false,
      agent: { name: 'Sonia' },
    });
  });

  it('retry: a failed reply is sent again once the Graph API recovers; anything else cannot be retried', async () => {
    const user = await activeUser();
    const wa = await connectWhatsApp(user.token);
    const conv = await openConversation(user.userId, wa, { waId: spanishWaId(), name: 'Olga' });
    const incoming = await inbound(user.userId, wa, conv, { body: '¿Hay stock?' });
    await failGraphSends(wa.phoneId, { status: 503, count: 2 });
    const reply = await conversationsApi.reply(user.token, conv.id, { text: 'Sí, quedan 3' });
    expect(reply.status).toBe(503);
    const failed = ((await messagesApi.list(user.token, { status: 'failed' })).body.data as Message[])[0]!;

    const stillDown = await messagesApi.retry(user.token, failed._id);
    const afterStillDown = (await messagesApi.get(user.token, failed._id)).body.data;
    const res = await messagesApi.retry(user.token, failed._id);
    const again = await messagesApi.retry(user.token, failed._id);
    const inboundRetry = await messagesApi.retry(user.token, incoming.id);

    expect(stillDown).toMatchObject({ status: 503, body: { message: whatsappMessages.graphTemporarilyUnavailable } });
    expect(afterStillDown).toMatchObject({ status: 'failed' });
    expect(res).toMatchObject({ status: 200, body: { message: 'Message retry initiated', data: { _id: failed._id, status: 'sent' } } });
    const sends = await graphSends(wa.phoneId);
    expect(sends.map((s) => [s.text, s.status])).toEqual([
      ['Sí, quedan 3', 503],
      ['Sí, quedan 3', 503],
      ['Sí, quedan 3', 200],
    ]);
    expect((await messagesApi.get(user.token, failed._id)).body.data).toMatchObject({ status: 'sent', waMessageId: sends[2]!.id });
    expect(((await messagesApi.stats(user.token)).body.data as MessageStats).statusBreakdown).toMatchObject({ failed: 0, sent: 1 });
    for (const refused of [again, inboundRetry]) {
      expect(refused).toMatchObject({ status: 400, body: { message: 'Only failed outgoing messages can be retried' } });
    }
    expect(await graphSends(wa.phoneId)).toHaveLength(3);
  });

  it('delete: removed from the list, the conversation and the counters', async () => {
    const { token, userId, wa, conv } = await userWithConversation();
    const keep = await inbound(userId, wa, conv, { body: 'keep' });
    const gone = await inbound(userId, wa, conv, { body: 'gone' });

    const res = await messagesApi.remove(token, gone.id);

    expect(res).toMatchObject({ status: 200, body: { message: 'Message deleted successfully' } });
    expect((await messagesApi.get(token, gone.id)).status).toBe(404);
    expect(bodies(await messagesApi.list(token))).toEqual(['keep']);
    expect((await messagesApi.stats(token)).body.data).toMatchObject({ totalMessages: 1, receivedMessages: 1 });
    expect(((await conversationsApi.get(token, conv.id)).body.data as { messages: { _id: string }[] }).messages.map((m) => m._id)).toEqual([keep.id]);
    expect((await messagesApi.remove(token, gone.id)).status).toBe(404);
  });

  it("another user's message id (and a malformed one) is a 404 on get, retry and delete, and stays", async () => {
    const owner = await userWithConversation();
    const failed = await outbound(owner.userId, owner.wa, owner.conv, { status: 'failed' });
    const { token } = await activeUser();

    const calls = await Promise.all([
      messagesApi.get(token, failed.id),
      messagesApi.retry(token, failed.id),
      messagesApi.remove(token, failed.id),
      messagesApi.get(token, 'nope'),
    ]);

    for (const res of calls) expect(res).toMatchObject({ status: 404, body: { message: 'Message not found' } });
    expect((await messagesApi.get(owner.token, failed.id)).body.data).toMatchObject({ status: 'failed' });
    expect(bodies(await messagesApi.list(token))).toEqual([]);
  });
});
