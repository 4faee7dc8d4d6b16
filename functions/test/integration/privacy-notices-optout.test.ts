/**
 * Issue 33 on the local stack: the AI notice on a WhatsApp conversation's first agent reply and in
 * a call's greeting (the recording notice before anything else), on by default for a Spanish
 * account and off for a US one; a customer's "BAJA" (opted out: the confirmation instead of the
 * agent, the contact and the conversation show it, a reminder due is skipped with the reason, a
 * template is refused with nothing sent) and "ALTA"; the owner's PUT /api/privacy/opt-out with a
 * number in national format. Signed Meta deliveries through the whatsapp-inbound worker, signed
 * Twilio webhooks, the fake Graph API and OpenAI (which answers "Echo: …").
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import type { Booking, BookingCustomerMessage, BookingService, BookingStaff } from '../../src/contract/bookings.js';
import type { Contact } from '../../src/contract/contacts.js';
import { privacyMessages, type OptOutState } from '../../src/contract/privacy.js';
import { VOICE_DEFAULTS, type TwilioSetupResult, type VoiceSettings } from '../../src/contract/voice.js';
import type { ConversationDetail } from '../../src/contract/whatsapp.js';
import { newCallSid } from '../../local/fake-twilio/call-simulator.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, db, provided, tableName, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { listContacts } from '../support/contacts.js';
import { DAY, HOUR, spanishWaId } from '../support/conversations.js';
import { callRepo, callerNumber } from '../support/seed-calls.js';
import { drainQueues } from '../support/stack-clients.js';
import { connectWhatsApp, graphSends, metaDelivery, postWebhook, randomDigits, signMetaBody, textMessage, waCustomer, type ConnectedWhatsApp, type WaCustomer } from '../support/whatsapp.js';

const BUSINESS = 'Clínica Sonrisa';
const AI_ES = `Estás hablando con un asistente de inteligencia artificial de ${BUSINESS}. Puedes pedir hablar con una persona en cualquier momento.`;
const RECORDING_ES = 'Esta llamada se está grabando.';

async function ok<T>(res: Promise<{ status: number; body: { data?: T; message?: string } }>, what: string): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.body.message}`);
  return r.body.data as T;
}

/** A subscribed account in `country` with ChatGPT (its own fake OpenAI key) and an enabled agent speaking `language`. */
async function account(country: 'es' | 'us', language: 'es' | 'en') {
  const { token, userId } = await subscribedUser('starter');
  await ok(api('PUT', '/api/user/profile', { token, body: { name: BUSINESS, language, country } }), 'profile');
  await ok(api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: `sk-test-${randomUUID()}`, model: 'gpt-4o' } }), 'chatgpt');
  const agent = await createAnsweringAgent(token);
  await ok(api('PUT', `/api/agents/${agent._id}`, { token, body: { language } }), 'agent language');
  return { token, userId, agent };
}

async function whatsappAccount(country: 'es' | 'us', language: 'es' | 'en') {
  const a = await account(country, language);
  return { ...a, wa: await connectWhatsApp(a.token) };
}

/** The customer writes `text` (a signed delivery); resolves with the texts the fake Graph API then holds for them. */
async function write(wa: ConnectedWhatsApp, customer: WaCustomer, text: string, expectedSends: number): Promise<string[]> {
  const body = metaDelivery(wa, { messages: [textMessage(customer, text)] });
  expect((await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret))).status).toBe(200);
  return until(async () => {
    const texts = (await graphSends(wa.phoneId)).filter((s) => s.to === customer.waId && s.status === 200).map((s) => s.text);
    return texts.length >= expectedSends ? texts : undefined;
  }, `${expectedSends} sends`);
}

const conversationOf = async (token: string) => {
  const list = await ok(api<{ _id: string }[]>('GET', '/api/conversations', { token }), 'conversations');
  return ok(api<ConversationDetail>('GET', `/api/conversations/${list[0]!._id}`, { token }), 'conversation');
};

describe('WhatsApp: the AI notice', () => {
  it('a Spanish account: the first agent reply starts with the Spanish notice (stored so), the second does not', async () => {
    const s = await whatsappAccount('es', 'es');
    const lucia = waCustomer('Lucía Gómez', spanishWaId());

    const first = await write(s.wa, lucia, '¿Abrís el sábado?', 1);
    expect(first).toEqual([`${AI_ES}\n\nEcho: ¿Abrís el sábado?`]);
    const second = await write(s.wa, lucia, '¿Y el domingo?', 2);
    expect(second[1]).toBe('Echo: ¿Y el domingo?');

    const detail = await conversationOf(s.token);
    expect(detail.messages.filter((m) => m.fromMe).map((m) => m.body)).toEqual([first[0], 'Echo: ¿Y el domingo?']);
    expect(detail.optOut).toBeNull();
  }, 60_000);

  it('a US account: no notice by default', async () => {
    const s = await whatsappAccount('us', 'en');
    const ana = waCustomer('Ann Lee', `1415${randomDigits(7)}`);
    expect(await write(s.wa, ana, 'Are you open on Saturday?', 1)).toEqual(['Echo: Are you open on Saturday?']);
  }, 60_000);
});

describe('WhatsApp: opting out', () => {
  it('"BAJA": opted out, the confirmation instead of the agent, shown on the contact; a reminder is skipped with the reason, a template refused; "ALTA" reverses it', async () => {
    const s = await whatsappAccount('es', 'es');
    const lucia = waCustomer('Lucía Gómez', spanishWaId());
    const e164 = `+${lucia.waId}`;
    await write(s.wa, lucia, 'Hola', 1);

    const sends = await write(s.wa, lucia, 'BAJA', 2);
    expect(sends[1]).toBe(privacyMessages.optedOutReply.es);
    await drainQueues();
    expect((await graphSends(s.wa.phoneId)).filter((x) => x.to === lucia.waId)).toHaveLength(2);
    const detail = await conversationOf(s.token);
    expect(detail.messages.map((m) => [m.fromMe, m.body])).toEqual([
      [false, 'Hola'],
      [true, `${AI_ES}\n\nEcho: Hola`],
      [false, 'BAJA'],
      [true, privacyMessages.optedOutReply.es],
    ]);
    expect(detail.optOut).toMatchObject({ keyword: 'BAJA' });
    const contact = (await listContacts(s.token)).body.data!.find((c: Contact) => c.phoneNumber === e164)!;
    expect(contact.optOut).toMatchObject({ keyword: 'BAJA' });
    expect((await ok(api<Contact>('GET', `/api/contacts/${contact._id}`, { token: s.token }), 'contact')).optOut).toMatchObject({ keyword: 'BAJA' });

    // A reminder due for them: not sent, and the booking says why.
    const staff = await ok(api<BookingStaff>('POST', '/api/bookings/staff', { token: s.token, body: { name: 'Dra. García', weeklyHours: allWeek } }), 'staff');
    const service = await ok(api<BookingService>('POST', '/api/bookings/services', { token: s.token, body: { name: 'Limpieza dental', durationMinutes: 30, staffIds: [staff._id] } }), 'service');
    await ok(api('PUT', '/api/bookings/settings', { token: s.token, body: bookingSettings }), 'settings');
    const start = new Date(Math.ceil((Date.now() + 30 * HOUR) / (30 * 60_000)) * 30 * 60_000).toISOString();
    const booking = await ok(
      api<Booking>('POST', '/api/bookings', { token: s.token, body: { serviceId: service._id, staffId: staff._id, start, customer: { name: 'Lucía Gómez', phone: lucia.waId.slice(2) } } }),
      'book',
    );
    await drainQueues();
    const reminders = await fetch(`${provided('apiUrl')}/_local/schedules/booking-reminders/run?time=${encodeURIComponent(new Date(Date.parse(start) - 24 * HOUR + 60_000).toISOString())}`, { method: 'POST' });
    expect(reminders.status).toBe(200);
    await drainQueues();
    const records = await ok(api<BookingCustomerMessage[]>('GET', `/api/bookings/${booking._id}/messages`, { token: s.token }), 'records');
    expect(records).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'created', state: 'not_sent', reason: 'opted_out' }),
      expect.objectContaining({ kind: 'reminder', state: 'not_sent', reason: 'opted_out' }),
    ]));

    // Outside the 24-hour window: the owner's template is refused with the word, nothing goes to the fake Graph API.
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${s.userId}`, sk: `CONV#${detail.conversation._id}` }, UpdateExpression: 'SET lastInboundAt = :t', ExpressionAttributeValues: { ':t': new Date(Date.now() - 2 * DAY).toISOString() } }),
    );
    const before = (await graphSends(s.wa.phoneId)).length;
    const template = await api('POST', `/api/conversations/${detail.conversation._id}/template`, { token: s.token, body: { name: 'retomar_conversacion', language: 'es', parameters: ['Lucía'] } });
    expect(template.status).toBe(409);
    expect(template.body.message).toBe(privacyMessages.optedOut('BAJA'));
    expect(await graphSends(s.wa.phoneId)).toHaveLength(before);

    // "alta" (any case): the confirmation, and they receive messages again.
    const again = await write(s.wa, lucia, 'alta', before + 1);
    expect(again.at(-1)).toBe(privacyMessages.optedInReply.es);
    expect((await ok(api<Contact>('GET', `/api/contacts/${contact._id}`, { token: s.token }), 'contact')).optOut).toBeNull();
  }, 60_000);

  it('the owner sets and clears it for a number typed in national format; bad input is a 400', async () => {
    const s = await account('es', 'es');
    const waId = spanishWaId();
    const national = `${waId.slice(2, 5)} ${waId.slice(5, 7)} ${waId.slice(7, 9)} ${waId.slice(9)}`;
    const set = await api<{ phoneNumber: string; optOut: OptOutState | null }>('PUT', '/api/privacy/opt-out', { token: s.token, body: { phoneNumber: national, optedOut: true } });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ phoneNumber: `+${waId}`, optOut: { keyword: 'owner' } });
    const cleared = await api<{ optOut: OptOutState | null }>('PUT', '/api/privacy/opt-out', { token: s.token, body: { phoneNumber: `+${waId}`, optedOut: false } });
    expect(cleared.body.data).toMatchObject({ phoneNumber: `+${waId}`, optOut: null });
    expect((await api('PUT', '/api/privacy/opt-out', { token: s.token, body: { phoneNumber: 'no es un número', optedOut: true } })).status).toBe(400);
    expect((await api('PUT', '/api/privacy/opt-out', { token: s.token, body: { optedOut: true } })).status).toBe(400);
    expect((await api('PUT', '/api/privacy/opt-out', { token: s.token, body: { contactId: '0000000001abcdef', optedOut: true } })).status).toBe(404);
  }, 60_000);
});

const allDay = [{ start: '00:00', end: '24:00' }];
const allWeek = { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay };
const bookingSettings = {
  timeZone: 'Europe/Madrid',
  minNoticeMinutes: 0,
  maxAdvanceDays: 60,
  slotStepMinutes: 15,
  closures: [],
  remindersEnabled: true,
  reminderHours: 24,
  confirmationTemplate: null,
  reminderTemplate: null,
  emailOwner: false,
};

describe('calls: the greeting says it is an AI; a recorded call says so first', () => {
  async function voiceAccount(settings: Partial<VoiceSettings>) {
    const a = await account('es', 'es');
    const number = `+3491${randomDigits(7)}`;
    const res = await fetch(`${provided('twilioApiUrl')}/_test/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ numbers: [number] }) });
    const twilioAccount = (await res.json()) as { accountSid: string; authToken: string };
    const setup = await ok(api<TwilioSetupResult>('POST', '/api/integrations/twilio-voice/setup', { token: a.token, body: { ...twilioAccount, phoneNumber: number } }), 'twilio');
    await ok(api('PUT', '/api/voice-settings', { token: a.token, body: { ...VOICE_DEFAULTS, language: 'es-ES', voice: 'Polly.Lucia', ...settings } }), 'voice settings');
    return { ...a, ...twilioAccount, number, webhookUrl: setup.webhookUrl };
  }

  async function incoming(u: Awaited<ReturnType<typeof voiceAccount>>) {
    const params = { AccountSid: u.accountSid, CallSid: newCallSid(), From: callerNumber(), To: u.number, Direction: 'inbound', CallStatus: 'ringing' };
    const res = await fetch(u.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(u.authToken, u.webhookUrl, params) },
      body: new URLSearchParams(params).toString(),
    });
    expect(res.status).toBe(200);
    return { twiml: await res.text(), call: (await callRepo().getBySid(u.userId, params.CallSid))! };
  }

  const welcome = 'Hola, gracias por llamar. ¿En qué puedo ayudarte?';

  it('the <Gather> path, recorded: the recording notice before the recording starts, then the greeting with the AI notice; both in the transcript', async () => {
    const u = await voiceAccount({ conversationMode: 'gather', enableRecording: true, messageWelcome: welcome });
    const { twiml, call } = await incoming(u);
    const say = twiml.indexOf(RECORDING_ES);
    expect(say).toBeGreaterThan(-1);
    expect(say).toBeLessThan(twiml.indexOf('<Start>'));
    expect(twiml.indexOf('<Start>')).toBeLessThan(twiml.indexOf(AI_ES));
    expect(call.messages.map((m) => [m.role, m.content])).toEqual([
      ['agent', RECORDING_ES],
      ['agent', `${AI_ES} ${welcome}`],
    ]);
  }, 60_000);

  it('the streamed path: the notice before <Connect>, the AI notice in welcomeGreeting; not recorded = no recording notice', async () => {
    const recorded = await voiceAccount({ conversationMode: 'streaming', enableRecording: true, messageWelcome: welcome });
    const r = await incoming(recorded);
    expect(r.twiml).toContain('<ConversationRelay');
    expect(r.twiml.indexOf(RECORDING_ES)).toBeLessThan(r.twiml.indexOf('<Connect'));
    expect(r.twiml).toContain(`welcomeGreeting="${AI_ES} ${welcome}"`);
    expect(r.call.messages.map((m) => m.content)).toEqual([RECORDING_ES, `${AI_ES} ${welcome}`]);

    const plain = await voiceAccount({ conversationMode: 'streaming', enableRecording: false, messageWelcome: welcome });
    const p = await incoming(plain);
    expect(p.twiml).not.toContain(RECORDING_ES);
    expect(p.call.messages.map((m) => m.content)).toEqual([`${AI_ES} ${welcome}`]);
  }, 60_000);
});
