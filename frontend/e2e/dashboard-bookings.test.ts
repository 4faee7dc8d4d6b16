/**
 * Issue 30 in a real browser, Spanish UI, a Spanish account (Europe/Madrid, euros): the dashboard's
 * "Citas reservadas por el agente" card — empty first, then the agent's bookings on WhatsApp, the
 * phone and the chat with their value ("1.234,50 €") and a cancellation apart — and the contact's
 * timeline with the booking booked and moved. The booking changes go through the real listeners
 * (outcome counters, contact timeline) over the stack's DynamoDB Local, as the booking-events
 * worker runs them. Both parts are axe-clean (serious/critical WCAG A/AA).
 */
import { describe, expect, inject, it } from 'vitest';
import { DynamoBookingOutcomeStore } from '../../functions/src/adapters/dynamo/booking-outcomes.js';
import { DynamoBookingTimelineWriter } from '../../functions/src/adapters/dynamo/contact-timeline.js';
import type { Booking } from '../../functions/src/contract/bookings.js';
import type { Contact } from '../../functions/src/contract/contacts.js';
import { createBookingTimeline } from '../../functions/src/domain/bookings/contact-timeline.js';
import { createBookingOutcomes } from '../../functions/src/domain/bookings/outcomes.js';
import type { BookingChange } from '../../functions/src/domain/bookings/ports.js';
import { testDocumentClientAt } from '../../functions/test/support/document-clients.js';
import { seriousViolations } from './axe.js';
import { callApi, eventually, newPage, randomDigits, slowly, subscribedUser, useBrowser, userIdOf } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const HOUR = 3_600_000;
const CARD = '[data-testid="agent-bookings"]';

const db = () => testDocumentClientAt(inject('dynamoEndpoint'));
const outcomes = () => createBookingOutcomes({ store: new DynamoBookingOutcomeStore(db(), inject('tableName')) });
const timeline = () => createBookingTimeline({ writer: new DynamoBookingTimelineWriter(db(), inject('tableName')) });

let seq = 0;
function booking(over: Partial<Booking>): Booking {
  const made = new Date(Date.now() - 2 * HOUR).toISOString();
  seq += 1;
  return {
    _id: `e2ebk${Date.now().toString(36)}${seq}`,
    serviceId: 'svc1',
    serviceName: 'Limpieza dental',
    staffId: 'st1',
    staffName: 'Dra. García',
    // Tuesday 1 December 2026, 10:00 in Madrid.
    start: '2026-12-01T09:00:00.000Z',
    end: '2026-12-01T09:30:00.000Z',
    timeZone: 'Europe/Madrid',
    status: 'confirmed',
    customer: { name: 'Lucía Pérez', phone: `+346${randomDigits(8)}`, contactId: null },
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
    ...over,
  };
}
const change = (kind: BookingChange['kind'], b: Booking, before?: Booking): BookingChange => ({
  kind,
  booking: b,
  before,
  actor: { by: b.bookedBy, channel: b.channel, customerPhone: b.customer.phone },
});
// Intl separates "€" with a no-break space.
const plain = (text: string | null) => (text ?? '').replace(/\u00a0|\u202f/g, ' ');

async function spanishClinic(label: string) {
  const page = await newPage(browser());
  await subscribedUser(page, label);
  await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', timeZone: 'Europe/Madrid', country: 'ES' });
  return { page, userId: await userIdOf(page) };
}

describe('bookings made by the agent on the dashboard', () => {
  it('shows an empty state, then the count, the value in euros and the channels, linking to the calendar', async () => {
    const { page, userId } = await spanishClinic('dash-bookings');
    await page.goto(`${appUrl}/`);
    const card = page.getByRole('region', { name: 'Citas reservadas por el agente' });
    // First page loads are slow on a busy 2-core machine.
    await slowly(() => card.getByTestId('agent-bookings-empty').count()).toBe(1);
    expect(await card.getByTestId('agent-bookings-empty').textContent()).toContain('Tu agente aún no ha reservado citas en este periodo.');
    expect(await card.getByRole('link', { name: 'Ver citas' }).getAttribute('href')).toBe('/bookings');
    expect(await seriousViolations(page, CARD)).toEqual([]);

    const listener = outcomes();
    const wa = booking({ channel: 'whatsapp', priceCents: 123_450 });
    const chat = booking({ channel: 'chat', priceCents: 2000 });
    await listener.handle(userId, change('created', wa));
    await listener.handle(userId, change('created', wa));
    await listener.handle(userId, change('created', booking({ channel: 'voice' })));
    await listener.handle(userId, change('created', chat));
    await listener.handle(userId, change('cancelled', { ...chat, status: 'cancelled', updatedAt: new Date().toISOString() }));
    // The owner's own booking is not the agent's.
    await listener.handle(userId, change('created', booking({ bookedBy: 'owner', channel: 'dashboard', priceCents: 5000 })));

    await page.reload();
    await slowly(() => card.getByTestId('agent-bookings-count').textContent()).toBe('2');
    expect(plain(await card.getByTestId('agent-bookings-value').textContent())).toBe('Valor: 1.234,50 €');
    expect(await card.getByTestId('agent-bookings-cancelled').textContent()).toBe('1 cancelada después');
    const channel = (id: string) => card.getByTestId(`agent-bookings-${id}`);
    expect(plain(await channel('whatsapp').textContent())).toBe('WhatsApp1 cita1.234,50 €');
    expect(await channel('voice').textContent()).toBe('Teléfono1 cita');
    expect(await channel('chat').textContent()).toBe('Chat0 citas1 cancelada después');
    expect(await seriousViolations(page, CARD)).toEqual([]);

    await card.getByRole('link', { name: 'Ver citas' }).click();
    await eventually(() => new URL(page.url()).pathname).toBe('/bookings');
    await page.context().close();
  });
});

describe("the contact's timeline shows their bookings", () => {
  it('booked and moved, with the service, the staff member and the time in Madrid', async () => {
    const { page, userId } = await spanishClinic('contact-bookings');
    const digits = randomDigits(8);
    const contact = await callApi<Contact>(page, 'POST', '/api/contacts', { name: 'Lucía Pérez', phoneNumber: `6${digits}` });
    expect(contact.phoneNumber).toBe(`+346${digits}`);

    const listener = timeline();
    const made = booking({ customer: { name: 'Lucía Pérez', phone: contact.phoneNumber, contactId: contact._id } });
    // Moved to Wednesday 2 December, 17:30 in Madrid.
    const moved = { ...made, start: '2026-12-02T16:30:00.000Z', end: '2026-12-02T17:00:00.000Z', updatedAt: new Date(Date.now() - HOUR).toISOString() };
    await listener.handle(userId, change('created', made));
    await listener.handle(userId, change('moved', moved, made));

    await page.goto(`${appUrl}/contacts/${contact._id}`);
    const card = page.getByTestId('contact-timeline');
    const rows = card.getByTestId('contact-timeline-item');
    await slowly(() => rows.count()).toBe(2);
    expect(await rows.evaluateAll((r) => r.map((row) => row.getAttribute('data-event')))).toEqual(['moved', 'booked']);
    expect(await rows.nth(0).getByRole('link').textContent()).toBe('Cita cambiada');
    expect(await rows.nth(0).getByTestId('contact-timeline-booking').textContent()).toBe('Limpieza dental con Dra. García · 2 dic 2026, 17:30 · antes: 1 dic 2026, 10:00');
    expect(await rows.nth(1).getByRole('link').textContent()).toBe('Cita reservada');
    expect(await rows.nth(1).getByText('Por el agente').count()).toBe(1);
    expect(await rows.nth(0).getByRole('link').getAttribute('href')).toBe('/bookings?view=week&date=2026-12-02');
    expect(await seriousViolations(page, '[data-testid="contact-timeline"]')).toEqual([]);
    await page.context().close();
  });
});
