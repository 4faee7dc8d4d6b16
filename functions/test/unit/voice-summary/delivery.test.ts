import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SUMMARY_SIGNATURE_HEADER, SUMMARY_WEBHOOK_ATTEMPTS } from '../../../src/contract/voice.js';
import { GraphError } from '../../../src/domain/whatsapp/ports.js';
import {
  createSummaryDelivery,
  deliveryReasons,
  handoffEmailRenderer,
  recordSummaryEmail,
  summaryEmailRenderer,
  formatDuration,
  signSummaryBody,
  type DeliveryDeps,
  type WebhookPostResult,
} from '../../../src/domain/voice/delivery.js';
import { MemoryCallRepository, storedCall, turn, validSummary } from './fakes.js';

const user = { email: 'owner@example.com', name: 'Owner', phoneNumber: '+34600999888', language: 'en' as const };

function setup(overrides: Partial<DeliveryDeps> = {}, answers: WebhookPostResult[] = []) {
  const call = storedCall({ summaryStatus: 'completed', summary: validSummary });
  const calls = new MemoryCallRepository(call);
  const mails: Array<{ to: string; subject: string; text: string }> = [];
  const posts: Array<{ url: string; body: string; headers: Record<string, string> }> = [];
  const sleeps: number[] = [];
  const texts: Array<{ to: string; text: string }> = [];
  const deps: DeliveryDeps = {
    calls,
    users: { get: async () => user },
    whatsapp: {
      connection: async () => ({ credentials: { bearerToken: 't', businessId: 'b', phoneId: '1' } }),
      sendText: async (_c, to, text) => void texts.push({ to, text }),
    },
    webhook: {
      post: async (url, body, headers) => {
        posts.push({ url, body, headers });
        return answers.shift() ?? { ok: true, status: 200 };
      },
    },
    signingSecret: async () => 'whsec_test',
    appUrl: 'https://app.example.com',
    retryBaseMs: 100,
    sleep: async (ms) => void sleeps.push(ms),
    now: () => new Date('2026-03-01T10:05:00.000Z'),
    ...overrides,
  };
  return { call, calls, mails, posts, sleeps, texts, delivery: createSummaryDelivery(deps) };
}

const stored = async (calls: MemoryCallRepository, id: string) => (await calls.get('user-1', id))!.deliveries;

describe('summary delivery', () => {
  it('formats durations as minutes:seconds', () => {
    expect(formatDuration(95_000)).toBe('1:35');
    expect(formatDuration(0)).toBe('0:00');
  });

  it('renders the summary e-mail when the outbound-email worker sends it (issue 34): the stored analysis, in the owner’s language, with a link to the call', async () => {
    const { call, calls, mails } = setup();
    const render = summaryEmailRenderer({ calls, appUrl: 'https://app.example.com' });
    const ref = { kind: 'call-summary' as const, userId: call.userId, subjectId: call.id };
    const mail = (await render(ref, { email: user.email, language: 'en' }))!;
    expect(mail.subject).toBe('Call summary: +34600111222 (1:35)');
    expect(mail.text).toContain(validSummary.quickSummary);
    expect(mail.text).toContain('- Confirm the booking');
    expect(mail.text).toContain(`https://app.example.com/voice-conversations/${call.id}`);
    expect((await render(ref, { email: user.email, language: 'es' }))!.subject).toBe('Resumen de llamada: +34600111222 (1:35)');
    // Nothing to send once the call (or its completed summary) is gone; the delivery never e-mails by itself.
    expect(await render({ ...ref, subjectId: 'GONE' }, { email: user.email, language: 'en' })).toBeNull();
    expect(mails).toEqual([]);
    // How each send ended joins the call's deliveries (attempt n = the n-th send).
    const record = recordSummaryEmail({ calls });
    await record(ref, { state: 'failed', reason: 'unavailable', tries: 8, resends: 0, at: '2026-03-01T10:50:00.000Z' });
    await record(ref, { state: 'sent', tries: 1, resends: 1, at: '2026-03-01T11:00:00.000Z' });
    expect(await stored(calls, call.id)).toEqual([
      { method: 'email', attempt: 1, at: '2026-03-01T10:50:00.000Z', ok: false, error: deliveryReasons.emailFailed },
      { method: 'email', attempt: 2, at: '2026-03-01T11:00:00.000Z', ok: true },
    ]);
  });

  it('signs the webhook body with the HMAC header and records the success', async () => {
    const { call, posts, delivery } = setup();
    const attempts = await delivery.deliver(call, validSummary, { method: 'webhook', webhookUrl: 'https://hooks.example.com/x' });
    expect(attempts).toMatchObject([{ method: 'webhook', attempt: 1, ok: true, status: 200 }]);
    const { body, headers } = posts[0]!;
    const t = Math.floor(new Date('2026-03-01T10:05:00.000Z').getTime() / 1000);
    const expected = createHmac('sha256', 'whsec_test').update(`${t}.${body}`).digest('hex');
    expect(headers[SUMMARY_SIGNATURE_HEADER]).toBe(`t=${t},v1=${expected}`);
    expect(signSummaryBody('whsec_test', body, t)).toBe(headers[SUMMARY_SIGNATURE_HEADER]);
    const payload = JSON.parse(body);
    expect(payload.event).toBe('call.summary');
    expect(payload.call._id).toBe(call.id);
    expect(payload.call.summary).toEqual(validSummary);
    expect(payload.call).not.toHaveProperty('deliveries');
    expect(payload.call).not.toHaveProperty('settings');
    expect(payload.call).not.toHaveProperty('userId');
  });

  it('retries a failing webhook with exponential backoff, recording each attempt', async () => {
    const { call, calls, sleeps, delivery } = setup({}, [
      { ok: false, status: 500, error: 'The webhook answered HTTP 500.' },
      { ok: false, error: 'timed out' },
      { ok: true, status: 204 },
    ]);
    const attempts = await delivery.deliver(call, validSummary, { method: 'webhook', webhookUrl: 'https://hooks.example.com/x' });
    expect(attempts.map((a) => [a.attempt, a.ok, a.status])).toEqual([
      [1, false, 500],
      [2, false, undefined],
      [3, true, 204],
    ]);
    expect(sleeps).toEqual([100, 200]);
    expect(await stored(calls, call.id)).toHaveLength(3);
  });

  it(`gives up after ${SUMMARY_WEBHOOK_ATTEMPTS} attempts, and at once when the URL is refused`, async () => {
    const fail = { ok: false as const, status: 503, error: 'x' };
    const a = setup({}, [fail, fail, fail, fail]);
    expect(await a.delivery.deliver(a.call, validSummary, { method: 'webhook', webhookUrl: 'https://h.example.com' })).toHaveLength(SUMMARY_WEBHOOK_ATTEMPTS);
    const b = setup({}, [{ ok: false, error: 'refused', permanent: true }]);
    expect(await b.delivery.deliver(b.call, validSummary, { method: 'webhook', webhookUrl: 'http://10.0.0.1/' })).toMatchObject([{ ok: false, error: 'refused' }]);
    expect(b.posts).toHaveLength(1);
  });

  it('sends WhatsApp to the profile phone; outside the 24-hour window the attempt fails with a clear reason', async () => {
    const ok = setup();
    expect(await ok.delivery.deliver(ok.call, validSummary, { method: 'whatsapp', webhookUrl: '' })).toMatchObject([{ method: 'whatsapp', ok: true }]);
    expect(ok.texts[0]!.to).toBe('34600999888');
    expect(ok.texts[0]!.text).toContain(validSummary.quickSummary);

    const closed = setup({
      whatsapp: {
        connection: async () => ({ credentials: { bearerToken: 't', businessId: 'b', phoneId: '1' } }),
        sendText: async () => {
          throw new GraphError('bad_request', 'Re-engagement message', 131047);
        },
      },
    });
    const attempts = await closed.delivery.deliver(closed.call, validSummary, { method: 'whatsapp', webhookUrl: '' });
    expect(attempts).toMatchObject([{ method: 'whatsapp', ok: false, error: deliveryReasons.whatsappWindow }]);
    expect(deliveryReasons.whatsappWindow).toMatch(/24 hours/);
  });

  it('records a failed attempt without a WhatsApp integration or profile phone', async () => {
    const noWa = setup({ whatsapp: { connection: async () => null, sendText: async () => undefined } });
    expect(await noWa.delivery.deliver(noWa.call, validSummary, { method: 'whatsapp', webhookUrl: '' })).toMatchObject([{ ok: false, error: deliveryReasons.noWhatsApp }]);
    const noPhone = setup({ users: { get: async () => ({ ...user, phoneNumber: '' }) } });
    expect(await noPhone.delivery.deliver(noPhone.call, validSummary, { method: 'whatsapp', webhookUrl: '' })).toMatchObject([{ ok: false, error: deliveryReasons.noProfilePhone }]);
  });
});

describe('handoff notice', () => {
  const forwarded = () =>
    storedCall({
      status: 'active',
      contact: { _id: 'c1', name: 'Ana', phoneNumber: '+34600111222' },
      escalationReason: 'Wants to speak to the doctor',
      settings: { ...storedCall().settings, escalationForwardNumber: '+34910000099' },
      messages: [turn('agent', 'Hola, ¿en qué puedo ayudarle?'), turn('user', 'Quiero hablar con la doctora   García'), turn('agent', 'Le paso con una persona.')],
    });

  /** The handoff e-mail as the outbound-email worker renders it when it sends (issue 34: queued by the call-summary job with the analysis so far). */
  const renderHandoff = async (call: ReturnType<typeof forwarded>, summary: typeof validSummary | null, language: 'en' | 'es') => {
    const calls = new MemoryCallRepository({ ...call, handoffSummary: summary });
    const mail = await handoffEmailRenderer({ calls, appUrl: 'https://app.example.com' })({ kind: 'call-handoff', userId: call.userId, subjectId: call.id }, { email: user.email, language });
    return { calls, mail: mail! };
  };

  it('e-mails the owner in their language: who is being transferred to which number, why, the analysis and the conversation so far', async () => {
    const call = forwarded();
    const { calls, mail } = await renderHandoff(call, validSummary, 'es');

    expect(mail.subject).toBe('Llamada transferida a usted: Ana (+34600111222)');
    expect(mail.text).toContain('El agente de IA está transfiriendo ahora una llamada de Ana (+34600111222) a +34910000099.');
    expect(mail.text).toContain('Motivo: Wants to speak to the doctor');
    expect(mail.text).toContain(`Resumen hasta ahora: ${validSummary.quickSummary}`);
    expect(mail.text).toContain('Conversación hasta ahora:\nAgente: Hola, ¿en qué puedo ayudarle?\nCliente: Quiero hablar con la doctora García\nAgente: Le paso con una persona.');
    expect(mail.text).toContain(`https://app.example.com/voice-conversations/${call.id}`);
    expect(mail.html).toContain('<p style="margin:4px 0">Cliente: Quiero hablar con la doctora García</p>');
    // Not a summary delivery: nothing recorded among the call's attempts.
    expect(await stored(calls, call.id)).toEqual([]);
  });

  it('in English without an analysis: the conversation only; long conversations keep their newest part', async () => {
    const call = forwarded();
    call.messages.unshift(...Array.from({ length: 80 }, (_, i) => turn('user', `older line ${i} ${'x'.repeat(40)}`)));
    const { mail } = await renderHandoff(call, null, 'en');

    const text = mail.text;
    expect(mail.subject).toBe('Call being transferred to you: Ana (+34600111222)');
    expect(text).toContain('The AI agent is transferring a call from Ana (+34600111222) to +34910000099 now.');
    expect(text).not.toContain('Summary so far');
    expect(text).toContain('Caller: Quiero hablar con la doctora García');
    expect(text).not.toContain('older line 0 ');
    expect(text).toContain('[…]');
  });

  it('sends WhatsApp to the profile phone; reports (never throws) a missing phone, a missing integration or a closed window', async () => {
    const call = forwarded();
    const ok = setup();
    const noPhone = setup({ users: { get: async () => ({ ...user, phoneNumber: '' }) } });
    const noWhatsApp = setup({ whatsapp: { connection: async () => null, sendText: async () => undefined } });
    const closed = setup({
      whatsapp: {
        connection: async () => ({ credentials: {} }),
        sendText: async () => {
          throw new GraphError('bad_request', 'Re-engagement message', 131047);
        },
      },
    });

    expect(await ok.delivery.notifyHandoff(call, validSummary)).toEqual({ ok: true });
    expect(ok.texts).toHaveLength(1);
    expect(ok.texts[0]!.to).toBe('34600999888');
    expect(ok.texts[0]!.text).toMatch(/^\*Call being transferred to you: Ana \(\+34600111222\)\*\n/);
    expect(await noPhone.delivery.notifyHandoff(call, null)).toEqual({ ok: false, error: deliveryReasons.noProfilePhone });
    expect(await noWhatsApp.delivery.notifyHandoff(call, null)).toEqual({ ok: false, error: deliveryReasons.noWhatsApp });
    expect(await closed.delivery.notifyHandoff(call, null)).toEqual({ ok: false, error: deliveryReasons.whatsappWindow });
  });
});
