/**
 * The call loop end to end on the local stack: a subscribed user with ChatGPT (the fake OpenAI),
 * an enabled agent and the Twilio Voice integration set up against the fake Twilio; calls are
 * played by the call simulator exactly as Twilio plays them (form POSTs signed with the twilio
 * SDK's own getExpectedTwilioSignature over the public URL, TwiML parsed with an XML parser).
 * Checks the TwiML heard and what DynamoDB Local holds (read with the DynamoCallRepository).
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { DynamoSubscriptionRepository, DynamoUsageRepository } from '../../src/adapters/dynamo/subscriptions.js';
import { VOICE_DEFAULTS, type TwilioSetupResult, type VoiceSettings } from '../../src/contract/voice.js';
import { createUsageService } from '../../src/domain/billing/usage.js';
import type { StoredCall } from '../../src/domain/voice/ports.js';
import { newCallSid, simulateCall, type ScriptTurn, type SimulatedCall } from '../../local/fake-twilio/call-simulator.js';
import { createAnsweringAgent, eventually } from '../support/agents-api.js';
import { api, db, itemsOf, mailsTo, provided, tableName } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { callRepo, callerNumber } from '../support/seed-calls.js';
import { randomDigits } from '../support/whatsapp.js';

interface VoiceUser {
  token: string;
  userId: string;
  email: string;
  key: string;
  accountSid: string;
  authToken: string;
  number: string;
  webhookUrl: string;
  statusCallbackUrl: string;
}

const twilioApiUrl = () => provided('twilioApiUrl');
const openaiUrl = () => provided('openaiUrl');

async function control(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A subscribed user with ChatGPT connected, an enabled agent, the Twilio integration and these voice settings. */
async function voiceUser(options: { key?: string; settings?: Partial<VoiceSettings> } = {}): Promise<VoiceUser> {
  const { token, userId, user } = await subscribedUser('starter');
  const key = options.key ?? `sk-test-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status} ${chatgpt.body.message}`);
  await createAnsweringAgent(token);
  const number = `+3491${randomDigits(7)}`;
  const account = (await control(twilioApiUrl(), '/_test/accounts', { numbers: [number] })) as { accountSid: string; authToken: string };
  const setup = await api<TwilioSetupResult>('POST', '/api/integrations/twilio-voice/setup', {
    token,
    body: { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number },
  });
  if (setup.status !== 200 || !setup.body.data) throw new Error(`Twilio setup failed: ${setup.status} ${setup.body.message}`);
  // These are <Gather>-loop calls: the default mode streams through ConversationRelay (issue 16).
  const put = await api('PUT', '/api/voice-settings', { token, body: { ...VOICE_DEFAULTS, conversationMode: 'gather', ...options.settings } });
  if (put.status !== 200) throw new Error(`voice settings failed: ${put.status} ${put.body.message}`);
  return { token, userId, email: user.email, key, ...account, number, webhookUrl: setup.body.data.webhookUrl, statusCallbackUrl: setup.body.data.statusCallbackUrl };
}

function play(u: VoiceUser, turns: ScriptTurn[], extra: Partial<Parameters<typeof simulateCall>[0]> = {}): Promise<SimulatedCall> {
  return simulateCall({
    voiceUrl: u.webhookUrl,
    statusCallbackUrl: u.statusCallbackUrl,
    accountSid: u.accountSid,
    authToken: u.authToken,
    from: callerNumber(),
    to: u.number,
    turns,
    twilioApiUrl: twilioApiUrl(),
    ...extra,
  });
}

const stored = async (u: VoiceUser, callSid: string): Promise<StoredCall> => {
  const call = await callRepo().getBySid(u.userId, callSid);
  if (!call) throw new Error(`no call stored for ${callSid}`);
  return call;
};

/** What the caller heard and the verbs around it: 'Say:<text>', 'Gather', 'Hangup', 'Dial:<number>'. */
const heard = (call: SimulatedCall) =>
  call.events.flatMap((e) => (e.verb === 'Say' ? [`Say:${e.text}`] : e.verb === 'Dial' ? [`Dial:${e.text}`] : ['Gather', 'Hangup'].includes(e.verb) ? [e.verb] : []));

async function summaryJobs(): Promise<Array<{ userId: string; callId: string; stage?: 'handoff' }>> {
  const res = await fetch(`${provided('apiUrl')}/_local/queues/sent?queue=call-summary`);
  const sent = (await res.json()) as Array<{ body: string }>;
  return sent.map((m) => JSON.parse(m.body) as { userId: string; callId: string; stage?: 'handoff' });
}

describe('voice call loop', () => {
  it('refuses a forged signature with 403 and no TwiML, and stores nothing', async () => {
    const u = await voiceUser();

    const call = await play(u, [{ speech: 'Hola', confidence: 0.9 }], { authToken: 'f'.repeat(32) });

    expect(call.httpStatuses).toEqual([403, 403]);
    expect(call.requests.every((r) => !r.body.includes('<Response'))).toBe(true);
    expect(call.ended).toBe('error');
    expect(await callRepo().getBySid(u.userId, call.callSid)).toBeNull();
  });

  it('answers a malformed {userId} (5,000 characters, unicode, encoded slashes) exactly like an unknown user, before any read', async () => {
    const u = await voiceUser();
    const callSid = newCallSid();
    const params = { AccountSid: u.accountSid, CallSid: callSid, From: callerNumber(), To: u.number, CallStatus: 'ringing' };
    // Signed with the real user's token over the URL used: only the path parameter is wrong.
    const postAs = async (userId: string, suffix = '') => {
      const url = u.webhookUrl.replace(`/twilio/${u.userId}/`, `/twilio/${encodeURIComponent(userId)}/`) + suffix;
      const res = await fetch(url.replace(new URL(url).origin, provided('apiUrl')), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(u.authToken, url, params) },
        body: new URLSearchParams(params).toString(),
      });
      return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
    };
    const junk = ['x'.repeat(5000), 'ñandú-🌸-用户', `${u.userId}/../${u.userId}`, `../${u.userId}`, ` ${u.userId}`, `${u.userId.toUpperCase()}x`];

    const unknown = await postAs(randomUUID());
    const answers = [];
    for (const id of junk) for (const suffix of ['', '/gather', '/status', '/recording']) answers.push(await postAs(id, suffix));

    expect(unknown).toEqual({ status: 403, contentType: 'text/plain; charset=utf-8', body: 'Forbidden' });
    for (const answer of answers) expect(answer).toEqual(unknown);
    expect(await callRepo().getBySid(u.userId, callSid)).toBeNull();
    for (const id of junk.slice(1)) expect(await itemsOf(`USER#${id}`)).toEqual([]);
  });

  it('refuses a call to user B’s URL signed with user A’s token', async () => {
    const [a, b] = await Promise.all([voiceUser(), voiceUser()]);

    const call = await play(b, [], { authToken: a.authToken, accountSid: a.accountSid });

    expect(call.httpStatuses[0]).toBe(403);
    expect(await callRepo().getBySid(b.userId, call.callSid)).toBeNull();
  });

  it('plays a full call: welcome, the agent’s answers, transcript in order with confidences, minutes billed, summary queued', async () => {
    const u = await voiceUser();
    const from = callerNumber();

    const call = await play(u, [{ speech: 'What time do you open?', confidence: 0.87 }, { speech: 'Thank you', confidence: 0.93 }], { from });

    expect(call.httpStatuses.every((s) => s === 200)).toBe(true);
    expect(heard(call)).toEqual([
      `Say:${VOICE_DEFAULTS.messageWelcome}`,
      'Gather',
      'Say:Echo: What time do you open?',
      'Gather',
      'Say:Echo: Thank you',
      'Gather',
    ]);
    const say = call.events.find((e) => e.verb === 'Say')!;
    expect(say.attrs).toEqual({ voice: VOICE_DEFAULTS.voice, language: VOICE_DEFAULTS.language });
    const gather = call.events.find((e) => e.verb === 'Gather')!;
    expect(gather.attrs).toMatchObject({ input: 'speech', language: 'es-ES', speechTimeout: 'auto', actionOnEmptyResult: 'true', method: 'POST' });
    const saved = await stored(u, call.callSid);
    expect(gather.attrs.action).toBe(`${u.webhookUrl}/gather?call=${saved.id}&agent=${saved.agent?._id}&turn=1`);

    expect(saved.messages.map((m) => [m.role, m.content, m.confidence])).toEqual([
      ['agent', VOICE_DEFAULTS.messageWelcome, null],
      ['user', 'What time do you open?', 0.87],
      ['agent', 'Echo: What time do you open?', null],
      ['user', 'Thank you', 0.93],
      ['agent', 'Echo: Thank you', null],
    ]);
    expect(saved).toMatchObject({ status: 'hung_up', endReason: 'caller', phoneNumber: from, internalNumber: u.number, duration: 25_000, billedMinutes: 1 });
    expect(saved.endedAt).not.toBeNull();
    expect(saved.voiceSettings).toMatchObject({ name: 'Sonia', language: 'es-ES' });
    expect((await summaryJobs()).filter((j) => j.callId === saved.id)).toEqual([{ userId: u.userId, callId: saved.id }]);
    const analytics = await api<{ usage: { minutes: number } }>('GET', '/api/subscription/analytics', { token: u.token });
    expect(analytics.body.data?.usage.minutes).toBe(1);
  });

  it('a model that does not answer in time: the error message, well inside Twilio’s 15 s, and the call goes on', async () => {
    const u = await voiceUser({ key: `sk-slow-${randomUUID()}` });

    const call = await play(u, [{ speech: 'Are you there?', confidence: 0.8 }]);

    const gather = call.requests.find((r) => r.kind === 'gather')!;
    expect(gather.status).toBe(200);
    expect(gather.durationMs).toBeLessThan(10_000);
    expect(heard(call)).toEqual([`Say:${VOICE_DEFAULTS.messageWelcome}`, 'Gather', `Say:${VOICE_DEFAULTS.messageError}`, 'Gather']);
    const saved = await stored(u, call.callSid);
    expect(saved.messages.at(-1)).toMatchObject({ role: 'agent', content: VOICE_DEFAULTS.messageError });
  }, 30_000);

  it('two silences in a row: the no-input message, then the goodbye and a hang-up', async () => {
    const u = await voiceUser();

    const call = await play(u, [{ silence: true }, { silence: true }]);

    expect(heard(call)).toEqual([
      `Say:${VOICE_DEFAULTS.messageWelcome}`,
      'Gather',
      `Say:${VOICE_DEFAULTS.messageNoInput}`,
      'Gather',
      `Say:${VOICE_DEFAULTS.messageGoodbye}`,
      'Hangup',
    ]);
    expect(call.ended).toBe('hangup');
    expect(await stored(u, call.callSid)).toMatchObject({ status: 'completed', endReason: 'silence', endedByUs: true });
  });

  it('ends the call with the goodbye once maxCallDuration has passed', async () => {
    const u = await voiceUser({ settings: { maxCallDuration: 30 } });
    const callSid = newCallSid();

    const call = await play(u, [{ speech: 'First question', confidence: 0.9 }, { speech: 'Second question', confidence: 0.9 }], {
      callSid,
      // Before the second answer, the call started 40 s ago.
      beforeTurn: async (index) => {
        if (index !== 1) return;
        const saved = await stored(u, callSid);
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk: `USER#${u.userId}`, sk: `VCALL#${saved.id}` },
            UpdateExpression: 'SET createdAt = :at',
            ExpressionAttributeValues: { ':at': new Date(Date.now() - 40_000).toISOString() },
          }),
        );
      },
    });

    expect(heard(call).slice(-2)).toEqual([`Say:${VOICE_DEFAULTS.messageGoodbye}`, 'Hangup']);
    const saved = await stored(u, callSid);
    expect(saved).toMatchObject({ status: 'completed', endReason: 'max_duration' });
    expect(saved.messages.slice(-2).map((m) => m.content)).toEqual(['Second question', VOICE_DEFAULTS.messageGoodbye]);
  });

  const escalateScript = (key: string) =>
    control(openaiUrl(), '/_test/script', {
      key,
      responses: [
        { content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'escalate_to_human', arguments: '{"reason":"Wants to talk to a person"}' } }] },
        { content: 'A person from our team will follow up.' },
      ],
    });

  it('escalation with a forwarding number: the fallback message, then <Dial> to that number, and the owner is e-mailed a handoff notice (warm transfer)', async () => {
    const forward = `+3493${randomDigits(7)}`;
    const u = await voiceUser({ settings: { escalationForwardNumber: forward, summaryNotificationMethod: 'email' } });
    await escalateScript(u.key);

    const call = await play(u, [{ speech: 'I want a human', confidence: 0.95 }]);

    expect(heard(call)).toEqual([`Say:${VOICE_DEFAULTS.messageWelcome}`, 'Gather', `Say:${VOICE_DEFAULTS.messageFallback}`, `Dial:${forward}`]);
    expect(call.ended).toBe('dial');
    const saved = await stored(u, call.callSid);
    expect(saved).toMatchObject({ escalated: true, escalationReason: 'Wants to talk to a person', endReason: 'forwarded', status: 'completed' });
    expect((await summaryJobs()).filter((j) => j.callId === saved.id)).toEqual([
      { userId: u.userId, callId: saved.id, stage: 'handoff' },
      { userId: u.userId, callId: saved.id },
    ]);
    const notice = await eventually(async () => (await mailsTo(u.email)).find((m) => m.subject.startsWith('Call being transferred')), 15_000);
    expect(notice.body.text).toContain(`to ${forward} now.`);
    expect(notice.body.text).toContain('Caller: I want a human');
  }, 40_000);

  it('escalation without a forwarding number: the fallback message, the call is marked and goes on', async () => {
    const u = await voiceUser();
    await escalateScript(u.key);

    const call = await play(u, [{ speech: 'I want a human', confidence: 0.95 }]);

    expect(heard(call)).toEqual([`Say:${VOICE_DEFAULTS.messageWelcome}`, 'Gather', `Say:${VOICE_DEFAULTS.messageFallback}`, 'Gather']);
    expect(await stored(u, call.callSid)).toMatchObject({ escalated: true, escalationReason: 'Wants to talk to a person', status: 'hung_up' });
  });

  it('over the plan’s minutes: a polite message and a hang-up, stored as usage_limit', async () => {
    const u = await voiceUser();
    const usage = createUsageService({ subscriptions: new DynamoSubscriptionRepository(db(), tableName()), usage: new DynamoUsageRepository(db(), tableName()) });
    await usage.reserve(u.userId, 'minutes', 100);

    const call = await play(u, [{ speech: 'Hola', confidence: 0.9 }]);

    expect(heard(call)).toEqual([`Say:${VOICE_DEFAULTS.messageError}`, 'Hangup']);
    expect(await stored(u, call.callSid)).toMatchObject({ status: 'completed', endReason: 'usage_limit', billedMinutes: 0, messages: [] });
  });

  it('records the call when enabled and stores the recording from its callback', async () => {
    const u = await voiceUser({ settings: { enableRecording: true } });

    const call = await play(u, [{ speech: 'Hola', confidence: 0.9 }], { callDurationSec: 42 });

    const start = call.events.find((e) => e.verb === 'Start/Recording');
    expect(start?.attrs.recordingStatusCallback).toBe(`${u.webhookUrl}/recording`);
    expect(call.requests.find((r) => r.kind === 'recording')?.status).toBe(200);
    expect((await stored(u, call.callSid)).recording).toEqual({
      sid: call.recordingSid,
      url: `${twilioApiUrl()}/2010-04-01/Accounts/${u.accountSid}/Recordings/${call.recordingSid}`,
      durationSec: 41,
    });
  });
});

describe('stale calls (the final status callback never came)', () => {
  /** The stale-calls schedule, run now through the local runtime (as its EventBridge rule would). */
  async function runSweeper(): Promise<{ checked: number; closed: number; failed: number }> {
    const res = await fetch(`${provided('apiUrl')}/_local/schedules/stale-calls/run`, { method: 'POST' });
    if (res.status !== 200) throw new Error(`sweeper answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { checked: number; closed: number; failed: number };
  }

  /** Moves the call's start `seconds` into the past (the item and its active-calls index entry). */
  async function age(u: VoiceUser, call: StoredCall, seconds: number): Promise<void> {
    const at = new Date(Date.now() - seconds * 1000).toISOString();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${u.userId}`, sk: `VCALL#${call.id}` },
        UpdateExpression: 'SET createdAt = :at, gsi1sk = :sk',
        ExpressionAttributeValues: { ':at': at, ':sk': `${at}#${call.id}` },
      }),
    );
  }

  const minutesUsed = async (u: VoiceUser) =>
    (await api<{ usage: { minutes: number } }>('GET', '/api/subscription/analytics', { token: u.token })).body.data?.usage.minutes;

  it('closes a call past maxCallDuration + 15 min as completed/stale, bills what is known once, queues one summary; a late callback changes nothing', async () => {
    const u = await voiceUser({ settings: { maxCallDuration: 120 } });
    const call = await play(u, [{ speech: 'Hola', confidence: 0.9 }], { holdStatus: true });
    const active = await stored(u, call.callSid);
    await runSweeper();
    const fresh = await stored(u, call.callSid);
    await age(u, active, 120 + 15 * 60 + 60);

    await runSweeper();
    await runSweeper();
    const late = await call.sendStatus();

    expect(active.status).toBe('active');
    expect(fresh.status).toBe('active');
    const saved = await stored(u, call.callSid);
    // Turns are "now" and the start an hour ago: what is known is capped at the call's limit (120 s).
    expect(saved).toMatchObject({ status: 'completed', endReason: 'stale', duration: 120_000, billedMinutes: 2 });
    expect(saved.endedAt).not.toBeNull();
    expect(late.status).toBe(200);
    expect(await minutesUsed(u)).toBe(2);
    expect((await summaryJobs()).filter((j) => j.callId === saved.id)).toEqual([{ userId: u.userId, callId: saved.id }]);
    // The late callback changed nothing (the summary worker may have filled in the analysis).
    const { summary: _summary, summaryStatus: _summaryStatus, ...callAsSwept } = saved;
    expect(await stored(u, call.callSid)).toMatchObject(callAsSwept);
  });

  it('leaves alone a call whose status callback came (it is out of the active-calls index)', async () => {
    const u = await voiceUser({ settings: { maxCallDuration: 30 } });
    const call = await play(u, [{ speech: 'Hola', confidence: 0.9 }]);
    const finished = await stored(u, call.callSid);
    const items = await itemsOf(`USER#${u.userId}`);

    await runSweeper();

    expect(finished).toMatchObject({ status: 'hung_up', billedMinutes: 1 });
    expect(items.find((i) => i.sk === `VCALL#${finished.id}`)).not.toHaveProperty('gsi1pk');
    // The summary worker may fill in the analysis meanwhile; everything else stays as it was.
    const { summary: _summary, summaryStatus: _summaryStatus, ...callAsFinished } = finished;
    const after = await stored(u, call.callSid);
    expect(after).toMatchObject(callAsFinished);
    expect(after).not.toHaveProperty('endReason', 'stale');
    expect(await minutesUsed(u)).toBe(1);
  });
});
