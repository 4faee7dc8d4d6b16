/**
 * Issue 30's bookings setup in a real browser, as a Spanish clinic does it the first time (es-ES,
 * Madrid time, a laptop): the first-use guide at /bookings/setup (business hours → first staff
 * member → first service → done, with its link to the calendar), then the tabs: a second dentist
 * with a split day (09:00–14:00 and 16:00–20:00) edited from the keyboard's fields — an overlap
 * refused in Spanish before any call, "copy Monday to weekdays" — and a holiday of their own; the
 * service done by both, priced "45 €"; a holiday closure of the business; the rules (slot step,
 * reminder hours — a bad one refused in Spanish). Everything is checked through the API, the
 * getting-started step "Configura tus citas" is done, and axe finds nothing serious on the guide.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { BookingService, BookingSettings, BookingStaff, GettingStarted } from '@agentdesk/functions/contract';
import { seriousViolations } from './axe.js';
import { LAPTOP, spanishOwner } from './layout.js';
import { callApi, dayIn, eventually, pathOf, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const ZONE = 'Europe/Madrid';
const SPLIT = [
  { start: '09:00', end: '14:00' },
  { start: '16:00', end: '20:00' },
];

/** "YYYY-MM-DD" plus n days. */
const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** A toast's text shows (notistack). */
const toast = (page: Page, text: string) => eventually(() => page.getByText(text, { exact: true }).count()).toBeGreaterThan(0);

describe('bookings setup (Spanish clinic, first use)', () => {
  it('runs the guide, adds a second dentist with split hours and a holiday, a business closure and the rules; the API has it all', async () => {
    const page = await spanishOwner(browser(), 'bookings-setup', { ...LAPTOP, viewport: { width: 1366, height: 900 } });
    await page.goto(`${appUrl}/`);
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES', timeZone: ZONE });

    // First use: the guide, in Spanish.
    await page.goto(`${appUrl}/bookings/setup`);
    const guide = page.getByTestId('booking-wizard');
    await eventually(() => guide.getByRole('heading', { name: 'Configura tus citas' }).count()).toBe(1);
    await eventually(() => page.getByRole('heading', { name: 'Configuración de citas', level: 1 }).count()).toBe(1);
    expect(await seriousViolations(page, '[data-testid="booking-wizard"]')).toEqual([]);

    // 1. Business hours: a split day Monday to Friday to start with; weekends closed.
    expect(await page.getByLabel('Lunes, franja 1: desde').inputValue()).toBe('09:00');
    expect(await page.getByLabel('Lunes, franja 2: hasta').inputValue()).toBe('20:00');
    expect(await page.getByRole('switch', { name: 'Sábado: abierto' }).isChecked()).toBe(false);
    await guide.getByRole('button', { name: 'Siguiente' }).click();

    // 2. The first dentist (starts with those hours).
    await guide.getByRole('textbox', { name: 'Nombre' }).fill('Dra. García');
    await guide.getByRole('button', { name: 'Siguiente' }).click();
    await toast(page, 'Profesional guardado');

    // 3. The first service: 30 minutes, 45 € typed the Spanish way.
    await eventually(() => guide.getByRole('heading', { name: 'Primer servicio' }).count()).toBe(1);
    await guide.getByRole('textbox', { name: 'Nombre' }).fill('Limpieza dental');
    await guide.getByRole('spinbutton', { name: 'Duración (minutos)' }).fill('30');
    await guide.getByRole('textbox', { name: 'Precio (€)' }).fill('45');
    expect(await guide.getByRole('checkbox', { name: 'Dra. García' }).isChecked()).toBe(true);
    await guide.getByRole('button', { name: 'Siguiente' }).click();
    await toast(page, 'Servicio creado');

    // 4. Done: the calendar link, then on to the tabs.
    await eventually(() => guide.getByText('Las citas están listas').count()).toBe(1);
    expect(await guide.getByRole('link', { name: 'Abrir el calendario' }).getAttribute('href')).toBe('/bookings');
    expect(await seriousViolations(page, '[data-testid="booking-wizard"]')).toEqual([]);
    await guide.getByRole('button', { name: 'Seguir configurando' }).click();
    const service = page.getByTestId('booking-service').filter({ hasText: 'Limpieza dental' });
    await eventually(() => service.count()).toBe(1);
    expect(await service.textContent()).toContain('30 min');
    expect(await service.textContent()).toContain('45\u00a0€');

    // Staff & rooms: Dr. Pérez, his Monday edited from the fields; an overlap is refused before any call.
    await page.getByRole('tab', { name: 'Profesionales y salas' }).click();
    await eventually(() => page.getByTestId('booking-staff').filter({ hasText: 'Dra. García' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Añadir profesional o sala' }).click();
    const dialog = page.getByRole('dialog', { name: 'Añadir profesional o sala' });
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Dr. Pérez');
    await dialog.getByRole('button', { name: 'Quitar franja 2: Lunes' }).click();
    await dialog.getByRole('button', { name: 'Añadir franja: Lunes' }).click();
    expect(await dialog.getByLabel('Lunes, franja 2: desde').inputValue()).toBe('16:00');
    await dialog.getByLabel('Lunes, franja 2: desde').fill('13:00');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => dialog.getByText('Las franjas de un mismo día no pueden solaparse').count()).toBe(1);
    await dialog.getByLabel('Lunes, franja 2: desde').fill('16:00');
    // Tuesday closed, then Monday copied over the weekdays brings it back.
    await dialog.getByRole('switch', { name: 'Martes: abierto' }).click();
    expect(await dialog.getByLabel('Martes, franja 1: desde').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Copiar el lunes al resto de días laborables' }).click();
    expect(await dialog.getByLabel('Martes, franja 2: hasta').inputValue()).toBe('20:00');
    // His own holiday.
    const today = dayIn(ZONE);
    const leaveFrom = plusDays(today, 40);
    const leaveTo = plusDays(today, 44);
    await dialog.getByLabel('Desde', { exact: true }).last().fill(leaveFrom);
    await dialog.getByLabel('Hasta', { exact: true }).last().fill(leaveTo);
    await dialog.getByRole('textbox', { name: 'Motivo' }).fill('Vacaciones');
    await dialog.getByRole('button', { name: 'Añadir cierre' }).click();
    await eventually(() => dialog.getByTestId('closure').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, 'Profesional guardado');
    await eventually(() => dialog.count()).toBe(0);
    const perez = page.getByTestId('booking-staff').filter({ hasText: 'Dr. Pérez' });
    await eventually(() => perez.count()).toBe(1);
    expect(await perez.textContent()).toContain('09:00–14:00, 16:00–20:00');
    expect(await perez.textContent()).toContain('1 cierre próximo');

    // The service done by both dentists.
    await page.getByRole('tab', { name: 'Servicios' }).click();
    await page.getByRole('button', { name: 'Editar Limpieza dental' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar servicio' });
    expect(await edit.getByRole('textbox', { name: 'Precio (€)' }).inputValue()).toBe('45');
    await edit.getByRole('checkbox', { name: 'Dr. Pérez' }).check();
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, 'Servicio actualizado');
    await eventually(() => service.textContent()).toContain('Dra. García, Dr. Pérez');

    // A holiday closure of the whole business.
    await page.getByRole('tab', { name: 'Cierres' }).click();
    await eventually(() => page.getByRole('heading', { name: 'Cierres y festivos del negocio' }).count()).toBe(1);
    const holiday = plusDays(today, 20);
    await page.getByLabel('Desde', { exact: true }).fill(holiday);
    await page.getByLabel('Hasta', { exact: true }).fill(holiday);
    await page.getByRole('textbox', { name: 'Motivo' }).fill('Fiesta local');
    await page.getByRole('button', { name: 'Añadir cierre' }).click();
    await toast(page, 'Cierres guardados');
    await eventually(() => page.getByTestId('closure').filter({ hasText: 'Fiesta local' }).count()).toBe(1);

    // The rules: a bad reminder time is refused in Spanish; then 30-minute slots and a reminder 48 h before.
    await page.getByRole('tab', { name: 'Reglas' }).click();
    await eventually(() => page.getByRole('heading', { name: 'Reglas de reserva' }).count()).toBe(1);
    expect(await page.getByRole('combobox', { name: 'Zona horaria' }).inputValue()).toBe(ZONE);
    await page.getByRole('combobox', { name: 'Intervalo entre horas' }).click();
    await page.getByRole('option', { name: '30 min' }).click();
    await page.getByRole('spinbutton', { name: 'Horas antes' }).fill('500');
    await page.getByRole('button', { name: 'Guardar reglas' }).click();
    await eventually(() => page.getByText('El recordatorio debe enviarse un número entero de horas antes, entre 1 y 168').count()).toBe(1);
    await page.getByRole('spinbutton', { name: 'Horas antes' }).fill('48');
    await page.getByRole('button', { name: 'Guardar reglas' }).click();
    await toast(page, 'Ajustes de citas guardados');

    // The calendar link back.
    expect(await page.getByRole('link', { name: 'Calendario' }).getAttribute('href')).toBe('/bookings');

    // Through the API: the service, both dentists with their split days, the closures, the rules.
    const services = await callApi<BookingService[]>(page, 'GET', '/api/bookings/services');
    const staff = await callApi<BookingStaff[]>(page, 'GET', '/api/bookings/staff');
    const settings = await callApi<BookingSettings>(page, 'GET', '/api/bookings/settings');
    const garcia = staff.find((s) => s.name === 'Dra. García')!;
    const drPerez = staff.find((s) => s.name === 'Dr. Pérez')!;
    expect(services).toHaveLength(1);
    expect(services[0]).toMatchObject({ name: 'Limpieza dental', durationMinutes: 30, priceCents: 4500, bufferAfterMinutes: 0, bookableByAgent: true });
    expect([...services[0]!.staffIds].sort()).toEqual([garcia._id, drPerez._id].sort());
    for (const member of [garcia, drPerez]) {
      expect(member.kind).toBe('person');
      for (const day of ['mon', 'tue', 'wed', 'thu', 'fri'] as const) expect(member.weeklyHours[day], `${member.name} ${day}`).toEqual(SPLIT);
      expect(member.weeklyHours.sat).toEqual([]);
      expect(member.weeklyHours.sun).toEqual([]);
    }
    expect(drPerez.closures).toMatchObject([{ from: leaveFrom, to: leaveTo, reason: 'Vacaciones' }]);
    expect(garcia.closures).toEqual([]);
    expect(settings).toMatchObject({ timeZone: ZONE, slotStepMinutes: 30, reminderHours: 48, remindersEnabled: true });
    expect(settings.closures).toMatchObject([{ from: holiday, to: holiday, reason: 'Fiesta local' }]);

    // The dashboard's getting-started step is done, and links here.
    const checklist = await callApi<GettingStarted>(page, 'GET', '/api/dashboard/getting-started');
    expect(checklist.steps.find((s) => s.id === 'bookings')?.done).toBe(true);
    await page.getByRole('link', { name: 'Calendario' }).click();
    await eventually(() => pathOf(page)).toBe('/bookings');
  });
});
