/**
 * DynamoCallRepository on DynamoDB Local (the stack's table): the guarantees the call loop and the
 * summary worker build on — one call per CallSid, one writer per turn, the first final status wins —
 * and the call-log page (newest first, totals, digit search, no transcript).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_STORED_TURNS, DynamoCallRepository } from '../../src/adapters/dynamo/voice-calls.js';
import { VOICE_DEFAULTS, type CallTurn } from '../../src/contract/voice.js';
import type { StoredCall } from '../../src/domain/voice/ports.js';
import { newId } from '../../src/lib/ids.js';
import { tableName } from '../support/api.js';
import { testDocumentClient } from '../support/stack-clients.js';

const repo = () => new DynamoCallRepository(testDocumentClient(), tableName());

function call(userId: string, over: Partial<StoredCall> = {}): StoredCall {
  const createdAt = new Date().toISOString();
  return {
    id: newId(),
    userId,
    callSid: `CA${randomUUID().replace(/-/g, '')}`,
    status: 'active',
    phoneNumber: '+34600111222',
    internalNumber: '+34911000000',
    contact: null,
    duration: 0,
    createdAt,
    endedAt: null,
    voiceSettings: { name: 'Agent', description: '', language: 'es-ES' },
    messages: [],
    summary: null,
    summaryStatus: 'pending',
    deliveries: [],
    agent: null,
    escalated: false,
    settings: { ...VOICE_DEFAULTS },
    silences: 0,
    endedByUs: false,
    recording: null,
    billedMinutes: 0,
    conversationMode: 'gather',
    latency: null,
    ...over,
  };
}

const turn = (role: CallTurn['role'], content: string): CallTurn => ({ role, content, at: new Date().toISOString(), confidence: role === 'user' ? 0.9 : null });

describe('DynamoCallRepository', () => {
  it('stores every call when several ring at once for one user', async () => {
    const userId = randomUUID();
    const calls = Array.from({ length: 8 }, () => call(userId));

    const results = await Promise.all(calls.map((c) => repo().create(c)));

    expect(results.every((r) => r.created)).toBe(true);
    const page = await repo().page(userId, { page: 1, limit: 20, search: '' });
    expect(page.total).toBe(8);
    expect(page.items.map((c) => c.id).sort()).toEqual(calls.map((c) => c.id).sort());
  });

  it('creates one call per CallSid: a retried create answers the stored call', async () => {
    const userId = randomUUID();
    const first = call(userId);
    const created = await repo().create(first);
    expect(created.created).toBe(true);

    const retry = await repo().create(call(userId, { callSid: first.callSid }));

    expect(retry.created).toBe(false);
    expect(retry.call.id).toBe(first.id);
    expect((await repo().getBySid(userId, first.callSid))?.id).toBe(first.id);
    expect(await repo().getBySid(randomUUID(), first.callSid)).toBeNull();
    expect((await repo().page(userId, { page: 1, limit: 20, search: '' })).total).toBe(1);
  });

  it('appends turns once per expected count (a retried gather gets false) and keeps silences', async () => {
    const userId = randomUUID();
    const c = call(userId);
    await repo().create(c);

    expect(await repo().appendTurns(userId, c.id, 0, [turn('user', 'hola'), turn('agent', '¿qué tal?')], 0)).toBe(true);
    expect(await repo().appendTurns(userId, c.id, 0, [turn('user', 'hola'), turn('agent', '¿qué tal?')], 0)).toBe(false);
    expect(await repo().setSilences(userId, c.id, 0, 1)).toBe(true);
    expect(await repo().setSilences(userId, c.id, 0, 1)).toBe(false);
    expect(await repo().appendTurns(userId, c.id, 2, [turn('user', 'adiós')], 0)).toBe(true);

    const stored = await repo().get(userId, c.id);
    expect(stored?.messages.map((m) => m.content)).toEqual(['hola', '¿qué tal?', 'adiós']);
    expect(stored?.messages[0]?.confidence).toBe(0.9);
    expect(stored?.silences).toBe(0);
    expect(await repo().appendTurns(userId, newId(), 0, [turn('user', 'x')], 0)).toBe(false);
  });

  it(`stores at most ${MAX_STORED_TURNS} turns but keeps counting`, async () => {
    const userId = randomUUID();
    const c = call(userId);
    await repo().create(c);
    const many = Array.from({ length: MAX_STORED_TURNS - 1 }, (_, i) => turn('user', `t${i}`));
    expect(await repo().appendTurns(userId, c.id, 0, many, 0)).toBe(true);
    expect(await repo().appendTurns(userId, c.id, MAX_STORED_TURNS - 1, [turn('user', 'last'), turn('agent', 'dropped')], 0)).toBe(true);
    expect(await repo().appendTurns(userId, c.id, MAX_STORED_TURNS + 1, [turn('user', 'dropped too')], 0)).toBe(true);
    expect((await repo().get(userId, c.id))?.messages).toHaveLength(MAX_STORED_TURNS);
    expect((await repo().page(userId, { page: 1, limit: 1, search: '' })).messageCounts).toEqual([MAX_STORED_TURNS + 2]);
  });

  it('claims a streamed turn only on a live call: after our goodbye or the final status nothing is appended', async () => {
    const userId = randomUUID();
    const claim = (c: StoredCall, key: string) =>
      repo().claimRelayTurn(userId, c.id, { turns: [turn('user', 'hola'), turn('agent', '')], dedupKey: key, now: Date.now(), windowMs: 2000, connectionId: 'conn=' });
    const setUp = async (c: StoredCall) => expect(await repo().bindRelaySetup(userId, c.id, { callSid: c.callSid, connectionId: 'conn=', at: Date.now() - 10 })).toBe(true);
    const live = call(userId, { conversationMode: 'streaming' });
    await repo().create(live);
    await setUp(live);
    expect(await claim(live, 'p:a')).toEqual({ slot: 1, previousLanguage: null, before: [] });
    expect(await claim(live, 'p:a')).toEqual({ repeated: { slot: 1, at: expect.any(Number) } });

    const ended = call(userId, { conversationMode: 'streaming' });
    await repo().create(ended);
    await setUp(ended);
    await repo().markEndedByUs(userId, ended.id, 'goodbye');
    expect(await claim(ended, 'p:b')).toEqual({ refused: 'ended' });
    const finished = call(userId, { conversationMode: 'streaming' });
    await repo().create(finished);
    await setUp(finished);
    await repo().finish(userId, finished.id, { status: 'hung_up', endedAt: new Date().toISOString(), duration: 1000, endReason: 'caller', billedMinutes: 1 });
    expect(await claim(finished, 'p:c')).toEqual({ refused: 'ended' });

    expect((await repo().get(userId, ended.id))?.messages).toEqual([]);
    expect((await repo().get(userId, finished.id))?.messages).toEqual([]);
    expect(await claim({ ...live, id: newId() }, 'p:d')).toEqual({ refused: 'missing' });
  });

  it('takes streamed turns in order: only after this connection’s setup, never a frame older than one taken, the same words again only as a repeat of an answered prompt (issue 28)', async () => {
    const userId = randomUUID();
    const c = call(userId, { conversationMode: 'streaming' });
    await repo().create(c);
    const t0 = Date.now();
    const claim = (key: string, now: number, extra: { connectionId?: string; repeatOf?: number; language?: string } = {}) =>
      repo().claimRelayTurn(userId, c.id, { turns: [turn('user', key), turn('agent', '')], dedupKey: key, now, windowMs: 2000, connectionId: 'conn=', ...extra });

    expect(await claim('p:early', t0)).toEqual({ refused: 'no-setup' });
    expect(await repo().bindRelaySetup(userId, c.id, { callSid: 'CAanother', connectionId: 'conn=', at: t0 + 10 })).toBe(false);
    expect(await repo().bindRelaySetup(userId, c.id, { callSid: c.callSid, connectionId: 'conn=', at: t0 + 10 })).toBe(true);
    // Before the setup, or on another connection: nothing.
    expect(await claim('p:early', t0)).toEqual({ refused: 'no-setup' });
    expect(await claim('p:other', t0 + 20, { connectionId: 'other=' })).toEqual({ refused: 'no-setup' });

    expect(await claim('p:si', t0 + 100, { language: 'en-US' })).toEqual({ slot: 1, previousLanguage: null, before: [] });
    // An older frame handled late, the same frame again: refused.
    expect(await claim('p:older', t0 + 50)).toEqual({ refused: 'stale' });
    expect(await claim('p:si', t0 + 101)).toEqual({ repeated: { slot: 1, at: t0 + 100 } });
    // The same words said again once that answer is over.
    expect(await claim('p:si', t0 + 900, { repeatOf: t0 + 100 })).toMatchObject({ slot: 3, previousLanguage: 'en-US' });
    expect(await claim('p:si', t0 + 901, { repeatOf: t0 + 100 })).toEqual({ repeated: { slot: 3, at: t0 + 900 } });
    // The transcript the claim found is the turn's history: every earlier turn, answered or not yet.
    const next = await claim('p:next', t0 + 950);
    expect(next).toMatchObject({ slot: 5, previousLanguage: 'en-US' });
    expect('before' in next && next.before.map((m) => [m.role, m.content])).toEqual([['user', 'p:si'], ['agent', ''], ['user', 'p:si'], ['agent', '']]);

    const stored = await repo().get(userId, c.id);
    expect(stored!.messages.map((m) => m.content)).toEqual(['p:si', '', 'p:si', '', 'p:next', '']);
    expect(stored!.relayLanguage).toBe('en-US');
    expect(stored).not.toHaveProperty('relayConnection');
    expect(stored).not.toHaveProperty('relayPromptSlot');
  });

  it('a claim refused because its setup had not landed, when the setup lands before the refusal is read, is tried again (not counted as a full transcript)', async () => {
    const userId = randomUUID();
    const c = call(userId, { conversationMode: 'streaming' });
    await repo().create(c);
    const t0 = Date.now();
    const db = testDocumentClient();
    let landed = false;
    // The setup frame's invocation writes between the prompt's refused claim and its read of why.
    const racing = {
      send: async (command: { constructor: { name: string }; input?: { ProjectionExpression?: string } }) => {
        if (!landed && command.constructor.name === 'GetCommand' && command.input?.ProjectionExpression?.includes('relaySetupAt')) {
          landed = true;
          await repo().bindRelaySetup(userId, c.id, { callSid: c.callSid, connectionId: 'conn=', at: t0 });
        }
        return db.send(command as never);
      },
    } as unknown as ConstructorParameters<typeof DynamoCallRepository>[0];

    const claim = await new DynamoCallRepository(racing, tableName()).claimRelayTurn(userId, c.id, {
      turns: [turn('user', 'hola'), turn('agent', '')],
      dedupKey: 'p:hola',
      now: t0 + 5,
      windowMs: 2000,
      connectionId: 'conn=',
    });

    expect(landed).toBe(true);
    expect(claim).toEqual({ slot: 1, previousLanguage: null, before: [] });
    expect((await repo().get(userId, c.id))!.messages.map((m) => m.content)).toEqual(['hola', '']);
  });

  it('finishes once: the second final status callback gets null', async () => {
    const userId = randomUUID();
    const c = call(userId);
    await repo().create(c);
    await repo().markEndedByUs(userId, c.id, 'goodbye');
    const end = { status: 'completed' as const, endedAt: new Date().toISOString(), duration: 61_000, endReason: 'goodbye' as const, billedMinutes: 2 };

    const finished = await repo().finish(userId, c.id, end);
    const again = await repo().finish(userId, c.id, { ...end, status: 'failed', billedMinutes: 5 });

    expect(finished).toMatchObject({ status: 'completed', duration: 61_000, billedMinutes: 2, endedByUs: true, endReason: 'goodbye' });
    expect(again).toBeNull();
    expect((await repo().get(userId, c.id))?.billedMinutes).toBe(2);
  });

  it('records escalation, recording, summary, deliveries and the contact', async () => {
    const userId = randomUUID();
    const c = call(userId);
    await repo().create(c);
    await repo().markEscalated(userId, c.id, 'wants a human');
    await repo().setRecording(userId, c.id, { sid: 'RE1', url: 'https://api.twilio.com/x/RE1', durationSec: 12 });
    await repo().setSummary(userId, c.id, { summaryStatus: 'failed', summary: null, summaryError: 'bad output' });
    await repo().addDelivery(userId, c.id, { method: 'webhook', attempt: 1, at: new Date().toISOString(), ok: false, status: 500, error: 'HTTP 500' });
    await repo().addDelivery(userId, c.id, { method: 'webhook', attempt: 2, at: new Date().toISOString(), ok: true, status: 200 });
    await repo().setContact(userId, c.id, { _id: 'c1', name: 'Ana', phoneNumber: '+34600111222' });

    let stored = await repo().get(userId, c.id);
    expect(stored).toMatchObject({ escalated: true, escalationReason: 'wants a human', recording: { sid: 'RE1' }, summaryStatus: 'failed', summaryError: 'bad output', contact: { _id: 'c1' } });
    expect(stored?.deliveries.map((d) => d.attempt)).toEqual([1, 2]);

    await repo().setSummary(userId, c.id, { summaryStatus: 'skipped', summary: null });
    stored = await repo().get(userId, c.id);
    expect(stored?.summaryStatus).toBe('skipped');
    expect(stored?.summaryError).toBeUndefined();
  });

  it('pages newest first without transcripts, with totals, and searches digits of either number', async () => {
    const userId = randomUUID();
    const calls = [
      call(userId, { phoneNumber: '+34600000001' }),
      call(userId, { phoneNumber: '+14155550123' }),
      call(userId, { phoneNumber: '+34600000003', internalNumber: '+34922555000' }),
    ];
    for (const c of calls) {
      await repo().create(c);
      await repo().appendTurns(userId, c.id, 0, [turn('user', 'hi')], 0);
      await new Promise((r) => setTimeout(r, 2));
    }

    const p1 = await repo().page(userId, { page: 1, limit: 2, search: '' });
    const p2 = await repo().page(userId, { page: 2, limit: 2, search: '' });

    expect(p1.total).toBe(3);
    expect(p1.items.map((c) => c.id)).toEqual([calls[2]!.id, calls[1]!.id]);
    expect(p1.items.every((c) => c.messages.length === 0)).toBe(true);
    expect(p1.messageCounts).toEqual([1, 1]);
    expect(p2.items.map((c) => c.id)).toEqual([calls[0]!.id]);
    expect((await repo().page(userId, { page: 3, limit: 2, search: '' })).items).toEqual([]);

    const byCaller = await repo().page(userId, { page: 1, limit: 20, search: '(415) 555' });
    expect(byCaller.items.map((c) => c.id)).toEqual([calls[1]!.id]);
    expect(byCaller.total).toBe(1);
    const byBusiness = await repo().page(userId, { page: 1, limit: 20, search: '922 555' });
    expect(byBusiness.items.map((c) => c.id)).toEqual([calls[2]!.id]);
    expect((await repo().page(userId, { page: 1, limit: 20, search: '34600' })).total).toBe(2);
    expect((await repo().page(randomUUID(), { page: 1, limit: 20, search: '' })).total).toBe(0);
  });
});
