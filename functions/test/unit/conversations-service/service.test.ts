/**
 * The conversations service's use cases over in-memory ports: human reply and the 24-hour
 * window, Graph failures (message failed, usage given back), retry, status changes with
 * closedAt, escalation, ownership (another user's id is a 404) and the views.
 */
import { describe, expect, it } from 'vitest';
import { integrationHealthReasons } from '../../../src/contract/integration-health.js';
import { whatsappMessages } from '../../../src/contract/whatsapp.js';
import { GraphError } from '../../../src/domain/whatsapp/ports.js';
import { conversation, hoursAgo, message, NOW, setup } from './fakes.js';

const USER = 'user-a';
const OTHER = 'user-b';

describe('reply (a person answers as the business)', () => {
  it('inside the window: sends free text to the customer, stores it as a human message (sent), counts usage', async () => {
    const { service, conversations, messages, graph, usage } = setup();
    const conv = conversations.seed(USER, conversation({ lastInboundAt: hoursAgo(23) }));

    const reply = await service.reply(USER, conv.id, 'We open at 9');

    expect(graph.sent).toEqual([{ credentials: expect.objectContaining({ phoneId: '1055' }), to: '34612345678', text: 'We open at 9' }]);
    expect(reply).toMatchObject({ fromMe: true, body: 'We open at 9', content: 'We open at 9', status: 'sent', sentBy: 'human', type: 'chat' });
    const [stored] = messages.all(USER);
    expect(stored).toMatchObject({ id: reply._id, conversationId: conv.id, waMessageId: 'wamid.sent1', status: 'sent', sentBy: 'human' });
    expect(stored!.id.startsWith(`${conv.id}-`)).toBe(true);
    expect(usage.used).toBe(1);
    const after = await conversations.get(USER, conv.id);
    expect(after).toMatchObject({ messageCount: 2, lastMessageAt: NOW.toISOString(), lastMessage: { fromMe: true, body: 'We open at 9' } });
  });

  it('outside the window (or with no customer message): 400 windowClosed, nothing sent, stored or counted', async () => {
    const { service, conversations, messages, graph, usage } = setup();
    const old = conversations.seed(USER, conversation({ lastInboundAt: hoursAgo(25) }));
    const never = conversations.seed(USER, conversation({ lastInboundAt: null }));

    for (const id of [old.id, never.id]) {
      await expect(service.reply(USER, id, 'Hello?')).rejects.toMatchObject({ status: 400, message: whatsappMessages.windowClosed });
    }
    expect(graph.sent).toEqual([]);
    expect(messages.all(USER)).toEqual([]);
    expect(usage.used).toBe(0);
  });

  it('without the WhatsApp integration: 400 notConnected', async () => {
    const { service, conversations, messages } = setup({ connected: false });
    const conv = conversations.seed(USER, conversation());

    await expect(service.reply(USER, conv.id, 'Hi')).rejects.toMatchObject({ status: 400, message: whatsappMessages.notConnected });
    expect(messages.all(USER)).toEqual([]);
  });

  it('over the plan limit: the limit error, nothing stored or sent', async () => {
    const { service, conversations, messages, graph } = setup({ limit: 0 });
    const conv = conversations.seed(USER, conversation());

    await expect(service.reply(USER, conv.id, 'Hi')).rejects.toMatchObject({ status: 403 });
    expect(messages.all(USER)).toEqual([]);
    expect(graph.sent).toEqual([]);
  });

  it.each([
    // WhatsApp unavailable for now (issue 34): 503 "not sent, try again", Meta's code kept.
    [new GraphError('unavailable', 'Something went wrong', 131000), 503, whatsappMessages.graphTemporarilyUnavailable, { errorCode: '131000' }],
    // Its answer lost after the request went out: 504 "not confirmed" (it may have arrived: never sent again by itself).
    [new GraphError('unavailable', 'WhatsApp did not answer in time', undefined, { deliveryUnknown: true }), 504, whatsappMessages.deliveryUnknown, {}],
    // A refused token (issue 34): our reason in words, Meta's code and the reason key kept on the message.
    [
      new GraphError('auth', 'Invalid OAuth access token', 190),
      400,
      integrationHealthReasons.whatsapp_token_invalid,
      { errorCode: '190', errorReason: 'whatsapp_token_invalid' },
    ],
  ])('a Graph failure (%s): clear %i, the message stays failed with the reason, usage given back', async (error, status, text, detail) => {
    const { service, conversations, messages, graph, usage } = setup();
    const conv = conversations.seed(USER, conversation());
    graph.failures.push(error);

    await expect(service.reply(USER, conv.id, 'Hi')).rejects.toMatchObject({ status, message: text });
    expect(messages.all(USER)).toEqual([expect.objectContaining({ status: 'failed', error: text, sentBy: 'human', body: 'Hi', ...detail })]);
    expect(usage.used).toBe(0);
  });

  it("another user's conversation or a malformed id: 404", async () => {
    const { service, conversations, graph } = setup();
    const conv = conversations.seed(OTHER, conversation());

    await expect(service.reply(USER, conv.id, 'Hi')).rejects.toMatchObject({ status: 404, message: whatsappMessages.conversationNotFound });
    await expect(service.reply(USER, '../x', 'Hi')).rejects.toMatchObject({ status: 404 });
    expect(graph.sent).toEqual([]);
  });
});

describe('retryMessage', () => {
  it('resends a failed outgoing message: pending → sent with the new wamid, retry counted, usage reserved', async () => {
    const { service, conversations, messages, graph, usage } = setup();
    const conv = conversations.seed(USER, conversation());
    const failed = messages.seed(USER, message(conv, { fromMe: true, status: 'failed', waMessageId: '', error: 'Boom', body: 'Your order shipped' }));

    const result = await service.retryMessage(USER, failed.id);

    expect(result).toMatchObject({ _id: failed.id, status: 'sent', waMessageId: 'wamid.sent1' });
    expect(result.error).toBeUndefined();
    expect(graph.sent.map((s) => s.text)).toEqual(['Your order shipped']);
    expect((await messages.get(USER, failed.id))?.retryCount).toBe(1);
    expect(usage.used).toBe(1);
  });

  it('a retry that fails again leaves it failed (retryable) and answers the Graph error', async () => {
    const { service, conversations, messages, graph, usage } = setup();
    const conv = conversations.seed(USER, conversation());
    const failed = messages.seed(USER, message(conv, { fromMe: true, status: 'failed', waMessageId: '' }));
    graph.failures.push(new GraphError('unavailable', 'down'));

    await expect(service.retryMessage(USER, failed.id)).rejects.toMatchObject({ status: 503, message: whatsappMessages.graphTemporarilyUnavailable });
    expect((await messages.get(USER, failed.id))?.status).toBe('failed');
    expect(usage.used).toBe(0);
  });

  it.each([
    ['an incoming message', { fromMe: false, status: 'delivered' as const }],
    ['a sent message', { fromMe: true, status: 'sent' as const }],
  ])('%s: 400 retryNotFailed, nothing sent', async (_label, over) => {
    const { service, conversations, messages, graph } = setup();
    const conv = conversations.seed(USER, conversation());
    const msg = messages.seed(USER, message(conv, over));

    await expect(service.retryMessage(USER, msg.id)).rejects.toMatchObject({ status: 400, message: whatsappMessages.retryNotFailed });
    expect(graph.sent).toEqual([]);
  });

  it('outside the window: 400 windowClosed, still failed', async () => {
    const { service, conversations, messages, graph } = setup();
    const conv = conversations.seed(USER, conversation({ lastInboundAt: hoursAgo(30) }));
    const failed = messages.seed(USER, message(conv, { fromMe: true, status: 'failed' }));

    await expect(service.retryMessage(USER, failed.id)).rejects.toMatchObject({ status: 400, message: whatsappMessages.windowClosed });
    expect((await messages.get(USER, failed.id))?.status).toBe('failed');
    expect(graph.sent).toEqual([]);
  });

  it("another user's message: 404", async () => {
    const { service, conversations, messages } = setup();
    const conv = conversations.seed(OTHER, conversation());
    const failed = messages.seed(OTHER, message(conv, { fromMe: true, status: 'failed' }));

    await expect(service.retryMessage(USER, failed.id)).rejects.toMatchObject({ status: 404, message: whatsappMessages.messageNotFound });
    await expect(service.getMessage(USER, failed.id)).rejects.toMatchObject({ status: 404 });
    await expect(service.removeMessage(USER, failed.id)).rejects.toMatchObject({ status: 404 });
    expect(await messages.get(OTHER, failed.id)).not.toBeNull();
  });
});

describe('update, escalate, remove', () => {
  it('closing sets closedAt; reopening clears it; notes alone keep the status', async () => {
    const { service, conversations } = setup();
    const conv = conversations.seed(USER, conversation());

    const closed = await service.update(USER, conv.id, { status: 'closed', notes: 'Done' });
    expect(closed).toMatchObject({ status: 'closed', closedAt: NOW.toISOString(), notes: 'Done' });
    const noted = await service.update(USER, conv.id, { notes: 'Called back' });
    expect(noted).toMatchObject({ status: 'closed', closedAt: NOW.toISOString(), notes: 'Called back' });
    const reopened = await service.update(USER, conv.id, { status: 'active' });
    expect(reopened).toMatchObject({ status: 'active', closedAt: null, notes: 'Called back' });
  });

  it('escalate: requires_human with the trimmed reason and escalatedAt; an empty reason is refused', async () => {
    const { service, conversations } = setup();
    const conv = conversations.seed(USER, conversation());

    await expect(service.escalate(USER, conv.id, '   ')).rejects.toMatchObject({ status: 400, message: whatsappMessages.escalationReasonRequired });
    expect((await conversations.get(USER, conv.id))?.status).toBe('active');
    const escalated = await service.escalate(USER, conv.id, '  Wants a refund  ');
    expect(escalated).toMatchObject({ status: 'requires_human', escalationReason: 'Wants a refund', escalatedAt: NOW.toISOString() });
  });

  it("another user's conversation cannot be read, changed, escalated or deleted", async () => {
    const { service, conversations } = setup();
    const conv = conversations.seed(OTHER, conversation());

    await expect(service.get(USER, conv.id)).rejects.toMatchObject({ status: 404 });
    await expect(service.update(USER, conv.id, { status: 'closed' })).rejects.toMatchObject({ status: 404 });
    await expect(service.escalate(USER, conv.id, 'x')).rejects.toMatchObject({ status: 404 });
    await expect(service.remove(USER, conv.id)).rejects.toMatchObject({ status: 404 });
    expect((await conversations.get(OTHER, conv.id))?.status).toBe('active');
  });
});

describe('views', () => {
  it('get: the conversation (contact from the customer) and its messages oldest first, body also as content', async () => {
    const { service, conversations, messages } = setup();
    const conv = conversations.seed(USER, conversation({ contactId: '0000000001abcdef' }));
    const first = messages.seed(USER, message(conv, { body: 'Hola' }));
    const second = messages.seed(USER, message(conv, { fromMe: true, status: 'read', body: 'Buenos días', sentBy: 'agent' }));

    const detail = await service.get(USER, conv.id);

    expect(detail.conversation).toMatchObject({
      _id: conv.id,
      contact: { _id: '0000000001abcdef', name: 'Lucía', phoneNumber: '+34612345678' },
      customerWaId: '34612345678',
    });
    expect(detail.messages.map((m) => [m._id, m.body, m.content])).toEqual([
      [first.id, 'Hola', 'Hola'],
      [second.id, 'Buenos días', 'Buenos días'],
    ]);
  });

  it('overview: the three columns hold the statuses active since the filter start, archived ones are only counted', async () => {
    const { service, conversations } = setup();
    const today = conversations.seed(USER, conversation({ lastMessageAt: hoursAgo(2) }));
    conversations.seed(USER, conversation({ lastMessageAt: hoursAgo(24 * 5) }));
    const human = conversations.seed(USER, conversation({ status: 'requires_human', lastMessageAt: hoursAgo(1) }));
    const closed = conversations.seed(USER, conversation({ status: 'closed', lastMessageAt: hoursAgo(24) }));
    conversations.seed(USER, conversation({ status: 'archived', lastMessageAt: hoursAgo(1) }));

    const day = await service.overview(USER, 'today');
    const month = await service.overview(USER, 'this_month');

    expect(day.conversationsByStatus.active.map((c) => c._id)).toEqual([today.id]);
    expect(day.conversationsByStatus.requires_human.map((c) => c._id)).toEqual([human.id]);
    expect(day.conversationsByStatus.closed).toEqual([]);
    expect(month.conversationsByStatus.active).toHaveLength(2);
    expect(month.conversationsByStatus.closed.map((c) => c._id)).toEqual([closed.id]);
    expect(day.stats).toEqual({ total: 5, active: 2, requiresHuman: 1, closed: 1, archived: 1 });
  });

  it('listMessages: unknown status reads as pending, fromMe filter, pagination numbers', async () => {
    const { service, conversations, messages } = setup();
    const conv = conversations.seed(USER, conversation());
    for (let i = 0; i < 3; i++) messages.seed(USER, message(conv, { fromMe: true, status: 'pending', body: `p${i}` }));
    messages.seed(USER, message(conv, { fromMe: false, status: 'pending' }));
    messages.seed(USER, message(conv, { fromMe: true, status: 'sent' }));

    const res = await service.listMessages(USER, { page: 2, limit: 2, search: '', status: 'weird', fromMe: 'true', timeFilter: 'all' });

    expect(res.pagination).toEqual({ currentPage: 2, totalPages: 2, totalMessages: 3, limit: 2 });
    expect(res.data.map((m) => m.body)).toEqual(['p0']);
  });
});
