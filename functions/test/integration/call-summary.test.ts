/**
 * The call-summary worker through the local stack: a finished call (stored through the real
 * DynamoCallRepository) and its call-summary queue message → the structured analysis from the
 * fake OpenAI (response_format json_schema, strict) → stored on the call → delivered by webhook
 * (signed, retried), e-mail (SES mailbox) or WhatsApp (fake Graph API).
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SUMMARY_SIGNATURE_HEADER, VOICE_DEFAULTS, type CallSummary, type VoiceConversation } from '../../src/contract/voice.js';
import { summaryReasons } from '../../src/domain/voice/summary.js';
import { deliveryReasons } from '../../src/domain/voice/delivery.js';
import { api, mailsTo, provided } from './../support/api.js';
import { agentsUser, type AgentsUser, connectChatGpt, eventually, sleep } from '../support/agents-api.js';
import { deadLetters } from '../support/stack-clients.js';
import { enqueueSummary, getCall, seedCall, agentTurn } from '../support/seed-calls.js';
import { webFixtures } from '../support/web-fixtures.js';
import { connectWhatsApp, failGraphSends, graphSends } from '../support/whatsapp.js';

const SUMMARY: CallSummary = {
  quickSummary: 'Ana García wants a table for four on Friday at nine.',
  actionPoints: ['Confirm the booking by e-mail', 'Note: four people'],
  sentiment: 'positive',
  urgency: 'medium',
  tone: 'friendly and direct',
  contactExtracted: { name: 'Ana García', phone: '', email: 'ana@example.com', web: '' },
  bookingExtracted: { from: 'Friday 21:00', to: '', numberOfPeople: 4, note: 'table for four' },
};


async function script(key: string, contents: string[]): Promise<void> {
  const res = await fetch(`${provided('openaiUrl')}/_test/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, responses: contents.map((content) => ({ content })) }),
  });
  if (!res.ok) throw new Error(`fake OpenAI script: ${res.status}`);
}

async function modelRequests(key: string): Promise<Array<{ path: string; body: Record<string, unknown> }>> {
  const res = await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(key)}&path=/v1/chat/completions`);
  return ((await res.json()) as { requests: Array<{ path: string; body: Record<string, unknown> }> }).requests;
}

async function setSummaryMethod(user: AgentsUser, method: 'email' | 'whatsapp' | 'webhook' | null, webhookUrl = ''): Promise<void> {
  const res = await api('PUT', '/api/voice-settings', {
    token: user.token,
    body: { ...VOICE_DEFAULTS, summaryNotificationMethod: method, summaryWebhookUrl: webhookUrl },
  });
  if (res.status !== 200) throw new Error(`voice settings: ${res.status} ${res.body.message}`);
}

/** Waits until the worker finished the call: analysis settled and (when expected) `deliveries` attempts recorded. */
function settled(user: AgentsUser, id: string, deliveries = 0, timeoutMs = 15_000): Promise<VoiceConversation> {
  return eventually(async () => {
    const call = await getCall(user.token, id);
    return call && call.summaryStatus !== 'pending' && call.deliveries.length >= deliveries ? call : undefined;
  }, timeoutMs);
}

describe('call-summary worker', () => {
  it('stores the structured analysis and POSTs it to the webhook signed with the HMAC header', async () => {
    const user = await agentsUser();
    const key = await connectChatGpt(user);
    await script(key, [JSON.stringify(SUMMARY)]);
    const site = webFixtures();
    const hook = await site.route({ path: '/hook', status: 200, body: 'ok' });
    await setSummaryMethod(user, 'webhook', hook);
    const secret = (await api<{ secret: string }>('GET', '/api/voice-settings/webhook-secret', { token: user.token })).body.data!.secret;
    const seeded = await seedCall(user.userId);

    await enqueueSummary(user.userId, seeded.id);
    const call = await settled(user, seeded.id, 1);

    expect(call.summaryStatus).toBe('completed');
    expect(call.summary).toEqual(SUMMARY);
    expect(call.deliveries).toMatchObject([{ method: 'webhook', attempt: 1, ok: true, status: 200 }]);
    // The model was asked for strict structured output with the transcript.
    const [request] = await modelRequests(key);
    const format = request!.body.response_format as { type: string; json_schema: { strict: boolean; schema: { required: string[]; additionalProperties: boolean } } };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.strict).toBe(true);
    expect(format.json_schema.schema.additionalProperties).toBe(false);
    expect(format.json_schema.schema.required).toContain('bookingExtracted');
    expect(JSON.stringify(request!.body.messages)).toContain('Caller: Hola, soy Ana García');
    // The receiver got the payload, signed over the raw body with the user's secret.
    const [received] = await site.requests('/hook');
    expect(received!.method).toBe('POST');
    const header = received!.headers[SUMMARY_SIGNATURE_HEADER.toLowerCase()] ?? '';
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    expect(match).not.toBeNull();
    const expected = createHmac('sha256', secret).update(`${match![1]}.${received!.body}`).digest('hex');
    expect(match![2]).toBe(expected);
    expect(Math.abs(Number(match![1]) - Date.now() / 1000)).toBeLessThan(60);
    const payload = JSON.parse(received!.body) as { event: string; call: VoiceConversation };
    expect(payload.event).toBe('call.summary');
    expect(payload.call._id).toBe(seeded.id);
    expect(payload.call.phoneNumber).toBe(seeded.phoneNumber);
    expect(payload.call.summary).toEqual(SUMMARY);
    expect(payload.call.messages).toHaveLength(4);
    expect(payload.call).not.toHaveProperty('settings');
    expect(payload.call).not.toHaveProperty('userId');
  });

  it('retries a failing webhook with backoff and records every attempt (500, 503, then 200)', async () => {
    const user = await agentsUser();
    await connectChatGpt(user);
    const site = webFixtures();
    const hook = await site.route({ path: '/flaky', status: 200, sequence: [{ status: 500 }, { status: 503 }] });
    await setSummaryMethod(user, 'webhook', hook);
    const seeded = await seedCall(user.userId);

    await enqueueSummary(user.userId, seeded.id);
    const call = await settled(user, seeded.id, 3);

    expect(call.summaryStatus).toBe('completed');
    expect(call.deliveries.map((d) => [d.attempt, d.ok, d.status])).toEqual([
      [1, false, 500],
      [2, false, 503],
      [3, true, 200],
    ]);
    expect(call.deliveries[0]!.error).toBe(deliveryReasons.webhookStatus(500));
    const requests = await site.requests('/flaky');
    expect(requests).toHaveLength(3);
    // Each attempt is signed afresh (same body).
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
  });

  it('retries invalid model output once, then marks the analysis failed with the reason; the worker goes on', async () => {
    const user = await agentsUser();
    const key = await connectChatGpt(user);
    await script(key, ['this is not JSON', JSON.stringify({ ...SUMMARY, urgency: 'whenever' })]);
    await setSummaryMethod(user, 'email');
    const broken = await seedCall(user.userId);
    const next = await seedCall(user.userId);

    await enqueueSummary(user.userId, broken.id);
    const failed = await settled(user, broken.id);
    await enqueueSummary(user.userId, next.id);
    const ok = await settled(user, next.id, 1);

    expect(failed.summaryStatus).toBe('failed');
    expect(failed.summary).toBeNull();
    expect(failed.summaryError).toContain(summaryReasons.invalidOutput);
    expect(failed.summaryError).toContain('urgency');
    expect(failed.deliveries).toEqual([]);
    expect((await modelRequests(key)).length).toBe(3);
    // Not retried by SQS, not dead-lettered: the record succeeded.
    expect((await deadLetters('call-summary')).some((d) => d.body.includes(broken.id))).toBe(false);
    // The next call of the same worker is analysed normally (fake model: schema-filled answer).
    expect(ok.summaryStatus).toBe('completed');
    expect(ok.summary?.quickSummary).toBeTruthy();
  });

  it('e-mails the summary to the account address (SES mailbox)', async () => {
    const user = await agentsUser();
    const key = await connectChatGpt(user);
    await script(key, [JSON.stringify(SUMMARY)]);
    await setSummaryMethod(user, 'email');
    const me = await api<{ email: string }>('GET', '/api/me', { token: user.token });
    const email = me.body.data!.email;
    const seeded = await seedCall(user.userId, { createdAt: '2026-11-26T09:15:00.000Z' });

    await enqueueSummary(user.userId, seeded.id);
    const call = await settled(user, seeded.id, 1);

    expect(call.deliveries).toMatchObject([{ method: 'email', attempt: 1, ok: true }]);
    const mail = await eventually(async () => (await mailsTo(email)).find((m) => m.subject.startsWith('Call summary')));
    expect(mail.subject).toBe(`Call summary: ${seeded.phoneNumber} (1:23)`);
    expect(mail.body.text).toContain(SUMMARY.quickSummary);
    expect(mail.body.text).toContain('- Confirm the booking by e-mail');
    expect(mail.body.text).toContain(`/voice-conversations/${seeded.id}`);
    // English words and the time of a profile that never chose a zone, named UTC.
    expect(mail.body.text).toContain('Sentiment: positive · Urgency: medium');
    expect(mail.body.text).toMatch(/^Call from .+ on Nov 26, 2026, 9:15\sAM UTC, 1:23 long\.$/m);
  });

  it('e-mails a Spanish owner the summary in Spanish, with the time in their zone (Europe/Madrid)', async () => {
    const user = await agentsUser();
    const key = await connectChatGpt(user);
    await script(key, [JSON.stringify({ ...SUMMARY, sentiment: 'negative', urgency: 'critical' })]);
    await setSummaryMethod(user, 'email');
    const profile = await api('PUT', '/api/user/profile', { token: user.token, body: { name: 'Lucía Peña', language: 'es', timeZone: 'Europe/Madrid' } });
    expect(profile.status).toBe(200);
    const email = (await api<{ email: string }>('GET', '/api/me', { token: user.token })).body.data!.email;
    const seeded = await seedCall(user.userId, { createdAt: '2026-11-26T09:15:00.000Z' });

    await enqueueSummary(user.userId, seeded.id);
    await settled(user, seeded.id, 1);

    const mail = await eventually(async () => (await mailsTo(email)).find((m) => m.subject.startsWith('Resumen de llamada')));
    expect(mail.subject).toBe(`Resumen de llamada: ${seeded.phoneNumber} (1:23)`);
    // 09:15 UTC is 10:15 in Madrid (CET) in November.
    expect(mail.body.text).toContain(`Llamada de ${seeded.phoneNumber} el 26 nov 2026, 10:15, duración 1:23.`);
    expect(mail.body.text).toContain('Sentimiento: negativo · Urgencia: crítica');
    expect(mail.body.text).not.toMatch(/negative|critical|UTC/);
    expect(mail.body.html).toContain('Urgencia: crítica');
  });

  it('WhatsApp: sent to the profile phone; outside the 24-hour window the attempt fails with the reason', async () => {
    const user = await agentsUser();
    const key = await connectChatGpt(user);
    await script(key, [JSON.stringify(SUMMARY), JSON.stringify(SUMMARY)]);
    const wa = await connectWhatsApp(user.token);
    const profile = await api('PUT', '/api/user/profile', { token: user.token, body: { name: 'Owner', phoneNumber: '+34611222333', language: 'en' } });
    expect(profile.status).toBe(200);
    await setSummaryMethod(user, 'whatsapp');
    const first = await seedCall(user.userId);
    const second = await seedCall(user.userId);

    await enqueueSummary(user.userId, first.id);
    const delivered = await settled(user, first.id, 1);
    await failGraphSends(wa.phoneId, { status: 400, code: 131047, message: 'Re-engagement message' });
    await enqueueSummary(user.userId, second.id);
    const refused = await settled(user, second.id, 1);

    expect(delivered.deliveries).toMatchObject([{ method: 'whatsapp', ok: true }]);
    const sends = await graphSends(wa.phoneId);
    expect(sends[0]!.to).toBe('34611222333');
    expect(sends[0]!.text).toContain(SUMMARY.quickSummary);
    expect(refused.deliveries).toMatchObject([{ method: 'whatsapp', attempt: 1, ok: false, error: deliveryReasons.whatsappWindow }]);
    expect(refused.deliveries[0]!.error).toMatch(/24 hours/);
  });

  it('fails without the ChatGPT integration, skips a call where the caller said nothing, and never redoes a finished analysis', async () => {
    const user = await agentsUser();
    await setSummaryMethod(user, 'email');
    const noAi = await seedCall(user.userId);
    const silent = await seedCall(user.userId, { messages: [agentTurn('Hola, gracias por llamar.')] });

    await enqueueSummary(user.userId, noAi.id);
    await enqueueSummary(user.userId, silent.id);
    const failed = await settled(user, noAi.id);
    const skipped = await settled(user, silent.id);

    expect(failed).toMatchObject({ summaryStatus: 'failed', summary: null, summaryError: summaryReasons.noIntegration, deliveries: [] });
    expect(skipped.summaryStatus).toBe('skipped');

    // Connected now, the same message again: the failed analysis is kept (idempotent), no model call.
    const key = await connectChatGpt(user);
    await enqueueSummary(user.userId, noAi.id);
    await sleep(1500);
    expect((await getCall(user.token, noAi.id))?.summaryStatus).toBe('failed');
    expect(await modelRequests(key)).toEqual([]);
  });
});
