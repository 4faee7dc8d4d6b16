/**
 * Issue 30's calendar page in a real browser, as a Spanish clinic uses it (es-ES, Madrid time, a
 * laptop): a service and two staff members, a booking in the week view; the owner drags it to
 * another time (the PATCH is stored), drags it onto a taken time and into the lunch break (it goes
 * back, and the page says why in Spanish), books a new patient from an empty time (a phone without +34), moves a booking
 * to the other staff member from the keyboard's Move form, marks it a no-show, filters by staff, and cancels from the
 * booking's detail. Then the issue's whole browser flow: the agent (its Bookings switch on) books
 * from the Test Agent chat, the booking shows in the week view, the owner drags it, and the
 * customer's WhatsApp gets the change.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { Agent, Booking, BookingList, BookingService, BookingSettings, BookingStaff, WeeklyHours } from '@agentdesk/functions/contract';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import { LAPTOP, spanishOwner } from './layout.js';
import {
  callApi,
  chatGptAndAgent,
  connectWhatsAppBusiness,
  customerWrites,
  dayIn,
  eventually,
  graphSends,
  randomDigits,
  slowly,
  useBrowser,
} from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const ZONE = 'Europe/Madrid';

const SPLIT_SHIFT = [
  { start: '09:00', end: '14:00' },
  { start: '16:00', end: '20:00' },
];
const WEEKDAYS_OPEN: WeeklyHours = { mon: SPLIT_SHIFT, tue: SPLIT_SHIFT, wed: SPLIT_SHIFT, thu: SPLIT_SHIFT, fri: SPLIT_SHIFT, sat: [], sun: [] };

/** "YYYY-MM-DD" plus n days. */
const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** Next week's Monday in Madrid (always ahead of the minimum notice, always inside how far ahead one may book). */
function nextMonday(): string {
  const today = dayIn(ZONE);
  const weekday = (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return plusDays(today, 7 - weekday);
}
/** A booking's start as Madrid's wall clock: "YYYY-MM-DD HH:mm". */
const madrid = (iso: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: ZONE, dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));

/** Drags with the mouse from one point to another in small steps, as FullCalendar's pointer handling needs. */
async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 4, from.y + 4, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

/** A Spanish owner (Madrid, Spain; `phoneNumber`: their profile's, the Test Agent chat's customer) on a laptop. */
async function clinicOwner(label: string, phoneNumber = ''): Promise<Page> {
  const page = await spanishOwner(browser(), label, { ...LAPTOP, viewport: { width: 1366, height: 900 } });
  await page.goto(`${appUrl}/`);
  await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES', timeZone: ZONE, phoneNumber });
  return page;
}

/** The business, through the API: Madrid time, no minimum notice; a 30-minute cleaning two dentists do, weekdays 9–14 and 16–20. */
async function setUpClinic(page: Page) {
  const settings = await callApi<BookingSettings>(page, 'GET', '/api/bookings/settings');
  const { updatedAt: _updatedAt, ...rules } = settings;
  await callApi(page, 'PUT', '/api/bookings/settings', { ...rules, timeZone: ZONE, minNoticeMinutes: 0, slotStepMinutes: 15 });
  const garcia = await callApi<BookingStaff>(page, 'POST', '/api/bookings/staff', { name: 'Dra. García', weeklyHours: WEEKDAYS_OPEN });
  const ruiz = await callApi<BookingStaff>(page, 'POST', '/api/bookings/staff', { name: 'Dr. Ruiz', weeklyHours: WEEKDAYS_OPEN });
  const cleaning = await callApi<BookingService>(page, 'POST', '/api/bookings/services', { name: 'Limpieza dental', durationMinutes: 30, staffIds: [garcia._id, ruiz._id] });
  const monday = nextMonday();
  return { garcia, ruiz, cleaning, monday, tuesday: plusDays(monday, 1), wednesday: plusDays(monday, 2) };
}

/** The week grid's parts: a booking's event, a day's column, a time's row, and a drag of an event (by its first quarter hour) onto a day's time. */
function grid(page: Page) {
  const event = (id: string) => page.locator(`[data-booking-id="${id}"]`);
  const column = (day: string) => page.locator(`.fc-timegrid-col[data-date="${day}"]`);
  const slot = (time: string) => page.locator(`.fc-timegrid-slot-lane[data-time="${time}:00"]`);
  const box = async (locator: Locator) => {
    const b = await locator.boundingBox();
    if (!b) throw new Error('not on screen');
    return b;
  };
  const dragTo = async (id: string, day: string, time: string) => {
    // Both ends in view: the page scrolled so that the midpoint of the event and the target is centred.
    const [a, b] = [await box(event(id)), await box(slot(time))];
    await page.evaluate((dy) => window.scrollBy(0, dy), (a.y + b.y) / 2 - (page.viewportSize()?.height ?? 900) / 2);
    const from = await box(event(id));
    const col = await box(column(day));
    const row = await box(slot(time));
    await drag(page, { x: from.x + from.width / 2, y: from.y + 4 }, { x: col.x + col.width / 2, y: row.y + 4 });
  };
  return { event, column, slot, box, dragTo };
}

describe('the bookings calendar (Spanish clinic)', () => {
  it('shows the week, moves by drag (a taken time or the lunch break reverts, saying why in Spanish), books from an empty time, moves from the keyboard and cancels from the detail', async () => {
    const page = await clinicOwner('citas');
    const { garcia, ruiz, cleaning, monday, tuesday, wednesday } = await setUpClinic(page);
    const book = (name: string, phone: string, start: string) =>
      callApi<Booking>(page, 'POST', '/api/bookings', { serviceId: cleaning._id, staffId: garcia._id, start, customer: { name, phone } });
    const lucia = await book('Lucía Núñez', '612 34 56 78', `${tuesday}T10:00`);
    await book('Pablo Gómez', '612 34 56 79', `${tuesday}T12:00`);
    expect(madrid(lucia.start)).toBe(`${tuesday} 10:00`);
    expect(lucia.customer.phone).toBe('+34612345678');
    const stored = async (id: string) => callApi<Booking>(page, 'GET', `/api/bookings/${id}`);

    // The sidebar's "Citas" opens the week view, in Spanish, Monday first.
    await page.goto(`${appUrl}/`);
    await page.getByTestId('nav-bookings').click();
    await eventually(() => page.getByRole('heading', { name: 'Citas', level: 1 }).count()).toBe(1);
    await eventually(() => page.getByTestId('bookings-calendar').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Semana', pressed: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Siguiente' }).click();
    const { event, column, slot, box, dragTo } = grid(page);
    await eventually(() => event(lucia._id).count()).toBe(1);
    expect(await page.locator('.fc-col-header-cell').first().getAttribute('data-date')).toBe(monday);
    expect(await page.locator('.fc-col-header-cell').first().textContent()).toMatch(/^lun/);
    expect(await page.locator('.fc-timegrid-slot-label[data-time="16:00:00"]').first().textContent()).toBe('16:00');
    // A button named by what it shows: the time, the customer, the service and who (not only a colour).
    expect(await event(lucia._id).getAttribute('role')).toBe('button');
    expect(await event(lucia._id).textContent()).toBe('10:00 - 10:30Lucía Núñez · Limpieza dental · Dra. García');


    // Drag Lucía from 10:00 to 11:00: the move is stored.
    await dragTo(lucia._id, tuesday, '11:00');
    await eventually(() => page.getByText('Cita movida').count()).toBeGreaterThan(0);
    await eventually(async () => madrid((await stored(lucia._id)).start)).toBe(`${tuesday} 11:00`);

    // Onto Pablo's 12:00: refused, the event goes back to 11:00 and the page says why in Spanish.
    await dragTo(lucia._id, tuesday, '12:00');
    await eventually(() => page.getByText('Esta hora ya no está libre: elige otra').count()).toBeGreaterThan(0);
    expect(madrid((await stored(lucia._id)).start)).toBe(`${tuesday} 11:00`);
    await eventually(async () => Math.abs((await box(event(lucia._id))).y - (await box(slot('11:00'))).y) < 4).toBe(true);
    // Onto the lunch break (closed 14:00–16:00): refused as outside the hours, back at 11:00.
    await dragTo(lucia._id, tuesday, '14:30');
    await eventually(() => page.getByText('Esta hora está fuera del horario').count()).toBeGreaterThan(0);
    expect(madrid((await stored(lucia._id)).start)).toBe(`${tuesday} 11:00`);
    await eventually(async () => Math.abs((await box(event(lucia._id))).y - (await box(slot('11:00'))).y) < 4).toBe(true);

    // A new patient from an empty time (Wednesday 16:00), the phone written without +34.
    await slot('16:00').scrollIntoViewIfNeeded();
    const col = await box(column(wednesday));
    const row = await box(slot('16:00'));
    await page.mouse.click(col.x + col.width / 2, row.y + 4);
    const dialog = page.getByRole('dialog', { name: 'Nueva cita' });
    await eventually(() => dialog.count()).toBe(1);
    expect(await dialog.getByLabel('Fecha').inputValue()).toBe(wednesday);
    expect(await dialog.getByLabel('Hora').inputValue()).toBe('16:00');
    await dialog.getByLabel('Nombre del cliente').fill('Álvaro Peña');
    await dialog.getByLabel('Teléfono del cliente').fill('622 33 44 55');
    await dialog.getByRole('button', { name: 'Reservar' }).click();
    await eventually(() => dialog.count()).toBe(0);
    const dayList = async () => (await callApi<BookingList>(page, 'GET', `/api/bookings?from=${wednesday}&to=${wednesday}`)).bookings;
    await eventually(async () => (await dayList()).map((b) => `${b.customer.name} ${b.customer.phone} ${madrid(b.start)}`)).toEqual([`Álvaro Peña +34622334455 ${wednesday} 16:00`]);
    const alvaro = (await dayList())[0]!;
    await eventually(() => event(alvaro._id).count()).toBe(1);

    // The keyboard's drag: the detail's Move form gives Álvaro to Dr. Ruiz at 17:00.
    await event(alvaro._id).focus();
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('booking-detail');
    await eventually(() => detail.count()).toBe(1);
    expect(await detail.getByTestId('booking-phone').textContent()).toBe('622 33 44 55');
    const move = detail.getByTestId('move-form');
    await move.getByLabel('Hora').fill('17:00');
    await move.getByRole('combobox', { name: 'Profesional' }).click();
    await page.getByRole('option', { name: 'Dr. Ruiz' }).click();
    await move.getByRole('button', { name: 'Mover cita' }).click();
    await eventually(async () => {
      const b = await stored(alvaro._id);
      return `${b.staffName} ${madrid(b.start)}`;
    }).toBe(`Dr. Ruiz ${wednesday} 17:00`);
    await eventually(() => detail.getByTestId('booking-staff').textContent()).toBe('Dr. Ruiz');
    // The status from the detail: he did not come. The event says so and no longer moves.
    await detail.getByRole('button', { name: 'Marcar como no presentada' }).click();
    await eventually(async () => (await stored(alvaro._id)).status).toBe('no_show');
    await eventually(() => detail.getByTestId('booking-status').textContent()).toBe('No se presentó');
    expect(await detail.getByTestId('move-form').count()).toBe(0);
    await eventually(() => event(alvaro._id).textContent()).toBe('17:00 - 17:30Álvaro Peña · Limpieza dental · Dr. Ruiz · No se presentó');
    await page.keyboard.press('Escape');
    await eventually(() => detail.count()).toBe(0);

    // The staff chips: only Dr. Ruiz's bookings.
    await page.getByTestId(`staff-chip-${ruiz._id}`).click();
    await eventually(() => event(lucia._id).count()).toBe(0);
    expect(await event(alvaro._id).count()).toBe(1);
    await page.getByRole('button', { name: 'Todos' }).click();
    await eventually(() => event(lucia._id).count()).toBe(1);

    // Cancel Lucía's booking from its detail.
    await event(lucia._id).click();
    await eventually(() => detail.count()).toBe(1);
    await detail.getByRole('button', { name: 'Cancelar cita' }).click();
    const confirm = page.getByRole('dialog', { name: '¿Cancelar esta cita?' });
    await confirm.getByRole('button', { name: 'Cancelar cita' }).click();
    await eventually(async () => (await stored(lucia._id)).status).toBe('cancelled');
    await eventually(() => detail.getByTestId('booking-status').textContent()).toBe('Cancelada');
    // The Cancel button is gone: the focus is back on the detail (not lost on the page), so Escape closes it.
    await eventually(() => page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="booking-detail"]')))).toBe(true);
    // Escape goes to the topmost modal: the confirmation must be gone (its closing transition too).
    await eventually(() => confirm.count()).toBe(0);
    await page.keyboard.press('Escape');
    await eventually(() => detail.count()).toBe(0);
    await eventually(() => event(lucia._id).count()).toBe(0);

    // The list view shows it, cancelled, beside the others.
    await page.getByRole('button', { name: 'Lista' }).click();
    const list = page.getByTestId('bookings-list');
    await eventually(() => list.getByRole('row').filter({ hasText: 'Lucía Núñez' }).filter({ hasText: 'Cancelada' }).count()).toBe(1);
  }, 240_000);

  it('the agent books from the Test Agent chat, the booking shows in the week view, the owner drags it and the customer gets the change on WhatsApp', async () => {
    // The owner's profile phone is the test chat's customer; the same number writes on WhatsApp (the 24-hour window is open).
    const digits = `3461${randomDigits(7)}`;
    const page = await clinicOwner('citas-agente', `+${digits}`);
    const { tuesday } = await setUpClinic(page);
    await chatGptAndAgent(page, { name: 'Recepción', description: 'Atiende a los pacientes', objective: 'Dar citas' });
    const agent = (await callApi<Agent[]>(page, 'GET', '/api/agents')).find((a) => a.name === 'Recepción')!;
    const business = await connectWhatsAppBusiness(page);
    await customerWrites(business, waCustomer('Ana Peña', digits), 'Hola, quiero pedir cita para una limpieza');
    const toAna = async () => (await graphSends(business.phoneId)).filter((m) => m.to === digits && m.status === 200).map((m) => m.text);
    // The agent answered her: her message is stored and the window is open.
    await slowly(async () => (await toAna()).length).toBeGreaterThan(0);

    // The agent's Bookings switch, in its Custom Tools tab.
    await page.goto(`${appUrl}/agents/${agent._id}?tab=tools`);
    const bookingsSwitch = page.getByLabel('Citas: permitir que este agente reserve citas');
    await eventually(() => bookingsSwitch.count()).toBe(1);
    // A controlled switch: it turns on once the server saved it.
    await bookingsSwitch.click();
    await eventually(() => page.getByText('Citas activadas para este agente').count()).toBeGreaterThan(0);
    await eventually(() => bookingsSwitch.isChecked()).toBe(true);

    // Test Agent: the (fake) model calls book with the arguments the message names.
    await page.getByRole('tab', { name: 'Probar agente' }).click();
    const input = page.getByLabel('Mensaje', { exact: true });
    await input.fill(`book start=${tuesday}T09:30 service="Limpieza dental" staff="Dra. García" customer_name="Ana Peña" customer_confirmed=true`);
    await input.press('Enter');
    await slowly(() => page.getByTestId('chat-agent-message').count()).toBe(1);
    const tuesdayList = async () => (await callApi<BookingList>(page, 'GET', `/api/bookings?from=${tuesday}&to=${tuesday}`)).bookings;
    await eventually(async () => (await tuesdayList()).map((b) => `${b.customer.name} ${b.customer.phone} ${b.staffName} ${madrid(b.start)} ${b.channel} ${b.bookedBy}`)).toEqual([
      `Ana Peña +${digits} Dra. García ${tuesday} 09:30 chat agent`,
    ]);
    const ana = (await tuesdayList())[0]!;
    await slowly(async () => (await toAna()).some((text) => text.startsWith('Tu cita de Limpieza dental (Dra. García) está confirmada para el'))).toBe(true);

    // The week view shows it; the owner drags it to 11:00.
    await page.goto(`${appUrl}/bookings?date=${tuesday}`);
    const { event, dragTo } = grid(page);
    await eventually(() => event(ana._id).count()).toBe(1);
    expect(await event(ana._id).textContent()).toBe('09:30 - 10:00Ana Peña · Limpieza dental · Dra. García');
    await dragTo(ana._id, tuesday, '11:00');
    await eventually(async () => madrid((await callApi<Booking>(page, 'GET', `/api/bookings/${ana._id}`)).start)).toBe(`${tuesday} 11:00`);

    // Ana's WhatsApp gets the change, in Spanish, with the new time and the old one.
    await slowly(async () => (await toAna()).find((text) => text.includes('ha cambiado')) ?? '').toMatch(
      /^Tu cita de Limpieza dental \(Dra\. García\) ha cambiado: ahora es el .+ a las 11:00 \(antes, el .+ a las 09:30\)\.$/,
    );
  }, 240_000);
});
