/**
 * Issue 30's calendar page in a real browser, as a Spanish clinic uses it (es-ES, Madrid time, a
 * laptop): a service and two staff members, a booking in the week view; the owner drags it to
 * another time (the PATCH is stored), drags it onto a taken time (it goes back, and the page says
 * why in Spanish), books a new patient from an empty time (a phone without +34), moves a booking
 * to the other staff member from the keyboard's Move form, filters by staff, and cancels from the
 * booking's detail.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { Booking, BookingList, BookingService, BookingSettings, BookingStaff, WeeklyHours } from '@agentdesk/functions/contract';
import { LAPTOP, spanishOwner } from './layout.js';
import { callApi, dayIn, eventually, useBrowser } from './flows.js';

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

describe('the bookings calendar (Spanish clinic)', () => {
  it('shows the week, moves by drag (a taken time reverts in Spanish), books from an empty time, moves from the keyboard and cancels from the detail', async () => {
    const page = await spanishOwner(browser(), 'citas', { ...LAPTOP, viewport: { width: 1366, height: 900 } });
    await page.goto(`${appUrl}/`);
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES', timeZone: ZONE });

    // The business: Madrid time, no minimum notice; a 30-minute cleaning two dentists do.
    const settings = await callApi<BookingSettings>(page, 'GET', '/api/bookings/settings');
    const { updatedAt: _updatedAt, ...rules } = settings;
    await callApi(page, 'PUT', '/api/bookings/settings', { ...rules, timeZone: ZONE, minNoticeMinutes: 0, slotStepMinutes: 15 });
    const garcia = await callApi<BookingStaff>(page, 'POST', '/api/bookings/staff', { name: 'Dra. García', weeklyHours: WEEKDAYS_OPEN });
    const ruiz = await callApi<BookingStaff>(page, 'POST', '/api/bookings/staff', { name: 'Dr. Ruiz', weeklyHours: WEEKDAYS_OPEN });
    const cleaning = await callApi<BookingService>(page, 'POST', '/api/bookings/services', {
      name: 'Limpieza dental',
      durationMinutes: 30,
      staffIds: [garcia._id, ruiz._id],
    });
    const monday = nextMonday();
    const tuesday = plusDays(monday, 1);
    const wednesday = plusDays(monday, 2);
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
    const event = (id: string) => page.locator(`[data-booking-id="${id}"]`);
    await eventually(() => event(lucia._id).count()).toBe(1);
    expect(await page.locator('.fc-col-header-cell').first().getAttribute('data-date')).toBe(monday);
    expect(await page.locator('.fc-col-header-cell').first().textContent()).toMatch(/^lun/);
    expect(await page.locator('.fc-timegrid-slot-label[data-time="16:00:00"]').first().textContent()).toBe('16:00');
    // A button named by what it shows: the time, the customer, the service and who (not only a colour).
    expect(await event(lucia._id).getAttribute('role')).toBe('button');
    expect(await event(lucia._id).textContent()).toBe('10:00 - 10:30Lucía Núñez · Limpieza dental · Dra. García');

    const column = (day: string) => page.locator(`.fc-timegrid-col[data-date="${day}"]`);
    const slot = (time: string) => page.locator(`.fc-timegrid-slot-lane[data-time="${time}:00"]`);
    const box = async (locator: Locator) => {
      const b = await locator.boundingBox();
      if (!b) throw new Error('not on screen');
      return b;
    };
    /** Drags a booking's event by its first quarter hour onto a day's time. */
    const dragTo = async (id: string, day: string, time: string) => {
      await event(id).scrollIntoViewIfNeeded();
      const from = await box(event(id));
      const col = await box(column(day));
      const row = await box(slot(time));
      await drag(page, { x: from.x + from.width / 2, y: from.y + 4 }, { x: col.x + col.width / 2, y: row.y + 4 });
    };

    // Drag Lucía from 10:00 to 11:00: the move is stored.
    await dragTo(lucia._id, tuesday, '11:00');
    await eventually(() => page.getByText('Cita movida').count()).toBeGreaterThan(0);
    await eventually(async () => madrid((await stored(lucia._id)).start)).toBe(`${tuesday} 11:00`);

    // Onto Pablo's 12:00: refused, the event goes back to 11:00 and the page says why in Spanish.
    await dragTo(lucia._id, tuesday, '12:00');
    await eventually(() => page.getByText('Esta hora ya no está libre: elige otra').count()).toBeGreaterThan(0);
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
    await page.keyboard.press('Escape');
    await eventually(() => event(lucia._id).count()).toBe(0);

    // The list view shows it, cancelled, beside the others.
    await page.getByRole('button', { name: 'Lista' }).click();
    const list = page.getByTestId('bookings-list');
    await eventually(() => list.getByRole('row').filter({ hasText: 'Lucía Núñez' }).filter({ hasText: 'Cancelada' }).count()).toBe(1);
  }, 240_000);
});
