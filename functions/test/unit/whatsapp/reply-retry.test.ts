/**
 * The agent's reply when WhatsApp refuses its send for now (issue 34 item 2; domain/whatsapp/
 * agent-reply.ts) over memory ports: the same reply is retried on the queue's schedule (never
 * written twice by the model), kept as failed on the last try with the customer's message waiting
 * and the owner told, sent by "Answer waiting messages"; a send whose answer was lost, or a try
 * that died mid-send, is never sent again (at most once); a lasting refusal fails at once.
 */
import { describe, expect, it } from 'vitest';
import type { NoAnswerReason } from '../../../src/contract/no-answer.js';
import { whatsappMessages } from '../../../src/contract/whatsapp.js';
import type { ConversationActivity, ConversationRepository, MessageRepository, ReplyDraft, StoredConversation, StoredMessage } from '../../../src/domain/conversations/ports.js';
import { TransientError } from '../../../src/domain/retry.js';
import { createAgentReply, type AgentReplyDeps } from '../../../src/domain/whatsapp/agent-reply.js';
import { GraphError } from '../../../src/domain/whatsapp/ports.js';
import { agent, FakeEmbedder, MemoryRetriever, RecordingExecutor, ScriptedModel, settings, textReply } from '../runtime/fakes.js';
import { conversation, message } from '../conversations-service/fakes.js';

const CUSTOMER = { waId: '34612345678', phone: '+34612345678', name: 'Lucía' };
const T0 = Date.parse('2026-03-18T12:00:00.000Z');

/** `failures`: what each send throws in turn (undefined = it works). */
function setup(failures: (Error | undefined)[] = []) {
  const stored = new Map<string, StoredMessage>();
  const touches: ConversationActivity[] = [];
  const sends: { text: string; reference?: string }[] = [];
  const usage = { reserved: 0, released: 0 };
  const marked: { messageId: string; provider: string; reason: NoAnswerReason }[] = [];
  const ended: string[] = [];
  let clock = T0;
  let ids = 0;
  const note = (id: string, reply: ReplyDraft) => {
    const m = stored.get(id);
    if (m) m.reply = { ...reply };
  };
  const messages: Partial<MessageRepository> = {
    recent: async () => [],
    get: async (_u, id) => structuredClone(stored.get(id) ?? null),
    insertOutbound: async (_u, m, options) => {
      stored.set(m.id, structuredClone(m));
      if (options?.replyTo) note(options.replyTo, { id: m.id, state: 'sending' });
    },
    noteReply: async (_u, id, reply) => note(id, reply),
    markSent: async (_u, id, waMessageId) => Object.assign(stored.get(id)!, { status: 'sent', waMessageId }),
    markFailed: async (_u, id, error, detail) => Object.assign(stored.get(id)!, { status: 'failed', error, ...detail }),
    beginRetry: async (_u, id) => {
      const m = stored.get(id);
      if (m?.status !== 'failed') return null;
      delete m.error;
      delete m.errorCode;
      return Object.assign(m, { status: 'pending' as const, retryCount: (m.retryCount ?? 0) + 1 });
    },
    remove: async (_u, id) => stored.delete(id),
  };
  const conversations: Partial<ConversationRepository> = {
    get: async () => null,
    touch: async (_u, _id, activity) => (touches.push(activity), null),
  };
  const model = new ScriptedModel([textReply('We open at 9')]);
  const sonia = agent({ _id: 'a1', name: 'Sonia' });
  const deps: AgentReplyDeps = {
    conversations: conversations as ConversationRepository,
    messages: messages as MessageRepository,
    agents: { get: async () => sonia, list: async () => [sonia] },
    ai: { forUser: async () => ({ settings: settings(), chat: model, embedder: new FakeEmbedder() }) },
    retriever: new MemoryRetriever(),
    tools: new RecordingExecutor(),
    usage: { reserve: async () => ++usage.reserved, release: async () => void usage.released++ },
    graph: {
      sendText: async (_c, _to, text, options) => {
        sends.push({ text, ...(options?.reference ? { reference: options.reference } : {}) });
        const failure = failures.shift();
        if (failure) throw failure;
        return { messageId: `wamid.${sends.length}` };
      },
      getPhoneNumber: async () => ({ id: '1055', displayPhoneNumber: '+1 555-0100', verifiedName: 'Test' }),
    },
    connection: async () => ({ credentials: { bearerToken: 't', businessId: 'b', phoneId: '1055' }, phoneNumber: '+15550100' }),
    noAnswer: {
      unanswered: async (_u, m, provider, reason) => void marked.push({ messageId: m.id, provider, reason }),
      answered: async (userId, provider) => void ended.push(`${userId} ${provider}`),
    },
    newId: () => `ID${String(++ids).padStart(24, '0')}`,
    now: () => clock,
  };
  const conv: StoredConversation = conversation();
  const asked = message(conv, { body: 'When do you open?' });
  stored.set(asked.id, structuredClone(asked));
  return {
    replies: createAgentReply(deps),
    conv,
    /** The customer's message as a later try reads it (with its reply note). */
    asked: () => structuredClone(stored.get(asked.id)!),
    replyOf: () => [...stored.values()].filter((m) => m.fromMe),
    stored,
    touches,
    sends,
    usage,
    marked,
    ended,
    model,
    later: (ms: number) => (clock += ms),
  };
}

const down = () => new GraphError('unavailable', 'Something went wrong', 131000);
const lost = () => new GraphError('unavailable', 'WhatsApp did not answer in time', undefined, { deliveryUnknown: true });

describe('a reply WhatsApp refuses for now', () => {
  it('is retried by the queue with the same text: the model is asked once, the customer gets one reply', async () => {
    const s = setup([down(), new GraphError('rate_limit', 'Rate limit hit', 130429, { retryAfterSeconds: 20 })]);

    const first = await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER).catch((e: unknown) => e);
    // Nothing visible changed: the reply waits as pending, the conversation untouched, the plan's message given back.
    expect(first).toBeInstanceOf(TransientError);
    expect(first).toMatchObject({ provider: 'whatsapp', code: 'unavailable' });
    expect(s.replyOf()).toMatchObject([{ status: 'pending', body: 'We open at 9' }]);
    expect(s.asked().reply).toEqual({ id: s.replyOf()[0]!.id, state: 'retry' });
    expect(s.touches).toEqual([]);

    const second = await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER).catch((e: unknown) => e);
    // A throttled send keeps Meta's Retry-After for the queue.
    expect(second).toMatchObject({ provider: 'whatsapp', code: 'rate_limited', retryAfterSeconds: 20 });

    expect(await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER)).toBe('replied');
    expect(s.model.requests).toHaveLength(1);
    const reply = s.replyOf();
    expect(reply).toMatchObject([{ status: 'sent', waMessageId: 'wamid.3', body: 'We open at 9' }]);
    // Each try sent the same stored reply, named by its id (Meta's biz_opaque_callback_data).
    expect(s.sends).toEqual(Array.from({ length: 3 }, () => ({ text: 'We open at 9', reference: reply[0]!.id })));
    expect(s.touches).toEqual([expect.objectContaining({ messageCountDelta: 1, lastAgent: expect.objectContaining({ _id: 'a1' }) })]);
    expect(s.usage).toEqual({ reserved: 3, released: 2 });
    expect(s.marked).toEqual([]);
  });

  it('on the last try: failed with our reason and Meta’s code, the message waits, the owner told; "Answer waiting messages" sends that reply', async () => {
    const s = setup([down(), down()]);
    await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER).catch(() => undefined);

    expect(await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER, { finalAttempt: true })).toBe('waiting');
    expect(s.replyOf()).toMatchObject([{ status: 'failed', error: whatsappMessages.replyNotSentUnavailable, errorCode: '131000' }]);
    expect(s.marked).toEqual([{ messageId: s.asked().id, provider: 'whatsapp', reason: 'whatsapp_unavailable' }]);
    expect(s.touches).toHaveLength(1);
    expect(s.usage.reserved - s.usage.released).toBe(0);

    // WhatsApp is back: the answer action sends the reply that was written, once.
    expect(await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER, { waiting: true })).toBe('replied');
    expect(s.replyOf()).toMatchObject([{ status: 'sent', retryCount: 1, body: 'We open at 9' }]);
    expect(s.model.requests).toHaveLength(1);
    expect(s.sends.map((x) => x.text)).toEqual(['We open at 9', 'We open at 9', 'We open at 9']);
    // Counted on the conversation once (when it failed); the outage is over.
    expect(s.touches.map((t) => t.messageCountDelta)).toEqual([1, 0]);
    expect(s.ended).toContain('u1 whatsapp');
    // Again (a second job of the action): nothing more is sent.
    expect(await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER, { waiting: true })).toBe('replied');
    expect(s.sends).toHaveLength(3);
  });

  it('written before a person answered: not sent as it is; the AI stays quiet while they answer', async () => {
    const s = setup([down()]);
    await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER).catch(() => undefined);
    s.later(60_000);
    const human = new Date(T0 + 30_000).toISOString();

    const outcome = await s.replies.answer('u1', { ...s.conv, aiPaused: true, humanAt: human }, s.asked(), CUSTOMER);

    expect(outcome).toBe('human_answering');
    expect(s.replyOf()).toEqual([]);
    expect(s.sends).toHaveLength(1);
  });
});

describe('never twice (at most once)', () => {
  it('a send whose answer was lost is stored as not confirmed and not retried', async () => {
    const s = setup([lost()]);

    expect(await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER)).toBe('send_failed');
    expect(s.replyOf()).toMatchObject([{ status: 'failed', error: whatsappMessages.deliveryUnknown }]);
    expect(s.sends).toHaveLength(1);
    // Meta most likely has it: the plan's message stays counted.
    expect(s.usage).toEqual({ reserved: 1, released: 0 });
    expect(s.marked).toEqual([]);
  });

  it('a try that died mid-send leaves the reply "sending": the next try does not send it again', async () => {
    const s = setup();
    // What the dead try left: the reply stored pending and noted as being sent.
    const reply = message(s.conv, { fromMe: true, status: 'pending', waMessageId: '', body: 'We open at 9', agent: { _id: 'a1', name: 'Sonia' }, createdAt: new Date(T0).toISOString() });
    s.stored.set(reply.id, reply);
    s.stored.get(s.asked().id)!.reply = { id: reply.id, state: 'sending' };

    expect(await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER)).toBe('send_failed');
    expect(s.sends).toEqual([]);
    expect(s.model.requests).toEqual([]);
    expect(s.stored.get(reply.id)).toMatchObject({ status: 'failed', error: whatsappMessages.deliveryUnknown });
  });

  it('a reply already sent by an earlier try is not sent again', async () => {
    const s = setup();
    await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER);

    expect(await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER)).toBe('replied');
    expect(s.sends).toHaveLength(1);
    expect(s.model.requests).toHaveLength(1);
  });
});

describe('a lasting refusal', () => {
  it('131047 fails at once with Meta’s reason and code: no retry, no marker', async () => {
    const s = setup([new GraphError('bad_request', '(#131047) Re-engagement message', 131047)]);

    expect(await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER)).toBe('send_failed');
    expect(s.replyOf()).toMatchObject([{ status: 'failed', error: '(#131047) Re-engagement message', errorCode: '131047' }]);
    expect(s.usage).toEqual({ reserved: 1, released: 1 });
    expect(s.marked).toEqual([]);
    expect(await s.replies.answer('u1', s.conv, s.asked(), CUSTOMER)).toBe('send_failed');
    expect(s.sends).toHaveLength(1);
  });
});
