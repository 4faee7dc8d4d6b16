/**
 * Issue 30 on the local stack: the dashboard's "bookings made by the agent" and the contact's
 * timeline of bookings. First the booking changes are handed to the real listeners
 * (domain/bookings/outcomes.ts, domain/bookings/contact-timeline.ts) over DynamoDB Local with the
 * real adapters, as the booking-events worker does; then end to end: the agent books in the Test
 * Agent chat and on WhatsApp (signed delivery → worker → fake OpenAI calling `book`), the owner
 * cancels, and the booking-events worker moves the figures and the timeline. Read through the
 * gateway (GET /api/dashboard, GET /api/contacts/{id}/timeline) of a Spanish account.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoBookingOutcomeStore } from '../../src/adapters/dynamo/booking-outcomes.js';
import { DynamoBookingTimelineWriter } from '../../src/adapters/dynamo/contact-timeline.js';
import type { User } from '../../src/contract/auth.js';
import type { Agent, ChatReply } from '../../src/contract/agents.js';
import type { Booking, BookingList, BookingService, BookingStaff } from '../../src/contract/bookings.js';
import type { ContactTimeline } from '../../src/contract/contact-timeline.js';
import type { DashboardData } from '../../src/contract/dashboard.js';
import { createBookingTimeline } from '../../src/domain/bookings/contact-timeline.js';
import { createBookingOutcomes } from '../../src/domain/bookings/outcomes.js';
import type { BookingChange } from '../../src/domain/bookings/ports.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, get, tableName, until } from '../support/api.js';
import { withoutAiNotice } from '../support/bookings.js';
import { activeUser, addContact } from '../support/contacts.js';
import { drainQueues, testDocumentClient } from '../support/stack-clients.js';
import { connectWhatsApp, graphSends, metaDelivery, postWebhook, randomDigits, signMetaBody, textMessage, waCustomer } from '../support/whatsapp.js';

const HOUR = 3_600_000;
const outcomes = () => createBookingOutcomes({ store: new DynamoBookingOutcomeStore(testDocumentClient(), tableName()) });
const timeline = () => createBookingTimeline({ writer: new DynamoBookingTimelineWriter(testDocumentClient(), tableName()) });

async function spanishAccount() {
  const u = await activeUser();
  const put = await api<User>('PUT', '/api/user/profile', { token: u.token, body: { name: 'Clínica Peña', language: 'es', timeZone: 'Europe/Madrid', country: 'ES' } });
  expect(put.status).toBe(200);
  return u;
}

let seq = 0;
/** A booking as the core stores it, made `hoursAgo` hours ago. */
function booking(over: Partial<Booking> & { hoursAgo?: number } = {}): Booking {
  const { hoursAgo = 2, ...rest } = over;
  const made = new Date(Date.now() - hoursAgo * HOUR).toISOString();
  seq += 1;
  return {
    _id: `bk${Date.now().toString(36)}${seq}`,
    serviceId: 'svc1',
    serviceName: 'Limpieza dental',
    staffId: 'st1',
    staffName: 'Dra. García',
    start: new Date(Date.now() + 48 * HOUR).toISOString(),
    end: new Date(Date.now() + 48 * HOUR + 30 * 60_000).toISOString(),
    timeZone: 'Europe/Madrid',
    status: 'confirmed',
    customer: { name: 'Lucía Pérez', phone: '+34612345678', contactId: null },
    channel: 'whatsapp',
    conversationId: null,
    callId: null,
    agentId: 'agent1',
    bookedBy: 'agent',
    notes: '',
    priceCents: null,
    currency: 'eur',
    createdAt: made,
    updatedAt: made,
    cancelledAt: null,
    ...rest,
  };
}

const change = (kind: BookingChange['kind'], b: Booking, before?: Booking): BookingChange => ({
  kind,
  booking: b,
  before,
  actor: { by: b.bookedBy, channel: b.channel, customerPhone: b.customer.phone },
});

const dashboard = async (token: string, timeFilter = '7days') => {
  const res = await get<DashboardData>(`/api/dashboard?timeFilter=${timeFilter}`, token);
  expect(res.status).toBe(200);
  return res.body.data!.agentBookings;
};

describe('the dashboard counts the bookings made by the agent', () => {
  it('per channel with their value, a cancellation apart, a duplicate change once, tenants apart', async () => {
    const [u1, u2] = await Promise.all([spanishAccount(), spanishAccount()]);
    const listener = outcomes();

    const empty = await dashboard(u1.token);
    expect(empty).toMatchObject({ count: 0, cancelled: 0, valueCents: 0, currency: 'EUR' });

    const wa = booking({ channel: 'whatsapp', priceCents: 4550 });
    const phone = booking({ channel: 'voice', priceCents: 123_400, hoursAgo: 30 });
    const unpriced = booking({ channel: 'voice', priceCents: null, hoursAgo: 5 });
    const chat = booking({ channel: 'chat', priceCents: 2000 });
    const owners = booking({ bookedBy: 'owner', channel: 'dashboard', priceCents: 9900 });
    const old = booking({ channel: 'whatsapp', priceCents: 1000, hoursAgo: 24 * 12 });
    for (const b of [wa, phone, unpriced, chat, owners, old]) await listener.handle(u1.userId, change('created', b));

    // A queue retry: the same change five times at once, and again later — counted once.
    await Promise.all(Array.from({ length: 5 }, () => listener.handle(u1.userId, change('created', wa))));
    await listener.handle(u1.userId, change('created', phone));
    // The chat booking is cancelled (twice delivered); its move before that changes nothing.
    const moved = { ...chat, start: new Date(Date.now() + 72 * HOUR).toISOString(), updatedAt: new Date(Date.now() - HOUR).toISOString() };
    await listener.handle(u1.userId, change('moved', moved, chat));
    const cancelled = { ...moved, status: 'cancelled' as const, updatedAt: new Date().toISOString() };
    await listener.handle(u1.userId, change('cancelled', cancelled, moved));
    await listener.handle(u1.userId, change('cancelled', cancelled, moved));
    // The late delivery of the move (older than the cancellation) changes nothing.
    await listener.handle(u1.userId, change('moved', moved, chat));

    // Another account's agent booking.
    await listener.handle(u2.userId, change('created', booking({ channel: 'whatsapp', priceCents: 7000 })));

    expect(await dashboard(u1.token)).toEqual({
      count: 3,
      cancelled: 1,
      valueCents: 4550 + 123_400,
      currency: 'EUR',
      byChannel: [
        { channel: 'whatsapp', count: 1, cancelled: 0, valueCents: 4550 },
        { channel: 'voice', count: 2, cancelled: 0, valueCents: 123_400 },
        { channel: 'chat', count: 0, cancelled: 1, valueCents: 0 },
      ],
    });
    // 30 days take in the booking made 12 days ago.
    expect(await dashboard(u1.token, '30days')).toMatchObject({ count: 4, valueCents: 4550 + 123_400 + 1000 });
    expect(await dashboard(u2.token)).toMatchObject({ count: 1, cancelled: 0, valueCents: 7000, byChannel: [{ channel: 'whatsapp', count: 1, valueCents: 7000 }, { count: 0 }, { count: 0 }] });
  });
});

describe("the contact's timeline shows their bookings", () => {
  it('booked, moved and cancelled, by the number the contact has (typed without +34), newest first', async () => {
    const u = await spanishAccount();
    const contact = await addContact(u.token, { name: 'Lucía Pérez', phoneNumber: '612 34 56 78' });
    expect(contact.phoneNumber).toBe('+34612345678');
    const listener = timeline();

    const made = booking({ channel: 'voice', hoursAgo: 3, customer: { name: 'Lucía Pérez', phone: contact.phoneNumber, contactId: contact._id } });
    const moved = { ...made, start: new Date(Date.now() + 96 * HOUR).toISOString(), end: new Date(Date.now() + 96 * HOUR + 30 * 60_000).toISOString(), updatedAt: new Date(Date.now() - 2 * HOUR).toISOString() };
    const cancelled = { ...moved, status: 'cancelled' as const, updatedAt: new Date(Date.now() - HOUR).toISOString() };
    await listener.handle(u.userId, change('created', made));
    await listener.handle(u.userId, change('moved', moved, made));
    await listener.handle(u.userId, change('cancelled', cancelled, moved));
    // Delivered twice: still one entry.
    await listener.handle(u.userId, change('moved', moved, made));
    // Somebody else's booking is not on this contact's timeline.
    await listener.handle(u.userId, change('created', booking({ customer: { name: 'Otro', phone: '+34699999999', contactId: null } })));

    const res = await get<ContactTimeline>(`/api/contacts/${contact._id}/timeline`, u.token);
    expect(res.status).toBe(200);
    const items = res.body.data!.items.filter((i) => i.kind === 'booking');
    expect(items.map((i) => i.status)).toEqual(['cancelled', 'moved', 'booked']);
    expect(items.every((i) => i.id === made._id)).toBe(true);
    expect(items[1]!.booking).toEqual({
      event: 'moved',
      serviceName: 'Limpieza dental',
      staffName: 'Dra. García',
      start: moved.start,
      end: moved.end,
      timeZone: 'Europe/Madrid',
      previousStart: made.start,
      channel: 'voice',
      bookedBy: 'agent',
    });

    // limit counts the booking entries with the rest: the newest one, and more beyond it.
    const one = await get<ContactTimeline>(`/api/contacts/${contact._id}/timeline?limit=1`, u.token);
    expect(one.body.data).toMatchObject({ items: [{ kind: 'booking', status: 'cancelled' }], hasMore: true });
  });
});

describe('end to end: the agent books, the booking-events worker counts and records', () => {
  const ZONE = 'Europe/Madrid';
  const mornings = [{ start: '09:00', end: '14:00' }];
  const ok = async <T>(res: Promise<{ status: number; body: { data?: T; message?: string } }>): Promise<T> => {
    const r = await res;
    expect(r.status, `${r.status} ${r.body.message}`).toBeLessThan(300);
    return r.body.data as T;
  };
  /** The first Tuesday at least a week ahead (Madrid). */
  const tuesdayAhead = () => {
    const from = Date.parse(`${new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date())}T12:00:00Z`) + 7 * 86_400_000;
    const dow = (new Date(from).getUTCDay() + 6) % 7;
    return new Date(from + ((1 - dow + 7) % 7) * 86_400_000).toISOString().slice(0, 10);
  };

  it('a test-chat and a WhatsApp booking with prices count on their channels; the owner’s cancellation moves it apart; the customer’s timeline shows it', async () => {
    const u = await activeUser();
    const { token } = u;
    // The Test Agent chat books for the owner's profile phone (typed without +34).
    await ok(api('PUT', '/api/user/profile', { token, body: { name: 'Clínica Peña', language: 'es', timeZone: ZONE, country: 'ES', phoneNumber: '612 345 678' } }));
    const key = `sk-test-${randomUUID()}`;
    await ok(api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } }));
    const agent = await ok(api<Agent>('PUT', `/api/agents/${(await createAnsweringAgent(token))._id}`, { token, body: { bookingsEnabled: true, language: 'es' } }));
    await ok(
      api('PUT', '/api/bookings/settings', {
        token,
        body: { timeZone: ZONE, minNoticeMinutes: 60, maxAdvanceDays: 90, slotStepMinutes: 30, closures: [], remindersEnabled: false, reminderHours: 24, confirmationTemplate: null, reminderTemplate: null, emailOwner: false },
      }),
    );
    const weeklyHours = { mon: mornings, tue: mornings, wed: mornings, thu: mornings, fri: mornings, sat: [], sun: [] };
    const staff = await ok(api<BookingStaff>('POST', '/api/bookings/staff', { token, body: { name: 'Dra. García', weeklyHours } }));
    const service = await ok(api<BookingService>('POST', '/api/bookings/services', { token, body: { name: 'Limpieza dental', durationMinutes: 30, priceCents: 123_450, staffIds: [staff._id] } }));
    const tuesday = tuesdayAhead();

    const chat = await ok(api<ChatReply>('POST', `/api/agents/${agent._id}/chat`, { token, body: { message: `book start=${tuesday}T09:30 service=Limpieza customer_name="Clínica Peña" customer_confirmed=true`, messages: [] } }));
    expect(chat.toolCalls[0]).toMatchObject({ name: 'book', ok: true });

    const wa = await connectWhatsApp(token);
    const ana = waCustomer('Ana Pérez', `346${randomDigits(8)}`);
    const body = metaDelivery(wa, { messages: [textMessage(ana, `book start=${tuesday}T11:00 service=Limpieza customer_name="Ana Pérez" customer_confirmed=true`)] });
    expect((await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret))).status).toBe(200);
    await until(async () => (await graphSends(wa.phoneId)).find((s) => s.to === ana.waId && withoutAiNotice(s.text ?? '').startsWith('Tool book returned: Booked')), 'the WhatsApp booking', 30_000);

    const list = await ok(api<BookingList>('GET', `/api/bookings?from=${tuesday}&to=${tuesday}`, { token }));
    const byChannel = Object.fromEntries(list.bookings.map((b) => [b.channel, b]));
    expect(Object.keys(byChannel).sort()).toEqual(['chat', 'whatsapp']);
    expect(list.bookings.every((b) => b.serviceId === service._id && b.priceCents === 123_450 && b.bookedBy === 'agent')).toBe(true);

    await drainQueues();
    const figures = await until(async () => {
      const f = await dashboard(token);
      return f.count === 2 ? f : undefined;
    }, 'two agent bookings on the dashboard');
    expect(figures).toEqual({
      count: 2,
      cancelled: 0,
      valueCents: 2 * 123_450,
      currency: 'EUR',
      byChannel: [
        { channel: 'whatsapp', count: 1, cancelled: 0, valueCents: 123_450 },
        { channel: 'voice', count: 0, cancelled: 0, valueCents: 0 },
        { channel: 'chat', count: 1, cancelled: 0, valueCents: 123_450 },
      ],
    });

    // The owner cancels the chat booking: it leaves the count and the value, counted apart.
    await ok(api('POST', `/api/bookings/${byChannel.chat!._id}/cancel`, { token }));
    await drainQueues();
    const after = await until(async () => {
      const f = await dashboard(token);
      return f.cancelled === 1 ? f : undefined;
    }, 'the cancellation on the dashboard');
    expect(after).toMatchObject({ count: 1, cancelled: 1, valueCents: 123_450, byChannel: [{ count: 1 }, { count: 0 }, { channel: 'chat', count: 0, cancelled: 1, valueCents: 0 }] });

    // Ana's contact (created for the booking by her number, in the booking-events worker: the
    // agent's core links no contact itself) lists the booking on its timeline.
    const contactId = await until(async () => {
      await drainQueues();
      return (await ok(api<Booking>('GET', `/api/bookings/${byChannel.whatsapp!._id}`, { token }))).customer.contactId ?? undefined;
    }, "Ana's contact linked to her booking");
    const contact = await get<{ phoneNumber: string; name: string }>(`/api/contacts/${contactId}`, token);
    expect(contact.body.data).toMatchObject({ phoneNumber: `+${ana.waId}`, name: 'Ana Pérez' });
    const items = await until(async () => {
      const res = await get<ContactTimeline>(`/api/contacts/${contactId}/timeline`, token);
      const found = (res.body.data?.items ?? []).filter((i) => i.kind === 'booking');
      return found.length ? found : undefined;
    }, "the booking on Ana's timeline");
    expect(items).toMatchObject([{ id: byChannel.whatsapp!._id, status: 'booked', booking: { serviceName: 'Limpieza dental', staffName: 'Dra. García', timeZone: ZONE, channel: 'whatsapp', bookedBy: 'agent' } }]);
  });
});
