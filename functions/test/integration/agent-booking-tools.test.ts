/**
 * The agent's built-in booking tools (issue 30) end to end on the local stack, for a Spanish clinic
 * (Europe/Madrid, a Spanish agent): the Bookings switch in the agents API; WhatsApp with signed
 * deliveries through the webhook, queue and worker (find_slots → book → find_my_bookings →
 * reschedule → cancel_booking, each checked in the bookings API); a streamed call through the
 * relay simulator that books for the caller's number; and the Test Agent chat, which books for the
 * owner's profile phone. The fake OpenAI calls a tool when the customer's message names it, with
 * its key=value arguments (local/fake-openai/brain.ts rule 3), and says the tool's result back
 * (rule 1: "Tool <name> returned: …").
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Agent, ChatReply } from '../../src/contract/agents.js';
import { VOICE_DEFAULTS, type TwilioSetupResult } from '../../src/contract/voice.js';
import type { Booking, BookingList, BookingService, BookingStaff, WeeklyHours } from '../../src/contract/bookings.js';
import { RELAY_FILLERS } from '../../src/domain/voice/relay/session.js';
import { simulateCall } from '../../local/fake-twilio/call-simulator.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, provided, until, type ApiResponse } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { callerNumber } from '../support/seed-calls.js';
import { connectWhatsApp, graphSends, metaDelivery, postWebhook, randomDigits, signMetaBody, textMessage, waCustomer, type ConnectedWhatsApp, type WaCustomer } from '../support/whatsapp.js';

const ZONE = 'Europe/Madrid';
const DAY_MS = 86_400_000;
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** The first Tuesday (or other weekday, 1 = Monday … 5 = Friday) at least a week ahead. */
const weekdayAhead = (weekday: number) => {
  const from = addDays(today(), 7);
  const dow = (new Date(`${from}T12:00:00Z`).getUTCDay() + 6) % 7; // 0 = Monday
  return addDays(from, (weekday - 1 - dow + 7) % 7);
};
/** The Madrid wall-clock "YYYY-MM-DDTHH:mm" of an instant. */
const localOf = (iso: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: ZONE, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
};

const mornings = [{ start: '09:00', end: '14:00' }];
const WEEKDAYS_9_14: WeeklyHours = { mon: mornings, tue: mornings, wed: mornings, thu: mornings, fri: mornings, sat: [], sun: [] };

interface Clinic {
  token: string;
  userId: string;
  key: string;
  agent: Agent;
  service: BookingService;
  staff: BookingStaff;
}

async function must<T>(res: Promise<ApiResponse<T>>, status = 200): Promise<T> {
  const r = await res;
  expect(r.status, `${r.status} ${r.body.message}`).toBe(status);
  return r.body.data as T;
}

/** A subscribed Spanish clinic with ChatGPT, a Spanish answering agent with Bookings on, one doctor (weekdays 9–14) and a 30-minute cleaning. */
async function clinic(profile: { phoneNumber?: string } = {}): Promise<Clinic> {
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
async function bookingsOf(c: Clinic): Promise<Booking[]> {
  const list = await must<BookingList>(api('GET', `/api/bookings?from=${today()}&to=${addDays(today(), 60)}`, { token: c.token }));
  return list.bookings;
}

describe('the Bookings switch on the agent', () => {
  it('is off for a new agent, PUT turns it on and off, anything but a boolean is a 400 that changes nothing', async () => {
    const { token } = await subscribedUser('starter');
    const agent = await createAnsweringAgent(token);
    expect(agent.bookingsEnabled).toBe(false);
    expect((await must<Agent>(api('PUT', `/api/agents/${agent._id}`, { token, body: { bookingsEnabled: true } }))).bookingsEnabled).toBe(true);
    const bad = await api('PUT', `/api/agents/${agent._id}`, { token, body: { bookingsEnabled: 'yes' } });
    expect(bad.status).toBe(400);
    expect((await must<Agent>(api('GET', `/api/agents/${agent._id}`, { token }))).bookingsEnabled).toBe(true);
    expect((await must<Agent>(api('PUT', `/api/agents/${agent._id}`, { token, body: { bookingsEnabled: false } }))).bookingsEnabled).toBe(false);
    // The names are the built-ins': a custom tool cannot take them.
    const tool = await api('POST', `/api/agents/${agent._id}/tools`, {
      token,
      body: { name: 'find_slots', description: 'x', endpoint: 'https://example.com/slots', method: 'GET', properties: {}, required: [] },
    });
    expect(tool.status).toBe(400);
  });
});

describe('WhatsApp: the agent finds, books, lists, moves and cancels for the number that writes', () => {
  async function whatsapp(c: Clinic): Promise<ConnectedWhatsApp> {
    return connectWhatsApp(c.token);
  }

  /** The customer writes `text`; resolves the agent's reply that says `tool`'s result. */
  async function say(wa: ConnectedWhatsApp, customer: WaCustomer, text: string, tool: string): Promise<string> {
    const before = (await graphSends(wa.phoneId)).length;
    const body = metaDelivery(wa, { messages: [textMessage(customer, text)] });
    const res = await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret));
    expect(res.status).toBe(200);
    const reply = await until(async () => (await graphSends(wa.phoneId)).slice(before).find((s) => s.to === customer.waId && (s.text ?? '').startsWith(`Tool ${tool} returned:`)), `the ${tool} reply`, 30_000);
    return reply.text ?? '';
  }

  it('every tool, with the booking in the API after each step; another number sees none of it', async () => {
    const c = await clinic();
    const wa = await whatsapp(c);
    const ana = waCustomer('Ana Pérez', `346${randomDigits(8)}`);
    const phone = `+${ana.waId}`;
    const tuesday = weekdayAhead(2);
    const wednesday = addDays(tuesday, 1);

    const slots = await say(wa, ana, `find_slots service="limpieza dental" from=${tuesday} to=${tuesday}`, 'find_slots');
    expect(slots).toContain(`Free times for Limpieza dental (30 min)`);
    expect(slots).toContain(`a las 09:00, con Dra. García [start=${tuesday}T09:00 staff_id=${c.staff._id}]`);
    expect(await bookingsOf(c)).toEqual([]);

    const booked = await say(wa, ana, `book start=${tuesday}T10:30 service=Limpieza customer_name="Ana Pérez" customer_confirmed=true`, 'book');
    expect(booked).toMatch(/^Tool book returned: Booked: Limpieza dental, martes \d+ de \w+ a las 10:30, with Dra\. García, for Ana Pérez \[booking_id=/);
    const [booking, ...none] = await bookingsOf(c);
    expect(none).toEqual([]);
    expect(booking).toMatchObject({ status: 'confirmed', serviceId: c.service._id, staffId: c.staff._id, channel: 'whatsapp', bookedBy: 'agent', agentId: c.agent._id, customer: { name: 'Ana Pérez', phone } });
    expect(localOf(booking!.start)).toBe(`${tuesday}T10:30`);
    expect(booking!.conversationId).toBeTruthy();

    const mine = await say(wa, ana, 'find_my_bookings', 'find_my_bookings');
    expect(mine).toContain(`a las 10:30, con Dra. García [booking_id=${booking!._id}]`);

    // Another customer can neither see nor change Ana's booking.
    const luis = waCustomer('Luis', `346${randomDigits(8)}`);
    expect(await say(wa, luis, 'find_my_bookings', 'find_my_bookings')).toContain('This customer has no upcoming appointments.');
    expect(await say(wa, luis, `cancel_booking booking_id=${booking!._id} customer_confirmed=true`, 'cancel_booking')).toContain('No appointment of this customer has that booking_id');
    // A slot Ana holds is no longer free for Luis: the next free ones are offered.
    const taken = await say(wa, luis, `book start=${tuesday}T10:30 service=Limpieza customer_name=Luis customer_confirmed=true`, 'book');
    expect(taken).toContain('That time is no longer free. The nearest free times now:');
    expect((await bookingsOf(c)).filter((b) => b.status === 'confirmed')).toHaveLength(1);

    const moved = await say(wa, ana, `reschedule booking_id=${booking!._id} start=${wednesday}T12:00 customer_confirmed=true`, 'reschedule');
    expect(moved).toMatch(/Moved: Limpieza dental is now miércoles \d+ de \w+ a las 12:00/);
    const afterMove = (await bookingsOf(c)).find((b) => b._id === booking!._id)!;
    expect(localOf(afterMove.start)).toBe(`${wednesday}T12:00`);

    const cancelled = await say(wa, ana, `cancel_booking booking_id=${booking!._id} customer_confirmed=true`, 'cancel_booking');
    expect(cancelled).toContain('Cancelled: Limpieza dental, miércoles');
    expect((await bookingsOf(c)).find((b) => b._id === booking!._id)).toMatchObject({ status: 'cancelled' });
    expect(await say(wa, ana, 'find_my_bookings', 'find_my_bookings')).toContain('This customer has no upcoming appointments.');
    // Ten WhatsApp round trips through the webhook, the queue and the worker.
  }, 120_000);

  it('a reply to a reminder reaches the agent with the booking in context (booked by the owner with the phone typed without +34)', async () => {
    const c = await clinic();
    const wa = await whatsapp(c);
    const digits = `6${randomDigits(8)}`;
    const ana = waCustomer('Ana', `34${digits}`);
    const friday = weekdayAhead(5);
    const booking = await must<Booking>(
      api('POST', '/api/bookings', { token: c.token, body: { serviceId: c.service._id, start: `${friday}T10:00`, customer: { name: 'Ana', phone: `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}` } } }),
      201,
    );
    const before = (await graphSends(wa.phoneId)).length;
    const body = metaDelivery(wa, { messages: [textMessage(ana, 'No puedo ir, cancela')] });
    expect((await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret))).status).toBe(200);
    await until(async () => (await graphSends(wa.phoneId)).slice(before).find((m) => m.to === ana.waId && (m.text ?? '').startsWith('Echo: No puedo ir')), 'the reply', 30_000);
    const res = await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(c.key)}&path=/v1/chat/completions`);
    const requests = ((await res.json()) as { requests: { body: { messages: { role: string; content: string }[] } }[] }).requests;
    const system = requests.at(-1)!.body.messages[0]!.content;
    expect(system).toContain(`This customer's upcoming appointments (a message like "I can't come" or "cancel" is most likely about one of them):`);
    expect(system).toMatch(new RegExp(`- Limpieza dental, viernes \\d+ de \\w+ a las 10:00, con Dra\\. García \\[booking_id=${booking._id}\\]`));
  });
});

describe('a streamed call books for the caller’s number', () => {
  it('the relay simulator says book; the booking is the caller’s, from the call', async () => {
    const c = await clinic();
    const number = `+3491${randomDigits(7)}`;
    const control = async (path: string, body: unknown) => {
      const res = await fetch(`${provided('twilioApiUrl')}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return (await res.json()) as { accountSid: string; authToken: string };
    };
    const account = await control('/_test/accounts', { numbers: [number] });
    const setup = await must<TwilioSetupResult>(
      api('POST', '/api/integrations/twilio-voice/setup', { token: c.token, body: { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number } }),
    );
    await must(api('PUT', '/api/voice-settings', { token: c.token, body: { ...VOICE_DEFAULTS, conversationMode: 'streaming' } }));
    const caller = callerNumber();
    const thursday = weekdayAhead(4);

    const call = await simulateCall({
      voiceUrl: setup.webhookUrl,
      statusCallbackUrl: setup.statusCallbackUrl,
      accountSid: account.accountSid,
      authToken: account.authToken,
      from: caller,
      to: number,
      turns: [{ speech: `book start=${thursday}T11:00 service=Limpieza customer_name="Marta Gil" customer_confirmed=true`, confidence: 0.9 }],
      twilioApiUrl: provided('twilioApiUrl'),
    });

    const turn = call.relaySessions[0]!.turns[0]!;
    // The filler while the tool runs, then the tool's answer.
    expect(turn.heard.startsWith(RELAY_FILLERS.es)).toBe(true);
    expect(turn.heard).toMatch(/Booked: Limpieza dental, jueves \d+ de \w+ a las 11:00/);
    const [booking] = await bookingsOf(c);
    expect(booking).toMatchObject({ status: 'confirmed', channel: 'voice', bookedBy: 'agent', customer: { name: 'Marta Gil', phone: caller } });
    expect(booking!.callId).toBeTruthy();
    expect(localOf(booking!.start)).toBe(`${thursday}T11:00`);
  });
});

describe('the Test Agent chat books for the owner’s profile phone', () => {
  const chat = (c: Clinic, message: string) => api<ChatReply>('POST', `/api/agents/${c.agent._id}/chat`, { token: c.token, body: { message, messages: [] } });

  it('with a profile phone (typed without +34) it books for it; without one it books nothing', async () => {
    const c = await clinic({ phoneNumber: '612 345 678' });
    const friday = weekdayAhead(5);
    const res = await must<ChatReply>(chat(c, `book start=${friday}T09:30 service=Limpieza customer_name="Clínica Peña" customer_confirmed=true`));
    expect(res.toolCalls[0]).toMatchObject({ name: 'book', ok: true });
    const [booking] = await bookingsOf(c);
    expect(booking).toMatchObject({ channel: 'chat', bookedBy: 'agent', customer: { phone: '+34612345678' } });

    const noPhone = await clinic();
    const refused = await must<ChatReply>(chat(noPhone, `book start=${friday}T09:30 service=Limpieza customer_name=Ana customer_confirmed=true`));
    expect(refused.toolCalls[0]).toMatchObject({ name: 'book', ok: false });
    expect(refused.toolCalls[0]!.result).toMatch(/phone number is unknown/);
    expect(await bookingsOf(noPhone)).toEqual([]);
  });
});
