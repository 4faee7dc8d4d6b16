/**
 * Shared set-up for the bookings integration tests (issue 30): a Spanish clinic in Europe/Madrid
 * with an agent whose Bookings switch is on, its bookings read back through the API, the Twilio
 * Voice number of a clinic on the fake Twilio, and a WhatsApp customer's message that makes the
 * fake OpenAI call a tool (local/fake-openai/brain.ts rule 3).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Agent } from '../../src/contract/agents.js';
import { VOICE_DEFAULTS, type TwilioSetupResult, type VoiceSettings } from '../../src/contract/voice.js';
import type { Booking, BookingList, BookingService, BookingStaff, WeeklyHours } from '../../src/contract/bookings.js';
import { createAnsweringAgent } from './agents-api.js';
import { api, provided, until, type ApiResponse } from './api.js';
import { subscribedUser } from './billing.js';
import { graphSends, metaDelivery, postWebhook, randomDigits, signMetaBody, textMessage, type ConnectedWhatsApp, type WaCustomer } from './whatsapp.js';

export const ZONE = 'Europe/Madrid';
const DAY_MS = 86_400_000;
export const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** The first Tuesday (or other weekday, 1 = Monday … 5 = Friday) at least a week ahead. */
export const weekdayAhead = (weekday: number) => {
  const from = addDays(today(), 7);
  const dow = (new Date(`${from}T12:00:00Z`).getUTCDay() + 6) % 7; // 0 = Monday
  return addDays(from, (weekday - 1 - dow + 7) % 7);
};
/** The Madrid wall-clock "YYYY-MM-DDTHH:mm" of an instant. */
export const localOf = (iso: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: ZONE, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
};

const mornings = [{ start: '09:00', end: '14:00' }];
export const WEEKDAYS_9_14: WeeklyHours = { mon: mornings, tue: mornings, wed: mornings, thu: mornings, fri: mornings, sat: [], sun: [] };

export interface Clinic {
  token: string;
  userId: string;
  key: string;
  agent: Agent;
  service: BookingService;
  staff: BookingStaff;
}

/** The response's data, after checking its status. */
export async function must<T>(res: Promise<ApiResponse<T>>, status = 200): Promise<T> {
  const r = await res;
  expect(r.status, `${r.status} ${r.body.message}`).toBe(status);
  return r.body.data as T;
}

/** A subscribed Spanish clinic with ChatGPT, a Spanish answering agent with Bookings on, one doctor (weekdays 9–14) and a 30-minute cleaning. */
export async function clinic(profile: { phoneNumber?: string } = {}): Promise<Clinic> {
  const { token, userId } = await subscribedUser('starter');
  await must(api('PUT', '/api/user/profile', { token, body: { name: 'Clínica Peña', language: 'es', timeZone: ZONE, country: 'ES', phoneNumber: profile.phoneNumber ?? '' } }));
  const key = `sk-test-${randomUUID()}`;
  await must(api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } }));
  const created = await createAnsweringAgent(token);
  const agent = await must<Agent>(api('PUT', `/api/agents/${created._id}`, { token, body: { bookingsEnabled: true, language: 'es' } }));
  expect(agent.bookingsEnabled).toBe(true);
  await must(
    api('PUT', '/api/bookings/settings', {
      token,
      body: { timeZone: ZONE, minNoticeMinutes: 60, maxAdvanceDays: 90, slotStepMinutes: 30, closures: [], remindersEnabled: false, reminderHours: 24, confirmationTemplate: null, reminderTemplate: null, emailOwner: false },
    }),
  );
  const staff = await must<BookingStaff>(api('POST', '/api/bookings/staff', { token, body: { name: 'Dra. García', weeklyHours: WEEKDAYS_9_14 } }), 201);
  const service = await must<BookingService>(
    api('POST', '/api/bookings/services', { token, body: { name: 'Limpieza dental', durationMinutes: 30, priceCents: 4500, staffIds: [staff._id] } }),
    201,
  );
  return { token, userId, key, agent, service, staff };
}

/** The clinic's bookings of the next two months (every status). */
export async function bookingsOf(c: Pick<Clinic, 'token'>): Promise<Booking[]> {
  const list = await must<BookingList>(api('GET', `/api/bookings?from=${today()}&to=${addDays(today(), 60)}`, { token: c.token }));
  return list.bookings;
}

export interface ClinicVoice {
  accountSid: string;
  authToken: string;
  number: string;
  setup: TwilioSetupResult;
}

/** The clinic's Twilio Voice number on the fake Twilio, with these voice settings over the defaults (conversationMode picks streaming or <Gather>). */
export async function clinicVoice(token: string, settings: Partial<VoiceSettings>): Promise<ClinicVoice> {
  const number = `+3491${randomDigits(7)}`;
  const res = await fetch(`${provided('twilioApiUrl')}/_test/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ numbers: [number] }) });
  const account = (await res.json()) as { accountSid: string; authToken: string };
  const setup = await must<TwilioSetupResult>(
    api('POST', '/api/integrations/twilio-voice/setup', { token, body: { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number } }),
  );
  await must(api('PUT', '/api/voice-settings', { token, body: { ...VOICE_DEFAULTS, ...settings } }));
  return { ...account, number, setup };
}

/** The WhatsApp customer writes `text` (a signed delivery through the webhook, queue and worker); resolves the agent's reply that says `tool`'s result. */
/** Issue 33: a Spanish (EU) account's first agent reply starts with the AI notice, a paragraph of its own: the reply without it. */
export const withoutAiNotice = (text: string) => text.replace(/^(Estás hablando con un asistente de inteligencia artificial|You are talking to an AI assistant)[^\n]*\n\n/, '');

export async function sayOnWhatsApp(wa: ConnectedWhatsApp, customer: WaCustomer, text: string, tool: string): Promise<string> {
  const before = (await graphSends(wa.phoneId)).length;
  const body = metaDelivery(wa, { messages: [textMessage(customer, text)] });
  const res = await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret));
  expect(res.status).toBe(200);
  const reply = await until(async () => (await graphSends(wa.phoneId)).slice(before).find((s) => s.to === customer.waId && withoutAiNotice(s.text ?? '').startsWith(`Tool ${tool} returned:`)), `the ${tool} reply`, 30_000);
  return withoutAiNotice(reply.text ?? '');
}
