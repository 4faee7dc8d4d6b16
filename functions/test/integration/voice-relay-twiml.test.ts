/**
 * The TwiML side of streamed calls (issue 16) on the local stack: the incoming-call webhook and
 * the relay-action route, POSTed as Twilio posts them (form bodies signed with the twilio SDK's
 * getExpectedTwilioSignature over the public URL), TwiML read with an XML parser, the call read
 * from DynamoDB Local, the owner's notice from the SES mailbox. The WebSocket relay itself has its
 * own tests (voice-relay.test.ts): here the turns it would store are written with the repository.
 *
 * And the warm-up of the relay function: the real adapter with an AWS SDK Lambda client pointed at
 * a loopback server that records the Invoke (or fails, or hangs).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARM_UP_PAYLOAD, WARM_UP_TIMEOUT_MS, createRelayWarmer } from '../../src/adapters/aws/relay-warmer.js';
import { VOICE_DEFAULTS, type TwilioSetupResult, type VoiceSettings } from '../../src/contract/voice.js';
import type { StoredCall } from '../../src/domain/voice/ports.js';
import { newCallSid } from '../../local/fake-twilio/call-simulator.js';
import { createAnsweringAgent, eventually, sleep } from '../support/agents-api.js';
import { api, mailsTo, provided } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { agentTurn, callRepo, callerNumber, userTurn } from '../support/seed-calls.js';
import { randomDigits } from '../support/whatsapp.js';
import { RELAY_URL, USER, incomingParams, setup } from '../unit/voice-call-loop/fakes.js';

interface VoiceUser {
  token: string;
  userId: string;
  email: string;
  key: string;
  accountSid: string;
  authToken: string;
  number: string;
  webhookUrl: string;
}

const SUMMARY_SO_FAR = {
  quickSummary: 'Ana asks to speak to Dr. García about her test results.',
  actionPoints: ['Call Ana back with the results'],
  sentiment: 'neutral',
  urgency: 'high',
  tone: 'worried',
  contactExtracted: { name: 'Ana', phone: '', email: '', web: '' },
  bookingExtracted: { from: '', to: '', numberOfPeople: null, note: '' },
};

async function control(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A subscribed user with ChatGPT (its own fake OpenAI key), an agent, the Twilio integration and these voice settings. */
async function voiceUser(settings: Partial<VoiceSettings> = {}): Promise<VoiceUser> {
  const { token, userId, user } = await subscribedUser('starter');
  const key = `sk-test-${randomUUID()}`;
  expect((await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } })).status).toBe(200);
  await createAnsweringAgent(token);
  const number = `+3491${randomDigits(7)}`;
  const account = (await control(provided('twilioApiUrl'), '/_test/accounts', { numbers: [number] })) as { accountSid: string; authToken: string };
  const setupRes = await api<TwilioSetupResult>('POST', '/api/integrations/twilio-voice/setup', { token, body: { ...account, phoneNumber: number } });
  expect(setupRes.status).toBe(200);
  expect((await api('PUT', '/api/voice-settings', { token, body: { ...VOICE_DEFAULTS, ...settings } })).status).toBe(200);
  return { token, userId, email: user.email, key, ...account, number, webhookUrl: setupRes.body.data!.webhookUrl };
}

type Node = Record<string, unknown>;
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, parseTagValue: false });

/** A POST signed as Twilio signs it; the answer's status, content type and parsed <Response>. */
async function twilioPost(u: VoiceUser, url: string, params: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(u.authToken, url, params) },
    body: new URLSearchParams(params).toString(),
  });
  const body = await res.text();
  const contentType = res.headers.get('content-type');
  const response = contentType?.startsWith('text/xml') ? (parser.parse(body) as { Response: Node }).Response : undefined;
  return { status: res.status, contentType, body, response: response as Node };
}

const callParams = (u: VoiceUser, callSid: string, extra: Record<string, string> = {}) => ({
  AccountSid: u.accountSid,
  CallSid: callSid,
  From: callerNumber(),
  To: u.number,
  Direction: 'inbound',
  CallStatus: 'ringing',
  ...extra,
});

async function incoming(u: VoiceUser) {
  const callSid = newCallSid();
  const params = callParams(u, callSid);
  const answer = await twilioPost(u, u.webhookUrl, params);
  const call = await callRepo().getBySid(u.userId, callSid);
  return { ...answer, callSid, params, call: call! };
}

const relayBase = () => `${provided('apiUrl').replace(/^http/, 'ws')}/_ws/voice-relay`;

async function summarySoFar(key: string): Promise<void> {
  const res = await fetch(`${provided('openaiUrl')}/_test/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, responses: [{ content: JSON.stringify(SUMMARY_SO_FAR) }] }),
  });
  expect(res.ok).toBe(true);
}

async function handoffJobs(callId: string): Promise<unknown[]> {
  const sent = (await (await fetch(`${provided('apiUrl')}/_local/queues/sent?queue=call-summary`)).json()) as Array<{ body: string }>;
  return sent.map((m) => JSON.parse(m.body) as { callId: string; stage?: string }).filter((j) => j.callId === callId && j.stage === 'handoff');
}

describe('incoming call: ConversationRelay or the <Gather> loop', () => {
  it('streaming mode with a voice ConversationRelay speaks: <Connect action><ConversationRelay …/> with our relay URL and the voice settings (one language: Google’s telephony model, no detection, no <Language>), the call stored as streaming', async () => {
    const u = await voiceUser({ voice: 'Polly.Lucia', enableRecording: true });

    const { status, contentType, response, call } = await incoming(u);

    expect(status).toBe(200);
    expect(contentType).toBe('text/xml; charset=utf-8');
    expect(response.Start).toEqual({ Recording: expect.objectContaining({ recordingStatusCallback: `${u.webhookUrl}/recording` }) });
    expect(response.Gather).toBeUndefined();
    const connect = response.Connect as Node;
    expect(connect.action).toBe(`${u.webhookUrl}/relay-action?call=${call.id}`);
    expect(connect.method).toBe('POST');
    expect(connect.ConversationRelay).toEqual({
      url: `${relayBase()}?user=${u.userId}&call=${call.id}`,
      welcomeGreeting: VOICE_DEFAULTS.messageWelcome,
      language: 'es-ES',
      ttsProvider: 'Amazon',
      voice: 'Lucia-Neural',
      transcriptionProvider: 'Google',
      speechModel: 'telephony',
      interruptible: 'any',
      dtmfDetection: 'true',
    });
    expect(call).toMatchObject({ status: 'active', conversationMode: 'streaming', settings: { conversationMode: 'streaming', voice: 'Polly.Lucia' } });
    expect(call.messages.map((m) => [m.role, m.content])).toEqual([['agent', VOICE_DEFAULTS.messageWelcome]]);
  });

  it('a call that can switch languages is transcribed by Deepgram with automatic detection (multi), the main language kept for the voice and the welcome, and declares each language, with its voice, as a <Language> of the noun (issue 28)', async () => {
    const u = await voiceUser({ voice: 'Polly.Lucia', additionalLanguages: ['en-US', 'es-MX'] });

    const { response, call } = await incoming(u);

    const { Language: languages, ...relay } = (response.Connect as Node).ConversationRelay as Node;
    expect(relay).toEqual({
      url: `${relayBase()}?user=${u.userId}&call=${call.id}`,
      welcomeGreeting: VOICE_DEFAULTS.messageWelcome,
      language: 'es-ES',
      ttsProvider: 'Amazon',
      voice: 'Lucia-Neural',
      transcriptionProvider: 'Deepgram',
      speechModel: 'nova-3-general',
      transcriptionLanguage: 'multi',
      interruptible: 'any',
      dtmfDetection: 'true',
    });
    // Every <Language> names the same recogniser as the noun (Twilio's advice for detection).
    const declared = { transcriptionProvider: 'Deepgram', speechModel: 'nova-3-general' };
    expect(languages).toEqual([
      { code: 'es-ES', ttsProvider: 'Amazon', voice: 'Lucia-Neural', ...declared },
      { code: 'en-US', ttsProvider: 'Amazon', voice: 'Joanna-Neural', ...declared },
      { code: 'es-MX', ttsProvider: 'Amazon', voice: 'Mia-Neural', ...declared },
    ]);
    expect(call.settings.additionalLanguages).toEqual(['en-US', 'es-MX']);
  });

  it('a retried incoming webhook answers the same TwiML and stores one call', async () => {
    const u = await voiceUser();
    const first = await incoming(u);

    const retry = await twilioPost(u, u.webhookUrl, first.params);

    expect(retry.body).toBe(first.body);
    const page = await api<{ pagination: { totalItems: number } }>('GET', '/api/voice-conversations', { token: u.token });
    expect(page.body.data?.pagination.totalItems).toBe(1);
  });

  it('Conchita (no ConversationRelay voice) and the gather mode answer the <Gather> loop, stored as gather calls', async () => {
    const [conchita, gather] = await Promise.all([voiceUser({ voice: 'Polly.Conchita' }), voiceUser({ conversationMode: 'gather' })]);

    const answers = [await incoming(conchita), await incoming(gather)];

    for (const { response, call } of answers) {
      expect(response.Connect).toBeUndefined();
      expect(response.Gather).toMatchObject({ input: 'speech', action: expect.stringContaining(`/voice/gather?call=${call.id}`) });
      expect(call.conversationMode).toBe('gather');
    }
    expect((answers[0]!.response.Gather as Node).Say).toMatchObject({ voice: 'Polly.Conchita' });
  });
});

describe('relay action (<Connect action>)', () => {
  const FORWARD = '+34910000077';

  async function streamedCall(settings: Partial<VoiceSettings> = {}) {
    const u = await voiceUser({ escalationForwardNumber: FORWARD, summaryNotificationMethod: 'email', ...settings });
    const started = await incoming(u);
    const actionUrl = (started.response.Connect as Node).action as string;
    return { u, call: started.call, actionUrl, params: callParams(u, started.callSid, { CallStatus: 'in-progress', SessionId: `VX${randomDigits(32)}`, SessionDuration: '41' }) };
  }

  it('a hand-over: <Dial> to the forwarding number, the call forwarded, the owner e-mailed the summary so far at once; a retried action gets the same answer and sends no second e-mail', async () => {
    const { u, call, actionUrl, params } = await streamedCall();
    // What the relay stored before it sent `end` with the hand-over.
    expect(await callRepo().appendTurns(u.userId, call.id, 1, [userTurn('Quiero hablar con la doctora García, es por mis análisis'), agentTurn(VOICE_DEFAULTS.messageFallback)], 0)).toBe(true);
    await summarySoFar(u.key);
    const action = { ...params, SessionStatus: 'ended', HandoffData: JSON.stringify({ reason: 'The caller asks for the doctor', callId: call.id }) };

    const first = await twilioPost(u, actionUrl, action);
    const mail = await eventually(async () => (await mailsTo(u.email)).find((m) => m.subject.startsWith('Call being transferred')), 15_000);
    const retry = await twilioPost(u, actionUrl, action);
    await sleep(1_500);

    expect(first.status).toBe(200);
    expect(first.response).toEqual({ Dial: { answerOnBridge: 'true', '#text': FORWARD } });
    expect(retry.body).toBe(first.body);
    const stored = (await callRepo().get(u.userId, call.id)) as StoredCall;
    expect(stored).toMatchObject({ status: 'active', endedByUs: true, endReason: 'forwarded', escalated: true, escalationReason: 'The caller asks for the doctor' });
    expect(mail.subject).toMatch(/^Call being transferred to you: \+34/);
    expect(mail.body.text).toContain(`to ${FORWARD} now.`);
    expect(mail.body.text).toContain('Reason: The caller asks for the doctor');
    expect(mail.body.text).toContain(`Summary so far: ${SUMMARY_SO_FAR.quickSummary}`);
    expect(mail.body.text).toContain('Caller: Quiero hablar con la doctora García, es por mis análisis');
    expect(mail.body.text).toContain(`/voice-conversations/${call.id}`);
    expect((await mailsTo(u.email)).filter((m) => m.subject.startsWith('Call being transferred'))).toHaveLength(1);
    expect(await handoffJobs(call.id)).toHaveLength(1);
    // The final summary is still the call's own, after it ends.
    expect(stored.summaryStatus).toBe('pending');
  });

  it('a failed session: the error message and a hang-up, the call ended by us with endReason error', async () => {
    const { u, call, actionUrl, params } = await streamedCall();

    const answer = await twilioPost(u, actionUrl, { ...params, SessionStatus: 'failed', ErrorCode: '64105', ErrorMessage: 'WebSocket connection failed' });

    expect(answer.status).toBe(200);
    expect(answer.response).toEqual({ Say: { voice: VOICE_DEFAULTS.voice, language: 'es-ES', '#text': VOICE_DEFAULTS.messageError }, Hangup: '' });
    expect(await callRepo().get(u.userId, call.id)).toMatchObject({ endedByUs: true, endReason: 'error' });
    expect(await handoffJobs(call.id)).toEqual([]);
  });

  it('the end of a session without a hand-over hangs up', async () => {
    const { u, call, actionUrl, params } = await streamedCall();

    const answer = await twilioPost(u, actionUrl, { ...params, SessionStatus: 'completed' });

    expect(answer.response).toEqual({ Hangup: '' });
    expect(await callRepo().get(u.userId, call.id)).toMatchObject({ endedByUs: true, endReason: 'goodbye' });
  });

  it('refuses a forged signature with 403 and changes nothing', async () => {
    const { u, call, actionUrl, params } = await streamedCall();
    const forged = { ...u, authToken: 'f'.repeat(32) };

    const answer = await twilioPost(forged, actionUrl, { ...params, SessionStatus: 'ended', HandoffData: JSON.stringify({ reason: 'x', callId: call.id }) });

    expect(answer).toMatchObject({ status: 403, contentType: 'text/plain; charset=utf-8', body: 'Forbidden' });
    expect(await callRepo().get(u.userId, call.id)).toMatchObject({ endedByUs: false, escalated: false });
    expect(await handoffJobs(call.id)).toEqual([]);
  });
});

describe('warm-up of the relay function (Lambda Invoke, InvocationType Event)', () => {
  let server: Server;
  let endpoint: string;
  let mode: 'accept' | 'fail' | 'hang' = 'accept';
  const received: Array<{ method: string; path: string; invocationType: string | undefined; body: string; auth: string | undefined }> = [];
  const hanging: IncomingMessage[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          path: req.url ?? '',
          invocationType: req.headers['x-amz-invocation-type'] as string | undefined,
          body: Buffer.concat(chunks).toString(),
          auth: req.headers.authorization,
        });
        if (mode === 'hang') return void hanging.push(req);
        if (mode === 'fail') {
          res.writeHead(500, { 'content-type': 'application/json', 'x-amzn-errortype': 'ServiceException' });
          return void res.end(JSON.stringify({ message: 'boom' }));
        }
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    server.close();
  });

  const warmer = (functionName: string, errors: string[] = []) =>
    createRelayWarmer({
      functionName,
      region: 'us-east-1',
      endpoint,
      credentials: async () => ({ accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local' }),
      onError: (message) => void errors.push(message),
    });

  it('sends one asynchronous Invoke of the relay function with {"warmUp":true}; nothing when the function is not configured', async () => {
    mode = 'accept';
    received.length = 0;

    await warmer('agentdesk-voice-relay').warmUp();
    await warmer('').warmUp();

    expect(received).toEqual([
      {
        method: 'POST',
        path: '/2015-03-31/functions/agentdesk-voice-relay/invocations',
        invocationType: 'Event',
        body: WARM_UP_PAYLOAD,
        // Signed for Lambda with the invocation type among the signed headers.
        auth: expect.stringMatching(/^AWS4-HMAC-SHA256 Credential=AKIDLOCAL\/\d{8}\/us-east-1\/lambda\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-invocation-type, Signature=[0-9a-f]{64}$/),
      },
    ]);
    expect(JSON.parse(WARM_UP_PAYLOAD)).toEqual({ warmUp: true });
  });

  it('a failing or hanging Lambda API neither fails nor slows an incoming streamed call beyond the warm-up bound (errors logged)', async () => {
    const errors: string[] = [];
    const timings: number[] = [];
    for (const m of ['fail', 'hang'] as const) {
      mode = m;
      const real = warmer('agentdesk-voice-relay', errors);
      const { loop, calls } = setup({ relayUrl: RELAY_URL, warmUp: () => real.warmUp() });
      const started = Date.now();

      const script = await loop.incoming(USER, { ...incomingParams, CallSid: `CA${m}` });

      timings.push(Date.now() - started);
      expect(script.steps.map((s) => s.kind)).toEqual(['relay']);
      expect([...calls.byId.values()][0]?.conversationMode).toBe('streaming');
    }

    expect(errors).toEqual(['Voice relay warm-up failed', `Voice relay warm-up: no answer within ${WARM_UP_TIMEOUT_MS} ms`]);
    for (const ms of timings) expect(ms).toBeLessThan(WARM_UP_TIMEOUT_MS + 700);
  });
});
