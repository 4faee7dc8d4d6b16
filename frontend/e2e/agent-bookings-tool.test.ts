/**
 * Issue 30's built-in Bookings tool in a real browser, as a Spanish clinic (es-ES, Madrid time, a
 * laptop): the agent's "Herramientas personalizadas" tab shows the "Citas" card with its switch and
 * one-line explanation, a link to set up services and staff while there are none, and — the test
 * chat books for the owner's profile phone — a link to the profile while it has none; the switch
 * turns Bookings on (the API says so); with a service, a dentist and a phone, the Test Agent chat
 * books, and the booking is in the API for the owner's phone. axe finds nothing serious on the card.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { Agent, BookingList, BookingService, BookingStaff } from '@agentdesk/functions/contract';
import { seriousViolations } from './axe.js';
import { LAPTOP, spanishOwner } from './layout.js';
import { callApi, chatGptAndAgent, dayIn, eventually, slowly, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const ZONE = 'Europe/Madrid';
const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** The first Tuesday at least a week ahead. */
const aTuesday = () => {
  const from = plusDays(dayIn(ZONE), 7);
  return plusDays(from, (2 - new Date(`${from}T12:00:00Z`).getUTCDay() + 7) % 7);
};
const mornings = [{ start: '09:00', end: '14:00' }];

const toast = (page: Page, text: string) => eventually(() => page.getByText(text, { exact: true }).count()).toBeGreaterThan(0);

describe('the Bookings tool of an agent (Spanish clinic)', () => {
  it('switches on from the Custom Tools tab, links to the setup, and the Test Agent chat books for the owner', async () => {
    const page = await spanishOwner(browser(), 'agent-bookings', LAPTOP);
    await page.goto(`${appUrl}/`);
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES', timeZone: ZONE });
    await chatGptAndAgent(page, { name: 'Sonia', description: 'Recepcionista de la clínica', objective: 'Dar citas' });
    const [agent] = await callApi<Agent[]>(page, 'GET', '/api/agents');
    expect(agent!.bookingsEnabled).toBe(false);

    await page.goto(`${appUrl}/agents/${agent!._id}?tab=tools`);
    const card = page.getByTestId('bookings-tool');
    await eventually(() => card.getByRole('heading', { name: 'Citas' }).count()).toBe(1);
    expect(await card.innerText()).toContain('Integrada');
    expect(await card.innerText()).toContain('El agente busca huecos libres y reserva, cambia o cancela citas en tu calendario');
    // Nothing to book yet: the way to the setup.
    await eventually(() => card.getByRole('link', { name: 'Configurar citas' }).count()).toBe(1);
    expect(await card.getByRole('link', { name: 'Configurar citas' }).getAttribute('href')).toBe('/bookings/setup');

    const toggle = card.getByRole('switch', { name: 'Citas: permitir que este agente reserve citas' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await toast(page, 'Citas activadas para este agente');
    await eventually(() => toggle.isChecked()).toBe(true);
    expect((await callApi<Agent>(page, 'GET', `/api/agents/${agent!._id}`)).bookingsEnabled).toBe(true);
    // On, and the owner has no phone: the test chat cannot book for them yet.
    await eventually(() => card.getByRole('link', { name: 'Añadir tu teléfono' }).count()).toBe(1);
    expect(await seriousViolations(page, '[data-testid="bookings-tool"]')).toEqual([]);

    // A dentist, a cleaning and the owner's phone (typed the Spanish way): the links go.
    const staff = await callApi<BookingStaff>(page, 'POST', '/api/bookings/staff', { name: 'Dra. García', weeklyHours: { mon: mornings, tue: mornings, wed: mornings, thu: mornings, fri: mornings, sat: [], sun: [] } });
    await callApi<BookingService>(page, 'POST', '/api/bookings/services', { name: 'Limpieza dental', durationMinutes: 30, staffIds: [staff._id] });
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES', timeZone: ZONE, phoneNumber: '612 345 678' });
    await page.reload();
    await eventually(() => card.getByRole('switch', { name: 'Citas: permitir que este agente reserve citas' }).isChecked()).toBe(true);
    await eventually(() => card.getByRole('link').count()).toBe(0);

    // The Test Agent chat books (the fake model calls the tool the message names).
    const tuesday = aTuesday();
    await page.getByRole('tab', { name: 'Probar agente' }).click();
    const input = page.getByLabel('Mensaje', { exact: true });
    await input.fill(`book start=${tuesday}T10:30 service=Limpieza customer_name="Clínica Peña" customer_confirmed=true`);
    await input.press('Enter');
    const reply = page.getByTestId('chat-agent-message');
    await slowly(() => reply.count()).toBe(1);
    await expect.poll(() => reply.innerText()).toContain('Booked: Limpieza dental, martes');
    const list = await callApi<BookingList>(page, 'GET', `/api/bookings?from=${dayIn(ZONE)}&to=${plusDays(dayIn(ZONE), 30)}`);
    expect(list.bookings).toHaveLength(1);
    expect(list.bookings[0]).toMatchObject({ channel: 'chat', bookedBy: 'agent', customer: { phone: '+34612345678', name: 'Clínica Peña' } });
    await page.context().close();
  });
});
