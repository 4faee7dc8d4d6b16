/**
 * The agent's answer to an inbound WhatsApp message (domain/whatsapp/agent-reply.ts) over memory
 * ports: when a reply is due, what is sent and stored, the plan's message, and failures.
 */
import { describe, expect, it } from 'vitest';
import { whatsappMessages } from '../../../src/contract/whatsapp.js';
import type { AgentWithChildren } from '../../../src/domain/agents/ports.js';
import { ModelError } from '../../../src/domain/ai/ports.js';
import type { ConversationActivity, ConversationRepository, MessageRepository, StoredConversation, StoredMessage } from '../../../src/domain/conversations/ports.js';
import { LimitExceededError } from '../../../src/domain/errors.js';
import { agentTextOf, createAgentReply, historyTurns, type AgentReplyDeps } from '../../../src/domain/whatsapp/agent-reply.js';
import type { NoAnswerReason } from '../../../src/contract/no-answer.js';
import { LastingError, TransientError } from '../../../src/domain/retry.js';
import { GraphError, type GraphClient } from '../../../src/domain/whatsapp/ports.js';
import { agent, FakeEmbedder, MemoryRetriever, RecordingExecutor, ScriptedModel, settings, textReply } from '../runtime/fakes.js';
import { conversation, message } from '../conversations-service/fakes.js';

const CUSTOMER = { waId: '34612345678', phone: '+34612345678', name: 'Lucía' };

function setup(over: { agents?: AgentWithChildren[]; model?: ScriptedModel | null; connected?: boolean; send?: GraphClient['sendText']; limit?: number } = {}) {
  const stored: StoredMessage[] = [];
  const touches: ConversationActivity[] = [];
  const escalations: string[] = [];
  const sends: { to: string; text: string }[] = [];
  const usage = { used: 0, released: 0 };
  let ids = 0;
  const messages: Partial<MessageRepository> = {
    recent: async () => [],
    insertOutbound: async (_u, m) => void stored.push(structuredClone(m)),
    markSent: async (_u, id, waMessageId) => Object.assign(stored.find((m) => m.id === id)!, { status: 'sent', waMessageId }),
    markFailed: async (_u, id, error) => Object.assign(stored.find((m) => m.id === id)!, { status: 'failed', error }),
  };
  const conversations: Partial<ConversationRepository> = {
    get: async () => null,
    touch: async (_u, _id, activity) => (touches.push(activity), null),
    escalate: async (_u, _id, reason) => (escalations.push(reason), null),
  };
  const model = over.model === undefined ? new ScriptedModel([textReply('We open at 9')]) : over.model;
  const deps: AgentReplyDeps = {
    conversations: conversations as ConversationRepository,
    messages: messages as MessageRepository,
    agents: { get: async () => null, list: async () => over.agents ?? [agent({ _id: 'a1', name: 'Sonia' })] },
    ai: { forUser: async () => (model ? { settings: settings(), chat: model, embedder: new FakeEmbedder() } : null) },
    retriever: new MemoryRetriever(),
    tools: new RecordingExecutor(),
    usage: {
      reserve: async () => {
        if (usage.used >= (over.limit ?? Infinity)) throw new LimitExceededError('Monthly message limit reached');
        return ++usage.used;
      },
      release: async () => void usage.released++,
    },
    graph: {
      sendText: over.send ?? (async (_c, to, text) => (sends.push({ to, text }), { messageId: 'wamid.reply' })),
      getPhoneNumber: async () => ({ id: '1055', displayPhoneNumber: '+1 555-0100', verifiedName: 'Test' }),
    },
    connection: async () => (over.connected === false ? null : { credentials: { bearerToken: 't', businessId: 'b', phoneId: '1055' }, phoneNumber: '+15550100' }),
    newId: () => `ID${String(++ids).padStart(24, '0')}`,
    now: () => Date.parse('2026-03-18T12:00:00.000Z'),
  };
  return { replies: createAgentReply(deps), deps, stored, touches, escalations, sends, usage };
}

const active = (): StoredConversation => conversation();

describe('agentTextOf', () => {
  it('agentTextOf: what the agent reads for text, captioned and bare media', () => {
    expect(agentTextOf({ type: 'chat', body: 'hello' })).toBe('hello');
    expect(agentTextOf({ type: 'image', body: 'the part' })).toBe('[image] the part');
    expect(agentTextOf({ type: 'ptt', body: '' })).toBe('[The customer sent a voice message]');
    expect(agentTextOf({ type: 'document', body: '', media: { filename: 'a.pdf' } })).toBe('[The customer sent a document: a.pdf]');
  });
});

describe('historyTurns', () => {
  it('leaves out the message being answered and our failed sends, keeps the newest turns', () => {
    const conv = active();
    const asked = message(conv, { body: 'Do you open on Saturday?' });
    const history = [
      message(conv, { body: 'Hi' }),
      message(conv, { fromMe: true, body: 'Hello!' }),
      message(conv, { fromMe: true, body: 'lost', status: 'failed' }),
      message(conv, { type: 'image', body: '' }),
      asked,
    ];

    expect(historyTurns(history, asked, 2)).toEqual([
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: '[The customer sent a image]' },
    ]);
  });
});

describe('agent reply', () => {
  it('a message Meta stamped more than 24 hours ago (a late redelivery, issue 29): no free-form reply Meta would refuse, no model call, no plan message', async () => {
    const now = Date.parse('2026-03-18T12:00:00.000Z');
    const hoursAgo = (h: number) => new Date(now - h * 3600 * 1000).toISOString();
    const late = setup();
    const conv = { ...active(), lastInboundAt: hoursAgo(30) };
    const old = message(conv, { timestamp: hoursAgo(30), createdAt: new Date(now).toISOString() });
    expect(await late.replies.answer('u1', conv, old, CUSTOMER)).toBe('window_closed');
    expect([late.usage, late.sends, late.stored]).toEqual([{ used: 0, released: 0 }, [], []]);

    // A newer message of the customer keeps the window open; a stamp in the future counts as now.
    const newer = setup();
    expect(await newer.replies.answer('u1', { ...conv, lastInboundAt: hoursAgo(2) }, old, CUSTOMER)).toBe('replied');
    const skewed = setup();
    expect(await skewed.replies.answer('u1', conv, message(conv, { timestamp: new Date(now + 5 * 3600 * 1000).toISOString() }), CUSTOMER)).toBe('replied');
  });

  it('a person took over (issue 17): no reply, no plan message, until the idle hours pass; then the AI takes it back and answers', async () => {
    const now = Date.parse('2026-03-18T12:00:00.000Z');
    const hoursAgo = (h: number) => new Date(now - h * 3600 * 1000).toISOString();
    const paused = setup();
    const updates: unknown[] = [];
    const conv = { ...active(), humanAt: hoursAgo(11), aiPaused: true };
    const escalated = { ...active(), status: 'requires_human' as const, escalatedAt: hoursAgo(13), humanAt: hoursAgo(13), aiPaused: true };

    expect(await paused.replies.answer('u1', conv, message(conv), CUSTOMER)).toBe('human_answering');
    expect(paused.usage).toEqual({ used: 0, released: 0 });
    expect(paused.sends).toEqual([]);
    expect(paused.stored).toEqual([]);

    const resumed = setup();
    const replies = createAgentReply({
      ...resumed.deps,
      conversations: { ...resumed.deps.conversations, update: async (_u, id, patch, _now, expected) => (updates.push({ id, patch, expected }), null) },
    });
    expect(await replies.answer('u1', escalated, message(escalated), CUSTOMER)).toBe('replied');
    expect(updates).toEqual([{ id: escalated.id, patch: { aiPaused: false, status: 'active' }, expected: 'requires_human' }]);
    expect(resumed.sends).toHaveLength(1);

    // The user's idle hours decide (here 24: 13 hours ago is still a person's).
    const longer = setup();
    const patient = createAgentReply({ ...longer.deps, inboxSettings: { get: async () => ({ aiResumeAfterHours: 24, alertByEmail: true, alertWhatsappNumber: '' }) } });
    expect(await patient.answer('u1', escalated, message(escalated), CUSTOMER)).toBe('human_answering');
  });

  it('drops the agent’s answer when a person took the conversation over while the model was writing (no talking over them)', async () => {
    const conv = active();
    const { deps, sends, stored, usage } = setup();
    const replies = createAgentReply({
      ...deps,
      // The person's reply landed between the start of the answer and its send.
      conversations: { ...deps.conversations, get: async () => ({ ...conv, humanAt: '2026-03-18T12:00:01.000Z', aiPaused: true }) },
    });

    expect(await replies.answer('u1', conv, message(conv), CUSTOMER)).toBe('human_answering');
    expect(sends).toEqual([]);
    expect(stored).toEqual([]);
    expect(usage).toEqual({ used: 1, released: 1 });
  });

  it('answers through the Graph API and stores the reply as sent, with the agent on the conversation', async () => {
    const { replies, stored, touches, sends, usage } = setup();
    const conv = active();

    const outcome = await replies.answer('u1', conv, message(conv, { body: 'When do you open?' }), CUSTOMER);

    expect(outcome).toBe('replied');
    expect(sends).toEqual([{ to: '34612345678', text: 'We open at 9' }]);
    expect(stored).toMatchObject([{ status: 'sent', waMessageId: 'wamid.reply', from: '+15550100', to: '+34612345678', sentBy: 'agent', agent: { _id: 'a1', name: 'Sonia' } }]);
    expect(touches.at(-1)).toMatchObject({ lastAgent: { _id: 'a1' }, messageCountDelta: 1, lastMessage: { body: 'We open at 9', fromMe: true } });
    expect(usage).toEqual({ used: 1, released: 0 });
  });

  it('stays silent outside an active conversation, without an agent or a connection (the reserved message given back)', async () => {
    const conv = active();
    const inbound = message(conv);
    const closed = setup();
    const noAgent = setup({ agents: [agent({ enabled: false })] });
    const noModel = setup({ model: null });
    const noWhatsApp = setup({ connected: false });

    expect(await closed.replies.answer('u1', { ...conv, status: 'requires_human' }, inbound, CUSTOMER)).toBe('not_active');
    expect(await noAgent.replies.answer('u1', conv, inbound, CUSTOMER)).toBe('no_agent');
    expect(await noModel.replies.answer('u1', conv, inbound, CUSTOMER)).toBe('no_agent');
    expect(await noWhatsApp.replies.answer('u1', conv, inbound, CUSTOMER)).toBe('not_connected');
    expect(closed.usage.used).toBe(0);
    for (const s of [noAgent, noModel, noWhatsApp]) {
      expect(s.usage).toEqual({ used: 1, released: 1 });
      expect(s.sends).toEqual([]);
    }
  });

  it('a reached plan limit is stored as a failed reply, nothing is sent', async () => {
    const { replies, stored, sends } = setup({ limit: 0 });
    const conv = active();

    expect(await replies.answer('u1', conv, message(conv), CUSTOMER)).toBe('limit');
    expect(stored).toMatchObject([{ status: 'failed', error: whatsappMessages.usageLimitReached, body: '' }]);
    expect(sends).toEqual([]);
  });

  it('a refused send leaves the reply failed with Meta’s text and gives the message back', async () => {
    const { replies, stored, usage } = setup({
      send: async () => {
        throw new GraphError('bad_request', 'Recipient phone number not in allowed list', 131030);
      },
    });
    const conv = active();

    expect(await replies.answer('u1', conv, message(conv), CUSTOMER)).toBe('send_failed');
    expect(stored).toMatchObject([{ status: 'failed', error: 'Recipient phone number not in allowed list' }]);
    expect(usage).toEqual({ used: 1, released: 1 });
  });

  it('a busy or unreachable model is retried through the queue with its Retry-After; never a processed reply (issue 34)', async () => {
    const conv = active();
    const busy = setup({ model: new ScriptedModel([new ModelError('rate_limit', 'slow down', 20)]) });
    const down = setup({ model: new ScriptedModel([new ModelError('unavailable', 'Provider error (500)')]) });
    const noAnswer = recordingNoAnswer();

    const thrown = await busy.replies.answer('u1', conv, message(conv), CUSTOMER).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TransientError);
    expect(thrown).toMatchObject({ provider: 'openai', code: 'rate_limited', retryAfterSeconds: 20 });
    await expect(createAgentReply({ ...down.deps, noAnswer }).answer('u1', conv, message(conv), CUSTOMER)).rejects.toBeInstanceOf(TransientError);
    expect(noAnswer.marked).toEqual([]);
    expect([busy.usage, down.usage]).toEqual([
      { used: 1, released: 1 },
      { used: 1, released: 1 },
    ]);
    expect([...busy.sends, ...busy.stored, ...down.sends, ...down.stored]).toEqual([]);
  });

  it('on the last try the message waits with the marker instead (the owner told by noAnswer); a lasting failure waits at once, with its reason', async () => {
    const conv = active();
    const down = setup({ model: new ScriptedModel([new ModelError('timeout', 'slow')]) });
    const refused = setup({ model: new ScriptedModel([new ModelError('auth', 'API key rejected (401)')]) });
    const noAnswer = recordingNoAnswer();
    const asked = message(conv, { body: 'Do you open on Saturday?' });

    expect(await createAgentReply({ ...down.deps, noAnswer }).answer('u1', conv, asked, CUSTOMER, { finalAttempt: true })).toBe('waiting');
    expect(await createAgentReply({ ...refused.deps, noAnswer }).answer('u1', conv, asked, CUSTOMER)).toBe('waiting');
    expect(noAnswer.marked).toEqual([
      { userId: 'u1', messageId: asked.id, provider: 'openai', reason: 'unavailable' },
      { userId: 'u1', messageId: asked.id, provider: 'openai', reason: 'credentials' },
    ]);
    expect(noAnswer.ended).toEqual([]);
    expect([...down.sends, ...down.stored, ...refused.sends, ...refused.stored]).toEqual([]);
    expect(refused.usage).toEqual({ used: 1, released: 1 });
    // Without the waiting store the failure is thrown, never swallowed: the job retries, then dead-letters.
    await expect(refused.replies.answer('u1', conv, asked, CUSTOMER)).rejects.toBeInstanceOf(LastingError);
  });

  it('an answer ends the account’s model incident; a waiting message is answered with what came before it', async () => {
    const conv = active();
    const model = new ScriptedModel([textReply('Yes, from 10')]);
    const ok = setup({ model });
    const noAnswer = recordingNoAnswer();
    const before = message(conv, { id: `${conv.id}-01J00000000000000000000001`, body: 'Hello' });
    const asked = message(conv, { id: `${conv.id}-01J00000000000000000000002`, body: 'Saturday?' });
    const later = message(conv, { id: `${conv.id}-01J00000000000000000000003`, body: 'Answered since' });
    const replies = createAgentReply({ ...ok.deps, noAnswer, messages: { ...ok.deps.messages, recent: async () => [before, asked, later] } });

    expect(await replies.answer('u1', conv, asked, CUSTOMER, { waiting: true })).toBe('replied');
    // The model answered, and WhatsApp took the reply: both providers' incidents (if any) are over.
    expect(noAnswer.ended).toEqual(['u1 openai', 'u1 whatsapp']);
    expect(model.requests[0]!.messages.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual(['Hello', 'Saturday?']);
  });
});

function recordingNoAnswer() {
  const marked: { userId: string; messageId: string; provider: string; reason: NoAnswerReason }[] = [];
  const ended: string[] = [];
  return {
    marked,
    ended,
    unanswered: async (userId: string, m: StoredMessage, provider: string, reason: NoAnswerReason) => void marked.push({ userId, messageId: m.id, provider, reason }),
    answered: async (userId: string, provider: string) => void ended.push(`${userId} ${provider}`),
  };
}
