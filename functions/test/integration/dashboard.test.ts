/**
 * GET /api/dashboard and /api/dashboard/voice-trends on the local stack (issue 8).
 *
 * - Figures: calls, messages, conversations, escalations and contacts recorded through the real
 *   counter adapter (DynamoActivityCounters; a call's start as the create transaction ADDs it)
 *   at instants around day boundaries, then read through
 *   the gateway in UTC and in non-UTC zones (profile timeZone), for both ranges; the expected
 *   figures are computed here from the seeded events.
 * - Wiring: a real call played through the fake Twilio and a contact created through the API
 *   move the figures; streamed calls finished by the real (signed) status callback move the
 *   median turn latency (issue 16), once per call, and a <Gather> call does not.
 * - Bounded reads: the number of DynamoDB requests of one dashboard read is the same with 100
 *   and 10,000 seeded calls (counted with a client middleware around the real reader).
 */
import { randomUUID } from 'node:crypto';
import twilio from 'twilio';
import { describe, expect, inject, it } from 'vitest';
import { DynamoActivityCounters } from '../../src/adapters/dynamo/activity.js';
import { DynamoDashboardReader } from '../../src/adapters/dynamo/dashboard.js';
import type { User } from '../../src/contract/auth.js';
import type { DashboardData, VoiceTrends } from '../../src/contract/dashboard.js';
import { VOICE_DEFAULTS, type CallTurn, type ConversationMode, type TwilioSetupResult } from '../../src/contract/voice.js';
import { createDashboardService } from '../../src/domain/dashboard/service.js';
import { latencyBucket } from '../../src/domain/dashboard/turn-latency.js';
import { newCallSid, simulateCall } from '../../local/fake-twilio/call-simulator.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, get, provided, registerUser, tableName } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { agentTurn, callRepo, callerNumber, seedCall, userTurn } from '../support/seed-calls.js';
import { testDocumentClientAt, type TestDocumentClient } from '../support/document-clients.js';
import { localCredentials, testDocumentClient } from '../support/stack-clients.js';
import { seedCallHistory } from '../support/seed-activity.js';
import { randomDigits } from '../support/whatsapp.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const counters = () => new DynamoActivityCounters(testDocumentClient(), tableName());

/** yyyy-mm-dd of an instant in a zone (the test's own computation of the expected day). */
const dayIn = (ms: number, tz: string) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
const lastDays = (today: string, n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(`${today}T00:00:00Z`) - (n - 1 - i) * DAY).toISOString().slice(0, 10));

interface SeededCall {
  at: number;
  phone: string;
  completed: boolean;
  seconds: number;
  turns: number;
}
interface SeededEvent {
  at: number;
  metric: 'in' | 'out' | 'fail' | 'conv' | 'esc' | 'ct';
  n: number;
}

/** Expected figures of the seeded events in a zone and range. */
function expected(calls: SeededCall[], events: SeededEvent[], tz: string, rangeDays: number, now: number) {
  const chart = lastDays(dayIn(now, tz), 30);
  const period = new Set(chart.slice(-rangeDays));
  const inPeriod = calls.filter((c) => period.has(dayIn(c.at, tz)));
  const done = inPeriod.filter((c) => c.completed);
  const sum = (m: SeededEvent['metric']) => events.filter((e) => e.metric === m && period.has(dayIn(e.at, tz))).reduce((n, e) => n + e.n, 0);
  return {
    callsPerDay: chart.map((date) => ({ date, total: calls.filter((c) => dayIn(c.at, tz) === date).length })),
    overview: { totalCalls: inPeriod.length, completedCalls: done.length },
    durationStats: {
      avgDuration: done.length ? Math.round(done.reduce((n, c) => n + c.seconds, 0) / done.length) : 0,
      maxDuration: Math.max(0, ...inPeriod.map((c) => c.seconds)),
      totalDuration: inPeriod.reduce((n, c) => n + c.seconds, 0),
    },
    messages: { received: sum('in'), sent: sum('out'), failed: sum('fail'), totalMessages: sum('in') + sum('out') },
    conv: sum('conv'),
    esc: sum('esc'),
    ct: sum('ct'),
  };
}

async function seedActivity(userId: string, calls: SeededCall[], events: SeededEvent[]) {
  const c = counters();
  for (const call of calls) {
    const startedAt = new Date(call.at).toISOString();
    await c.add(userId, startedAt, { calls: 1 });
    await c.callFinished(userId, { startedAt, phoneNumber: call.phone, completed: call.completed, seconds: call.seconds, turns: call.turns });
  }
  for (const e of events) await c.add(userId, new Date(e.at).toISOString(), { [e.metric]: e.n });
}

describe('GET /api/dashboard: figures from the counters', () => {
  it('sums calls, durations, messages, conversations and contacts per local day across day boundaries, in UTC and other zones, for both ranges', async () => {
    // Arrange: events just before/after UTC midnights, around the 7- and 30-day edges, and one outside.
    const { session } = await registerUser();
    const userId = session.user._id;
    const now = Date.now();
    const midnight = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
    const a = callerNumber();
    const b = callerNumber();
    const calls: SeededCall[] = [
      { at: now - 5 * 60_000, phone: a, completed: true, seconds: 61, turns: 6 },
      { at: midnight - 30 * 60_000, phone: a, completed: true, seconds: 125, turns: 4 },
      { at: midnight + 30 * 60_000 - (now < midnight + 30 * 60_000 ? DAY : 0), phone: b, completed: false, seconds: 20, turns: 1 },
      { at: midnight - 6 * DAY + 2 * HOUR, phone: a, completed: true, seconds: 300, turns: 10 },
      { at: midnight - 7 * DAY + 11 * HOUR, phone: b, completed: true, seconds: 45, turns: 2 },
      { at: midnight - 7 * DAY - 3 * HOUR, phone: a, completed: false, seconds: 0, turns: 0 },
      { at: midnight - 29 * DAY + 5 * HOUR, phone: b, completed: true, seconds: 700, turns: 8 },
      { at: midnight - 30 * DAY + 20 * HOUR, phone: a, completed: true, seconds: 50, turns: 2 },
      { at: midnight - 40 * DAY, phone: a, completed: true, seconds: 999, turns: 2 },
    ];
    const events: SeededEvent[] = [
      { at: now - 60_000, metric: 'in', n: 3 },
      { at: now - 60_000, metric: 'out', n: 2 },
      { at: midnight - 90 * 60_000, metric: 'in', n: 4 },
      { at: midnight - 90 * 60_000, metric: 'fail', n: 1 },
      { at: midnight - 6 * DAY - HOUR, metric: 'out', n: 5 },
      { at: midnight - 20 * DAY, metric: 'in', n: 7 },
      { at: now - 60_000, metric: 'conv', n: 1 },
      { at: midnight - 10 * DAY + 12 * HOUR, metric: 'conv', n: 2 },
      { at: midnight - 2 * HOUR, metric: 'esc', n: 1 },
      { at: now - 60_000, metric: 'ct', n: 2 },
      { at: midnight - 8 * DAY + 23 * HOUR, metric: 'ct', n: 3 },
    ];
    await seedActivity(userId, calls, events);

    for (const tz of ['UTC', 'Asia/Tokyo', 'America/Los_Angeles']) {
      if (tz !== 'UTC') {
        const put = await api<User>('PUT', '/api/user/profile', { token: session.token, body: { name: 'Test User', language: 'en', timeZone: tz } });
        expect(put.status).toBe(200);
      }
      for (const [timeFilter, days] of [
        ['7days', 7],
        ['30days', 30],
      ] as const) {
        // Act
        const res = await get<DashboardData>(`/api/dashboard?timeFilter=${timeFilter}`, session.token);

        // Assert
        expect(res.status).toBe(200);
        const d = res.body.data!;
        const want = expected(calls, events, tz, days, Date.now());
        expect({ tz, timeFilter, ...d.voiceAnalytics.overview }).toEqual({ tz, timeFilter, ...want.overview });
        expect(d.timeZone).toBe(tz);
        expect(d.voiceAnalytics.callsPerDay).toHaveLength(30);
        expect(d.voiceAnalytics.callsPerDay).toEqual(want.callsPerDay);
        expect(d.voiceAnalytics.durationStats).toEqual(want.durationStats);
        expect(d.messageAnalytics).toMatchObject(want.messages);
        expect(d.messageAnalytics.perDay).toHaveLength(days);
        expect(d.whatsappAnalytics.newConversations).toBe(want.conv);
        expect(d.whatsappAnalytics.escalations).toBe(want.esc);
        expect(d.contactAnalytics.overview.addedInPeriod).toBe(want.ct);
      }
    }
    // All time: a has 6 calls (5 completed, 24 turns), b has 3 (2 completed, 11 turns).
    const { body } = await get<DashboardData>('/api/dashboard', session.token);
    expect(body.data!.timeFilter).toBe('7days');
    expect(body.data!.voiceAnalytics.topPhoneNumbers).toEqual([
      { phoneNumber: a, callCount: 6, completedCalls: 5, avgMessages: 4, lastCall: new Date(calls[0]!.at).toISOString() },
      { phoneNumber: b, callCount: 3, completedCalls: 2, avgMessages: 3.7, lastCall: expect.any(String) },
    ]);
  });

  it('answers the voice trends: 30 local days with totals, completed calls and durations', async () => {
    const { session } = await registerUser();
    const now = Date.now();
    const phone = callerNumber();
    await seedActivity(session.user._id, [
      { at: now - 2 * DAY, phone, completed: true, seconds: 100, turns: 4 },
      { at: now - 2 * DAY, phone, completed: true, seconds: 50, turns: 4 },
      { at: now - 2 * DAY, phone, completed: false, seconds: 10, turns: 1 },
    ], []);

    const res = await get<VoiceTrends>('/api/dashboard/voice-trends', session.token);

    expect(res.status).toBe(200);
    expect(res.body.data!.days).toHaveLength(30);
    const day = res.body.data!.days.find((x) => x.date === dayIn(now - 2 * DAY, 'UTC'))!;
    expect(day).toEqual({ date: day.date, total: 3, completed: 2, totalDuration: 160, avgDuration: 75 });
    expect(res.body.data!.days.filter((x) => x.total > 0)).toHaveLength(1);
  });

  it('refuses a bad time filter (400) and answers 401 without a token', async () => {
    const { session } = await registerUser();
    const bad = await get('/api/dashboard?timeFilter=year', session.token);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Time filter must be 7days or 30days');
    expect((await get('/api/dashboard')).status).toBe(401);
  });
});

/** A subscribed user with ChatGPT, an agent and Twilio Voice set up against the fake Twilio (as voice-call.test.ts). */
async function voiceUser(conversationMode: ConversationMode = 'gather') {
  const { token, userId } = await subscribedUser('starter');
  await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: `sk-test-${randomUUID()}`, model: 'gpt-4o' } });
  await createAnsweringAgent(token);
  const number = `+3491${randomDigits(7)}`;
  const twilioApiUrl = provided('twilioApiUrl');
  const account = (await (
    await fetch(`${twilioApiUrl}/_test/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ numbers: [number] }) })
  ).json()) as { accountSid: string; authToken: string };
  const setup = await api<TwilioSetupResult>('POST', '/api/integrations/twilio-voice/setup', { token, body: { ...account, phoneNumber: number } });
  expect(setup.status).toBe(200);
  // The calls played here are <Gather>-loop calls unless asked: the default mode streams through ConversationRelay (issue 16).
  expect((await api('PUT', '/api/voice-settings', { token, body: { ...VOICE_DEFAULTS, conversationMode } })).status).toBe(200);
  return { token, userId, number, account, twilioApiUrl, setup: setup.body.data! };
}

describe('GET /api/dashboard: written by the real call, contact and message paths', () => {
  it('counts a call played through the fake Twilio and a contact created through the API', async () => {
    // Arrange
    const { token, userId, number, account, twilioApiUrl, setup } = await voiceUser();
    const from = callerNumber();

    // Act
    const call = await simulateCall({
      voiceUrl: setup.webhookUrl,
      statusCallbackUrl: setup.statusCallbackUrl,
      accountSid: account.accountSid,
      authToken: account.authToken,
      from,
      to: number,
      callSid: newCallSid(),
      turns: [{ speech: 'What time do you open?', confidence: 0.9 }],
      twilioApiUrl,
    });
    const contact = await api('POST', '/api/contacts', { token, body: { name: 'Ana Dash', phoneNumber: `+3460${randomDigits(7)}` } });

    // Assert
    expect(call.httpStatuses.every((s) => s === 200)).toBe(true);
    expect(contact.status).toBe(201);
    const stored = (await callRepo().getBySid(userId, call.callSid))!;
    const d = (await get<DashboardData>('/api/dashboard', token)).body.data!;
    expect(d.voiceAnalytics.overview).toEqual({ totalCalls: 1, completedCalls: stored.status === 'completed' ? 1 : 0 });
    expect(d.voiceAnalytics.durationStats.totalDuration).toBe(stored.duration / 1000);
    expect(d.voiceAnalytics.durationStats.maxDuration).toBe(stored.duration / 1000);
    expect(d.voiceAnalytics.topPhoneNumbers).toEqual([
      { phoneNumber: from, callCount: 1, completedCalls: stored.status === 'completed' ? 1 : 0, avgMessages: stored.messages.length, lastCall: stored.createdAt },
    ]);
    expect(d.recentActivity).toEqual([
      { status: stored.status, contactName: '', phoneNumber: from, messageCount: stored.messages.length, createdAt: stored.createdAt, callId: stored.id },
    ]);
    expect(d.contactAnalytics.overview).toEqual({ totalContacts: 1, addedInPeriod: 1 });
    expect(d.voiceAnalytics.callsPerDay.at(-1)!.total).toBe(1);
  });
});

describe('GET /api/dashboard: median turn latency (issue 16)', () => {
  /** An agent turn as the relay stores it: ms from the caller's prompt to the first/last token sent. */
  const streamed = (content: string, firstTokenMs: number): CallTurn => ({ ...agentTurn(content), latency: { firstTokenMs, lastTokenMs: firstTokenMs + 1400 } });

  it('counts the streamed turns of calls finished by the real status callback, once per call; a <Gather> call adds nothing', async () => {
    // Arrange: two streamed calls still active (as the relay leaves them), one today, one 10 days ago.
    const u = await voiceUser();
    const now = Date.now();
    const live = (at: number, messages: CallTurn[]) =>
      seedCall(u.userId, { status: 'active', createdAt: new Date(at).toISOString(), endedAt: null, duration: 0, billedMinutes: 0, conversationMode: 'streaming', internalNumber: u.number, messages });
    const today = await live(now - 5 * 60_000, [
      agentTurn('Hola, ¿en qué puedo ayudarle?'),
      userTurn('¿Abren el sábado?'),
      streamed('Sí, de diez a dos.', 420),
      userTurn('¿Y el domingo?'),
      { ...streamed('No, el domingo', 780), interrupted: true },
      userTurn('Vale, ¿tienen aparcamiento?'),
      streamed('Sí, en la misma calle.', 1310),
    ]);
    const older = await live(now - 10 * DAY, [agentTurn('Hola'), userTurn('Precio'), streamed('Veinte euros.', 350), userTurn('¿Y con IVA?'), streamed('Veinticuatro.', 505), userTurn('¿Seguro?'), streamed('Sí.', 12_000)]);
    const finalStatus = async (callSid: string, from: string) => {
      const params = { AccountSid: u.account.accountSid, CallSid: callSid, From: from, To: u.number, Direction: 'inbound', CallStatus: 'completed', CallDuration: '95' };
      const res = await fetch(u.setup.statusCallbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(u.account.authToken, u.setup.statusCallbackUrl, params) },
        body: new URLSearchParams(params).toString(),
      });
      return res.status;
    };
    const latency = async (timeFilter: string) => (await get<DashboardData>(`/api/dashboard?timeFilter=${timeFilter}`, u.token)).body.data!.voiceAnalytics.turnLatency;
    const before = await latency('30days');

    // Act: both calls end (one callback retried, as Twilio does), then a <Gather> call is played.
    const statuses = await Promise.all([finalStatus(today.callSid, today.phoneNumber), finalStatus(older.callSid, older.phoneNumber)]);
    statuses.push(await finalStatus(today.callSid, today.phoneNumber));
    const gather = await simulateCall({
      voiceUrl: u.setup.webhookUrl,
      statusCallbackUrl: u.setup.statusCallbackUrl,
      accountSid: u.account.accountSid,
      authToken: u.account.authToken,
      from: callerNumber(),
      to: u.number,
      callSid: newCallSid(),
      turns: [{ speech: 'What time do you open?', confidence: 0.9 }],
      twilioApiUrl: u.twilioApiUrl,
    });

    // Assert
    expect(before).toBeNull();
    expect(statuses).toEqual([200, 200, 200]);
    expect(gather.httpStatuses.every((s) => s === 200)).toBe(true);
    expect((await callRepo().getBySid(u.userId, gather.callSid))!.status).not.toBe('active');
    expect((await callRepo().get(u.userId, today.id))!.status).toBe('completed');
    // 7 days: today's call only, 420 / 780 / 1310 → rank 2 = 780 → its bucket (775, 800].
    expect(await latency('7days')).toEqual({ medianMs: 800, turns: 3 });
    // 30 days: 350 / 420 / 505 / 780 / 1310 / 12000 → rank 3 = 505 → (500, 525].
    expect(await latency('30days')).toEqual({ medianMs: 525, turns: 6 });
    const d = (await get<DashboardData>('/api/dashboard?timeFilter=30days', u.token)).body.data!;
    expect(d.voiceAnalytics.overview.totalCalls).toBe(3);
  });
});

describe('GET /api/dashboard: median turn latency of a streamed call played through the fake Twilio', () => {
  it('is the call list’s p50 read on the bucket grid, over the call’s answered turns', async () => {
    // Arrange: the default streaming mode; the simulator plays ConversationRelay over the local WebSocket API.
    const u = await voiceUser('streaming');

    // Act
    const call = await simulateCall({
      voiceUrl: u.setup.webhookUrl,
      statusCallbackUrl: u.setup.statusCallbackUrl,
      accountSid: u.account.accountSid,
      authToken: u.account.authToken,
      from: callerNumber(),
      to: u.number,
      callSid: newCallSid(),
      turns: [
        { speech: 'Hola, quiero reservar una mesa.', confidence: 0.93 },
        { speech: 'Para cuatro personas.', confidence: 0.9 },
        { speech: 'A las nueve, gracias.', confidence: 0.88 },
      ],
      twilioApiUrl: u.twilioApiUrl,
    });

    // Assert
    const saved = (await callRepo().getBySid(u.userId, call.callSid))!;
    expect(saved.conversationMode).toBe('streaming');
    expect(saved.status).not.toBe('active');
    expect(saved.latency).toMatchObject({ turns: 3 });
    const d = (await get<DashboardData>('/api/dashboard', u.token)).body.data!;
    expect(d.voiceAnalytics.turnLatency).toEqual({ medianMs: Number(latencyBucket(saved.latency!.p50Ms)), turns: 3 });
  });
});

// ------------------------------------------------------------------ bounded reads

/** A document client that counts the DynamoDB requests sent through it. */
function countingClient(): { db: TestDocumentClient; count: () => number } {
  let n = 0;
  const counting: typeof fetch = (input, init) => (n++, fetch(input, init));
  return { db: testDocumentClientAt(inject('dynamoEndpoint'), { credentials: localCredentials, fetch: counting }), count: () => n };
}

describe('GET /api/dashboard: a bounded read', () => {
  it('sends the same number of DynamoDB requests with 100 and 10,000 calls seeded', { timeout: 240_000 }, async () => {
    // Arrange
    const [small, large] = [randomUUID(), randomUUID()];
    await seedCallHistory(testDocumentClient(), tableName(), small, 100);
    const { last29Days } = await seedCallHistory(testDocumentClient(), tableName(), large, 10_000);
    const read = async (userId: string) => {
      const { db, count } = countingClient();
      const service = createDashboardService({ reader: new DynamoDashboardReader(db, tableName()) });
      const data = await service.dashboard(userId, '30days');
      return { data, requests: count() };
    };

    // Act
    const a = await read(small);
    const b = await read(large);

    // Assert
    expect(a.requests).toBe(b.requests);
    expect(b.requests).toBeLessThanOrEqual(4);
    expect(b.data.voiceAnalytics.topPhoneNumbers).toHaveLength(5);
    expect(b.data.voiceAnalytics.topPhoneNumbers[0]!.callCount).toBe(20);
    expect(b.data.recentActivity).toHaveLength(10);
    expect(b.data.voiceAnalytics.callsPerDay.reduce((n, d) => n + d.total, 0)).toBeGreaterThanOrEqual(last29Days);
    // Two streamed answers per seeded call, counted in the UTC day the call started (this user's zone is UTC).
    expect(b.data.voiceAnalytics.turnLatency!.turns).toBe(2 * b.data.voiceAnalytics.overview.totalCalls);
    expect(a.data.voiceAnalytics.overview.totalCalls).toBeLessThan(100);
  });
});
