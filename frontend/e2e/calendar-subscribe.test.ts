/**
 * Issue 30's "the owner's own calendar" in a real browser, as a Spanish clinic (es-ES, Madrid):
 * the Subscribe tab of /bookings/setup makes the business's private calendar link, shows it once
 * with Copy (the link serves the clinic's booking as text/calendar), then masked; a new link asks
 * first and the old one stops at once. On /integrations the Google Calendar card connects through
 * the fake Google's consent page and back ("Google Calendar conectado."), chooses the calendars,
 * and disconnects. axe finds nothing serious on the panel, the card and the dialog.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { BookingService, BookingStaff } from '@agentdesk/functions/contract';
import { seriousViolations } from './axe.js';
import { LAPTOP, spanishOwner } from './layout.js';
import { callApi, dayIn, eventually, pathOf, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const ZONE = 'Europe/Madrid';
const allDay = { start: '08:00', end: '20:00' };
const hours = { mon: [allDay], tue: [allDay], wed: [allDay], thu: [allDay], fri: [allDay], sat: [allDay], sun: [allDay] };
const toast = (page: Page, text: string) => eventually(() => page.getByText(text, { exact: true }).count()).toBeGreaterThan(0);

async function clinic(page: Page): Promise<void> {
  await page.goto(`${appUrl}/`);
  await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES', timeZone: ZONE });
  const doctor = await callApi<BookingStaff>(page, 'POST', '/api/bookings/staff', { name: 'Dra. García', weeklyHours: hours });
  const service = await callApi<BookingService>(page, 'POST', '/api/bookings/services', { name: 'Limpieza dental', durationMinutes: 30, staffIds: [doctor._id] });
  const tomorrow = new Date(Date.parse(`${dayIn(ZONE)}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  await callApi(page, 'POST', '/api/bookings', { serviceId: service._id, staffId: doctor._id, start: `${tomorrow}T10:30`, customer: { name: 'Begoña Núñez', phone: '600111222' } });
}

describe("the owner's own calendar (Spanish clinic)", () => {
  it('makes the private calendar link, shown once and served as text/calendar; a new link stops the old one', async () => {
    const page = await spanishOwner(browser(), 'calendar-feed', LAPTOP);
    await clinic(page);
    await page.goto(`${appUrl}/bookings/setup?tab=subscribe`);
    const panel = page.getByTestId('calendar-feed-panel');
    await eventually(() => panel.getByRole('heading', { name: 'Suscríbete desde tu calendario' }).count()).toBe(1);
    const business = page.getByTestId('calendar-feed-business');
    await eventually(() => business.getByText('Aún no hay enlace').count()).toBe(1);
    expect(await page.getByTestId('calendar-feed-business').getByRole('heading').textContent()).toBe('Todo el negocio');
    expect(await seriousViolations(page, '[data-testid="calendar-feed-panel"]')).toEqual([]);

    await business.getByRole('button', { name: 'Crear enlace: Todo el negocio' }).click();
    const reveal = page.getByRole('dialog', { name: 'Tu enlace de calendario para Todo el negocio' });
    await eventually(() => reveal.count()).toBe(1);
    const url = await reveal.getByTestId('calendar-feed-url').inputValue();
    expect(url).toMatch(/\/api\/calendar-feeds\/[A-Za-z0-9_-]{43}$/);
    expect(await reveal.getByText('Cópialo ahora: por seguridad solo se muestra esta vez. Si lo pierdes, crea uno nuevo.').count()).toBe(1);
    const feed = await fetch(`${appUrl}${new URL(url).pathname}`);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(await feed.text()).toContain('Begoña Núñez · Limpieza dental · Dra. García');
    await reveal.getByRole('button', { name: 'Hecho' }).click();
    await eventually(() => business.getByText(/oculto por seguridad/).count()).toBe(1);
    expect(await panel.textContent()).not.toContain(url.split('/').pop()!);

    // A new link asks first; the old one answers 404 at once.
    await business.getByRole('button', { name: 'Nuevo enlace: Todo el negocio' }).click();
    const confirm = page.getByRole('dialog', { name: '¿Crear un enlace nuevo?' });
    await confirm.getByRole('button', { name: 'Crear enlace nuevo' }).click();
    const again = page.getByRole('dialog', { name: 'Tu enlace de calendario para Todo el negocio' });
    await eventually(async () => (await again.count()) === 1 && (await again.getByTestId('calendar-feed-url').inputValue()) !== url).toBe(true);
    expect((await fetch(`${appUrl}${new URL(url).pathname}`)).status).toBe(404);
    await again.getByRole('button', { name: 'Hecho' }).click();
    expect(pathOf(page)).toBe('/bookings/setup?tab=subscribe');
  });

  it('connects Google Calendar through Google and back, chooses the calendars and disconnects', async () => {
    const page = await spanishOwner(browser(), 'google-calendar', LAPTOP);
    await clinic(page);
    await page.goto(`${appUrl}/integrations`);
    const card = page.getByTestId('integration-google-calendar');
    await eventually(() => card.getByRole('button', { name: 'Conectar' }).isEnabled()).toBe(true);
    expect(await card.textContent()).toContain('No conectada');
    expect(await seriousViolations(page, '[data-testid="integration-google-calendar"]')).toEqual([]);

    await card.getByRole('button', { name: 'Conectar' }).click();
    // Google's consent page (the fake consents at once) sends the browser back to /integrations.
    await eventually(() => card.getByTestId('google-calendar-outcome').textContent()).toBe('Google Calendar conectado.');
    await eventually(() => pathOf(page)).toBe('/integrations');
    await eventually(() => card.getByTestId('google-calendar-account').textContent()).toMatch(/^Conectado como .+@/);

    await card.getByRole('button', { name: 'Elegir calendarios' }).click();
    const dialog = page.getByRole('dialog', { name: 'Google Calendar' });
    await eventually(() => dialog.getByRole('group', { name: 'Dra. García' }).count()).toBe(1);
    expect(await seriousViolations(page, '[data-testid="google-calendar-dialog"]')).toEqual([]);
    const own = dialog.getByRole('group', { name: 'Dra. García' }).getByRole('checkbox').first();
    await own.check();
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, 'Preferencias de Google Calendar guardadas');
    const staff = await callApi<BookingStaff[]>(page, 'GET', '/api/bookings/staff');
    expect(staff[0]?.googleCalendarIds).toHaveLength(1);

    await card.getByRole('button', { name: 'Desconectar' }).click();
    await page.getByRole('dialog', { name: '¿Desconectar Google Calendar?' }).getByRole('button', { name: 'Desconectar' }).click();
    await toast(page, 'Google Calendar desconectado');
    await eventually(() => card.getByRole('button', { name: 'Conectar' }).count()).toBe(1);
  });
});
