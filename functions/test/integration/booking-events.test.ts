/**
 * What follows a booking's change (issue 30), end to end on the local stack: the bookings API (the
 * owner) and the agent's tools on WhatsApp (signed deliveries → whatsapp-inbound → fake OpenAI)
 * report each change on the booking-events queue; its worker sends the customer's confirmation
 * through the fake Graph API (a text inside the 24-hour window, the chosen template outside it,
 * nothing without one, recorded on the booking's BKMSG# item), keeps the reminder item in step,
 * and e-mails the owner (SES mailbox) for the agent's changes. The booking-reminders schedule is
 * run through the local runtime for the time a reminder is due (?time=), twice at once.
 * A Spanish clinic in Europe/Madrid, customers written without +34.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Booking, BookingCustomerMessage, BookingService, BookingSettingsInput, BookingStaff } from '../../src/contract/bookings.js';
import type { Agent } from '../../src/contract/agents.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, mailsTo, provided, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { HOUR, inbound, openConversation, repos, spanishWaId } from '../support/conversations.js';
import { drainQueues } from '../support/stack-clients.js';
import { connectWhatsApp, graphSends, metaDelivery, postWebhook, seedGraphTemplates, signMetaBody, textMessage, waCustomer, type ConnectedWhatsApp, type GraphSend } from '../support/whatsapp.js';

const allDay = [{ start: '00:00', end: '24:00' }];
const weeklyHours = { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay };

const settingsOf = (over: Partial<BookingSettingsInput> = {}): BookingSettingsInput => ({
  timeZone: 'Europe/Madrid',
  minNoticeMinutes: 0,
  maxAdvanceDays: 60,
  slotStepMinutes: 15,
  closures: [],
  remindersEnabled: true,
  reminderHours: 24,
  confirmationTemplate: null,
  reminderTemplate: null,
  emailOwner: true,
  ...over,
});

/** A slot start `hours` from now, on the half hour (UTC instant). */
const slotIn = (hours: number) => new Date(Math.ceil((Date.now() + hours * HOUR) / (30 * 60_000)) * 30 * 60_000).toISOString();

/** Madrid's words for an instant, as the messages write them ("jueves 3 de diciembre a las 10:30"). */
function madridLabel(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.day} de ${parts.month} ${parts.hour === '01' ? 'a la' : 'a las'} ${parts.hour}:${parts.minute}`;
}

interface Clinic {
  token: string;
  /** The account's OpenAI key (the fake's requests are kept per key). */
  openaiKey: string;
  userId: string;
  email: string;
  wa: ConnectedWhatsApp;
  staff: BookingStaff;
  service: BookingService;
  agent: Agent;
}

async function ok<T>(res: Promise<{ status: number; body: { data?: T; message?: string } }>, what: string): Promise<T> {
  const r = await res;
  if (r.status >= 300 || r.body.data === undefined) throw new Error(`${what}: ${r.status} ${r.body.message}`);
  return r.body.data;
}

/** A Spanish clinic with WhatsApp, ChatGPT, an agent that books, one dentist open all day and one service. */
async function clinic(settings: Partial<BookingSettingsInput> = {}): Promise<Clinic> {
  const { token, userId, user } = await subscribedUser('starter');
  await ok(api('PUT', '/api/user/profile', { token, body: { name: 'Clínica Sonrisa', language: 'es', country: 'es' } }), 'profile');
  const openaiKey = `sk-test-${randomUUID()}`;
  await ok(api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: openaiKey, model: 'gpt-4o' } }), 'chatgpt');
  const answering = await createAnsweringAgent(token);
  const agent = await ok(api<Agent>('PUT', `/api/agents/${answering._id}`, { token, body: { bookingsEnabled: true } }), 'bookings switch');
  const wa = await connectWhatsApp(token);
  const staff = await ok(api<BookingStaff>('POST', '/api/bookings/staff', { token, body: { name: 'Dra. García', weeklyHours } }), 'staff');
  const service = await ok(api<BookingService>('POST', '/api/bookings/services', { token, body: { name: 'Limpieza dental', durationMinutes: 30, staffIds: [staff._id] } }), 'service');
  await ok(api('PUT', '/api/bookings/settings', { token, body: settingsOf(settings) }), 'settings');
  return { token, openaiKey, userId, email: user.email, wa, staff, service, agent };
}

/** A customer with a Spanish mobile (written without +34 when booked). */
const customer = (name = 'Lucía Gómez') => {
  const waId = spanishWaId();
  return { name, waId, national: waId.slice(2) };
};

/** The customer wrote to the business `agoMs` ago (their 24-hour window counts from it). */
async function wrote(c: Clinic, who: ReturnType<typeof customer>, agoMs: number) {
  const at = new Date(Date.now() - agoMs);
  const conv = await openConversation(c.userId, { phoneId: c.wa.phoneId, phoneNumber: c.wa.displayPhoneNumber }, { waId: who.waId, name: who.name }, at);
  await inbound(c.userId, { phoneId: c.wa.phoneId, phoneNumber: c.wa.displayPhoneNumber }, conv, { body: '¿Tenéis cita esta semana?', at });
  return conv;
}

const book = (c: Clinic, who: ReturnType<typeof customer>, start: string) =>
  ok(api<Booking>('POST', '/api/bookings', { token: c.token, body: { serviceId: c.service._id, staffId: c.staff._id, start, customer: { name: who.name, phone: who.national } } }), 'book');

/** The sends to the customer, once the queues have settled. */
async function sendsTo(c: Clinic, who: ReturnType<typeof customer>): Promise<GraphSend[]> {
  await drainQueues();
  return (await graphSends(c.wa.phoneId)).filter((s) => s.to === who.waId && s.status === 200);
}

const textsTo = async (c: Clinic, who: ReturnType<typeof customer>) => (await sendsTo(c, who)).map((s) => (s.type === 'template' ? `template:${JSON.stringify(s.payload.template)}` : s.text));

/** Runs the reminders schedule for the scheduled time `at` (the local runtime's ?time=). */
async function runReminders(at: number): Promise<{ due: number; queued: number; skipped: number; failed: number }> {
  const res = await fetch(`${provided('apiUrl')}/_local/schedules/booking-reminders/run?time=${encodeURIComponent(new Date(at).toISOString())}`, { method: 'POST' });
  if (res.status !== 200) throw new Error(`booking-reminders answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { due: number; queued: number; skipped: number; failed: number };
}

/** What the owner sees of the booking's WhatsApp messages to the customer (GET /api/bookings/{id}/messages). */
const records = async (c: Clinic, bookingId: string) => ok(api<BookingCustomerMessage[]>('GET', `/api/bookings/${bookingId}/messages`, { token: c.token }), 'messages');

const TEMPLATE_BODY = 'Hola {{1}}, tu cita de {{2}} con {{3}} el {{4}} está {{5}}.';

describe('the customer’s WhatsApp confirmation', () => {
  it('inside the 24-hour window: a Spanish text when the owner books, moves (drags) and cancels, stored in the conversation', async () => {
    const c = await clinic();
    const lucia = customer();
    const conv = await wrote(c, lucia, 2 * HOUR);
    // One change at a time, as an owner makes them (a change overtaken by the next before its turn is not told: the next one is).
    const told = (count: number) =>
      until(async () => {
        const t = await textsTo(c, lucia);
        return t.length >= count ? t : undefined;
      }, `${count} confirmations`);
    const first = slotIn(30);
    const booking = await book(c, lucia, first);
    await told(1);
    const moved = slotIn(50);
    await ok(api<Booking>('PATCH', `/api/bookings/${booking._id}`, { token: c.token, body: { start: moved } }), 'move');
    await told(2);
    await ok(api<Booking>('POST', `/api/bookings/${booking._id}/cancel`, { token: c.token }), 'cancel');
    const texts = await told(3);
    expect(texts.sort()).toEqual(
      [
        `Tu cita de Limpieza dental (Dra. García) está confirmada para el ${madridLabel(first)}.`,
        `Tu cita de Limpieza dental (Dra. García) ha cambiado: ahora es el ${madridLabel(moved)} (antes, el ${madridLabel(first)}).`,
        `Tu cita de Limpieza dental (Dra. García) del ${madridLabel(moved)} está cancelada.`,
      ].sort(),
    );
    // In the customer's conversation like any outbound message, on the agent's side (no takeover).
    const stored = (await repos().messages.listByConversation(c.userId, conv.id, 50)).filter((m) => m.fromMe);
    expect(stored.map((m) => [m.body, m.status, m.sentBy]).sort()).toEqual(texts.map((t) => [t, 'sent', 'agent']).sort());
    expect((await repos().conversations.get(c.userId, conv.id))?.aiPaused ?? false).toBe(false);
    expect((await records(c, booking._id)).map((r) => `${r.kind}:${r.state}:${r.via}`).sort()).toEqual(['cancelled:sent:text', 'created:sent:text', 'moved:sent:text']);
    // The owner's own changes are not e-mailed (only the agent's).
    expect((await mailsTo(c.email)).filter((m) => /cita/i.test(m.subject))).toEqual([]);
  }, 60_000);

  it('outside the window: the template the owner chose, with its parameters; none chosen: nothing sent, and the booking says why', async () => {
    const c = await clinic({ confirmationTemplate: { name: 'cita_actualizada', language: 'es' } });
    await seedGraphTemplates(c.wa.businessId, [{ name: 'cita_actualizada', language: 'es', category: 'UTILITY', components: [{ type: 'BODY', text: TEMPLATE_BODY }] }], c.wa.phoneId);
    const pablo = customer('Pablo Ruiz');
    // Wrote 30 hours ago: the window has closed.
    await wrote(c, pablo, 30 * HOUR);
    const start = slotIn(30);
    const booking = await book(c, pablo, start);
    const [sent] = await until(async () => {
      const s = await sendsTo(c, pablo);
      return s.length ? s : undefined;
    }, 'the template');
    expect(sent!.type).toBe('template');
    expect(JSON.stringify(sent!.payload)).toContain('cita_actualizada');
    for (const value of ['Pablo Ruiz', 'Limpieza dental', 'Dra. García', madridLabel(start), 'confirmada']) expect(JSON.stringify(sent!.payload)).toContain(JSON.stringify(value).slice(1, -1));
    expect((await records(c, booking._id)).map((r) => `${r.kind}:${r.state}:${r.via}`)).toEqual(['created:sent:template']);

    // The owner takes the template away: a customer who never wrote gets nothing, and the record says why.
    await ok(api('PUT', '/api/bookings/settings', { token: c.token, body: settingsOf({ confirmationTemplate: null }) }), 'settings');
    const marta = customer('Marta Sanz');
    const other = await book(c, marta, slotIn(40));
    await until(async () => ((await records(c, other._id))[0]?.state === 'not_sent' ? true : undefined), 'the not-sent record');
    expect(await sendsTo(c, marta)).toEqual([]);
    expect(await records(c, other._id)).toMatchObject([{ kind: 'created', state: 'not_sent', reason: 'no_template', via: null }]);
    // Another account's booking is not found.
    const stranger = await subscribedUser('starter');
    expect((await api('GET', `/api/bookings/${other._id}/messages`, { token: stranger.token })).status).toBe(404);
  }, 60_000);
});

describe('reminders', () => {
  it('are sent once when two runs of the schedule overlap; a moved booking is reminded at its new time, a cancelled one never, a late one gets none', async () => {
    const c = await clinic({ reminderHours: 24 });
    const ana = customer('Ana López');
    await wrote(c, ana, HOUR);
    const start = slotIn(26);
    const kept = await book(c, ana, start);
    const movedFrom = slotIn(27);
    const moving = await book(c, ana, movedFrom);
    const cancelled = await book(c, ana, slotIn(28));
    // Booked 20 hours ahead: its 24-hour reminder time has passed already.
    await book(c, ana, slotIn(20));
    const movedTo = slotIn(40);
    await ok(api('PATCH', `/api/bookings/${moving._id}`, { token: c.token, body: { start: movedTo } }), 'move');
    await ok(api('POST', `/api/bookings/${cancelled._id}/cancel`, { token: c.token }), 'cancel');
    await drainQueues();
    const reminders = async () => (await textsTo(c, ana)).filter((t) => t?.startsWith('Recordatorio'));
    expect(await reminders()).toEqual([]);

    // Two runs at once, an hour after every old reminder time: only the kept booking is due.
    const at = Date.parse(start) - 24 * HOUR + 90 * 60_000;
    const runs = await Promise.all([runReminders(at), runReminders(at)]);
    expect(runs.reduce((n, r) => n + r.queued, 0)).toBe(1);
    // And once more afterwards (the schedule firing twice).
    await runReminders(at + 60_000);
    expect(await reminders()).toEqual([
      `Recordatorio: tienes cita de Limpieza dental (Dra. García) el ${madridLabel(start)}. Responde a este mensaje si necesitas cambiarla o cancelarla.`,
    ]);

    // The moved one at its new time.
    await runReminders(Date.parse(movedTo) - 24 * HOUR + 60_000);
    expect(await reminders()).toHaveLength(2);
    expect((await reminders())[1]).toContain(madridLabel(movedTo));
    expect((await reminders()).some((t) => t.includes(madridLabel(movedFrom)))).toBe(false);
    expect(await records(c, kept._id)).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'reminder', state: 'sent' })]));
  }, 60_000);

  it('a reply to the reminder reaches the agent with the booking: "cancel_booking …" cancels it, the customer gets the cancellation and the owner an e-mail', async () => {
    const c = await clinic({ reminderHours: 24 });
    const who = waCustomer('Elena Martín', spanishWaId());
    const eva = { name: who.name, waId: who.waId, national: who.waId.slice(2) };
    await wrote(c, eva, HOUR);
    const start = slotIn(25);
    const booking = await book(c, eva, start);
    // The change's listeners have put the reminder item in place.
    await drainQueues();
    await runReminders(Date.parse(start) - 24 * HOUR + 60_000);
    await until(async () => ((await textsTo(c, eva)).some((t) => t?.startsWith('Recordatorio')) ? true : undefined), 'the reminder');

    const body = metaDelivery(c.wa, { messages: [textMessage(who, `No puedo ir. cancel_booking booking_id=${booking._id} customer_confirmed=true`)] });
    expect((await postWebhook(c.wa.integrationId, body, signMetaBody(body, c.wa.appSecret))).status).toBe(200);

    const cancelledText = `Tu cita de Limpieza dental (Dra. García) del ${madridLabel(start)} está cancelada.`;
    await until(async () => ((await textsTo(c, eva)).includes(cancelledText) ? true : undefined), 'the cancellation', 30_000);
    expect((await api<Booking>('GET', `/api/bookings/${booking._id}`, { token: c.token })).body.data?.status).toBe('cancelled');
    // The model read the reply with the reminder before it in the conversation and the booking in its instructions.
    const res = await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(c.openaiKey)}&path=/v1/chat/completions`);
    const [turn] = ((await res.json()) as { requests: Array<{ body: { messages: Array<{ role: string; content: unknown }> } }> }).requests;
    const system = JSON.stringify(turn!.body.messages.filter((m) => m.role === 'system'));
    expect(system).toContain(`[booking_id=${booking._id}]`);
    expect(JSON.stringify(turn!.body.messages.filter((m) => m.role === 'assistant'))).toContain('Recordatorio: tienes cita de Limpieza dental');
    const mail = await until(async () => (await mailsTo(c.email)).find((m) => m.subject.startsWith('Cita cancelada')), 'the owner’s e-mail');
    expect(mail.subject).toBe(`Cita cancelada: Elena Martín, Limpieza dental, ${madridLabel(start)}`);
    expect(mail.body.text).toContain('Tu agente ha cancelado una cita.');
    expect(mail.body.text).toContain('Por: WhatsApp');
  }, 60_000);
});
