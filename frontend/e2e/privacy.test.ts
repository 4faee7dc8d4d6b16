/**
 * Patients' data under the owner's control (issue 33) in a real browser, in Spanish: the owner of
 * a clinic, on her phone (390×844), keeps call recordings 30 days instead of 90 and saves; on her
 * laptop she erases a patient from the contact page (the counts of what will go, BORRAR typed, the
 * job's progress, then the contact is gone and the list says so) after marking by hand that she wants
 * no more messages (the contact's chip); then a patient who was never saved
 * as a contact asks for his data: looked up on Settings → Privacidad by his national number
 * (611 222 444), exported, and the ZIP downloaded (its bytes start "PK" and it holds a JSON file).
 * axe finds nothing on the privacy page on either screen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { Booking, BookingService, BookingStaff, Contact, PersonDataInventory, PrivacySettings } from '@agentdesk/functions/contract';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import { allViolations } from './axe.js';
import { LAPTOP, PHONE, screenshot } from './layout.js';
import {
  callApi,
  chatGptAndAgent,
  connectWhatsAppBusiness,
  customerWrites,
  dayIn,
  downloadedBytes,
  eventually,
  graphSends,
  newPage,
  pathOf,
  randomDigits,
  slowly,
  subscribedUser,
  useBrowser,
} from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const ZONE = 'Europe/Madrid';

/** axe's findings on the page as it is, one line each. */
async function axeLines(page: Page, where: string): Promise<string[]> {
  const found = await allViolations(page);
  return found.flatMap((v) => v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) ${n.target} — ${n.summary.replace(/\s+/g, ' ')}`));
}

/** The privacy page has drawn its settings and its requests (no skeleton left). */
async function privacyPageReady(page: Page): Promise<void> {
  await eventually(() => page.getByRole('heading', { name: 'Privacidad', level: 1 }).count()).toBe(1);
  await eventually(() => page.locator('.MuiSkeleton-root, .MuiCircularProgress-root').count()).toBe(0);
}

describe('privacy: a Spanish clinic answers its patients', () => {
  it('sets retention on a phone, erases a patient from the contact page, exports another found by national number', async () => {
    // ---- The owner: a Spanish clinic with an agent on WhatsApp and bookings.
    const signup = await newPage(browser());
    await subscribedUser(signup, 'privacy-owner');
    await callApi(signup, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES', timeZone: ZONE });
    await chatGptAndAgent(signup, { name: 'Recepción', description: 'Responde por WhatsApp a los pacientes', objective: 'Dar citas y precios' });
    const business = await connectWhatsAppBusiness(signup);
    const open = [{ start: '09:00', end: '14:00' }];
    const weeklyHours = { mon: open, tue: open, wed: open, thu: open, fri: open, sat: open, sun: open };
    const dentist = await callApi<BookingStaff>(signup, 'POST', '/api/bookings/staff', { name: 'Dra. García', weeklyHours });
    const cleaning = await callApi<BookingService>(signup, 'POST', '/api/bookings/services', { name: 'Limpieza dental', durationMinutes: 30, staffIds: [dentist._id] });
    const tomorrow = new Date(Date.parse(`${dayIn(ZONE)}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

    // Lucía Muñoz: a saved contact who wrote on WhatsApp and has a booking.
    const luciaDigits = `346${randomDigits(8)}`;
    const lucia = await callApi<Contact>(signup, 'POST', '/api/contacts', { name: 'Lucía Muñoz', phoneNumber: `+${luciaDigits}` });
    await customerWrites(business, waCustomer('Lucía Muñoz', luciaDigits), 'Hola, ¿tenéis hueco el viernes?');
    await slowly(async () => (await graphSends(business.phoneId)).length).toBeGreaterThan(0);
    await callApi<Booking>(signup, 'POST', '/api/bookings', { serviceId: cleaning._id, staffId: dentist._id, start: `${tomorrow}T10:00`, customer: { name: 'Lucía Muñoz', phone: `+${luciaDigits}` } });
    // Jorge: booked by phone with his national number, never saved by hand.
    const jorgeNational = `611 ${randomDigits(3)} ${randomDigits(3)}`;
    await callApi<Booking>(signup, 'POST', '/api/bookings', { serviceId: cleaning._id, staffId: dentist._id, start: `${tomorrow}T11:00`, customer: { name: 'Jorge Ibáñez', phone: jorgeNational } });
    const storageState = await signup.context().storageState();
    await signup.context().close();

    // ---- On her phone: recordings kept 30 days instead of 90, saved.
    const phone = await newPage(browser(), { ...PHONE, storageState });
    await phone.goto(`${appUrl}/privacy-settings`);
    await privacyPageReady(phone);
    const recordings = phone.getByRole('combobox', { name: 'Grabaciones de llamadas' });
    expect(await recordings.textContent()).toBe('90 días (recomendado)');
    await eventually(() => phone.getByText('Los mensajes de WhatsApp de más de 24 meses se borran solos.').count()).toBe(1);
    await recordings.click();
    await phone.getByRole('option', { name: '30 días' }).click();
    await eventually(() => phone.getByText('Las grabaciones de llamadas de más de 30 días se borran solas, también en Twilio.').count()).toBe(1);
    // The notices are on by default in Spain, with the suggested wording.
    expect(await phone.getByRole('switch', { name: 'Avisar de que es un asistente de IA' }).isChecked()).toBe(true);
    expect(await phone.getByRole('textbox', { name: 'Texto en español' }).first().inputValue()).toContain('{business}');
    expect(await axeLines(phone, 'phone /privacy-settings')).toEqual([]);
    await screenshot(phone, 'privacy-phone');
    await phone.getByRole('button', { name: 'Guardar', exact: true }).click();
    await eventually(() => phone.getByText(/^Ajustes de privacidad guardados/).count()).toBeGreaterThan(0);
    expect((await callApi<PrivacySettings>(phone, 'GET', '/api/privacy/settings')).retention.recordings).toBe(30);
    await phone.context().close();

    // ---- On her laptop: Lucía asks to be erased. From her contact page.
    const page = await newPage(browser(), { ...LAPTOP, storageState });
    await page.goto(`${appUrl}/contacts/${lucia._id}`);
    await eventually(() => page.getByRole('heading', { name: 'Lucía Muñoz', level: 1 }).count()).toBe(1);
    expect(await page.getByTestId('opt-out-chip').textContent()).toBe('Recibe recordatorios y mensajes');
    // She said on the phone she wants no more reminders: marked by hand, and it stays after a reload.
    await page.getByRole('button', { name: 'Marcar que no quiere mensajes' }).click();
    await eventually(() => page.getByTestId('opt-out-chip').textContent()).toBe('No quiere mensajes (lo marcó tu equipo)');
    await page.reload();
    await eventually(() => page.getByTestId('opt-out-chip').textContent()).toBe('No quiere mensajes (lo marcó tu equipo)');
    expect(await page.getByRole('button', { name: 'Volver a enviarle mensajes' }).count()).toBe(1);
    await page.getByTestId('opt-out-chip').scrollIntoViewIfNeeded();
    await screenshot(page, 'privacy-contact');
    await page.getByRole('button', { name: 'Borrar todos sus datos' }).click();
    const eraseDialog = page.getByRole('dialog', { name: 'Borrar todos sus datos: Lucía Muñoz' });
    const counts = eraseDialog.getByTestId('privacy-erase-counts');
    await slowly(() => counts.count()).toBe(1);
    const said = (await counts.textContent()) ?? '';
    expect(said).toMatch(/1 contacto\b/);
    expect(said).toMatch(/1 conversación\b/);
    expect(said).toMatch(/\d+ mensajes?\b/);
    expect(said).toMatch(/1 cita\b/);
    const confirm = eraseDialog.getByRole('button', { name: 'Borrar todos sus datos' });
    expect(await confirm.isDisabled()).toBe(true);
    await eraseDialog.getByRole('textbox', { name: 'Escribe BORRAR para confirmar' }).fill('borrar');
    // The job's progress bar shows (however briefly: a quick job is done within a poll), then the contact is gone.
    await page.evaluate(() => {
      const seen = window as unknown as { sawProgress?: boolean };
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="privacy-job-progress"] [role="progressbar"]')) seen.sawProgress = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await screenshot(page, 'privacy-erase-dialog');
    await confirm.click();
    await slowly(() => page.evaluate(() => (window as unknown as { sawProgress?: boolean }).sawProgress === true)).toBe(true);
    await slowly(() => pathOf(page)).toBe('/contacts');
    await eventually(() => page.getByText('Los datos del contacto se han borrado').count()).toBeGreaterThan(0);
    const gone = await fetch(`${appUrl}/api/contacts/${lucia._id}`, {
      headers: { authorization: `Bearer ${await page.evaluate(() => (JSON.parse(localStorage.getItem('agentdesk.session') ?? '{}') as { token?: string }).token ?? '')}` },
    });
    expect(gone.status).toBe(404);
    const after = await callApi<PersonDataInventory>(page, 'POST', '/api/privacy/people/lookup', { phoneNumber: `+${luciaDigits}` }).catch(() => null);
    if (after) expect(Object.values(after.counts).every((n) => n === 0)).toBe(true);

    // ---- Jorge asks for his data: found by his national number on Settings → Privacidad.
    await page.goto(`${appUrl}/privacy-settings`);
    await privacyPageReady(page);
    expect(await axeLines(page, 'laptop /privacy-settings')).toEqual([]);
    // The erasure is listed, done, with what it erased and nobody named.
    const erasure = page.getByTestId('privacy-job').filter({ hasText: 'Borrado' }).first();
    await slowly(() => erasure.getAttribute('data-status')).toBe('done');
    expect(await erasure.textContent()).toMatch(/Persona borrada.*Borrado: .*1 contacto/);
    await page.getByRole('textbox', { name: 'Teléfono del cliente' }).fill(jorgeNational);
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    const result = page.getByTestId('privacy-lookup-result');
    await slowly(() => result.count()).toBe(1);
    expect(await result.getByTestId('privacy-lookup-counts').textContent()).toMatch(/\b1 cita$/);
    await result.getByRole('button', { name: 'Exportar' }).click();
    const exportDialog = page.getByRole('dialog', { name: /^Exportar sus datos: / });
    await exportDialog.getByRole('button', { name: 'Exportar', exact: true }).click();
    const download = exportDialog.getByRole('link', { name: 'Descargar' });
    await slowly(() => download.count()).toBe(1);
    expect(await exportDialog.getByTestId('privacy-job-done').textContent()).toMatch(/^Listo: .*1 cita/);
    await screenshot(page, 'privacy-export-ready');
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const bytes = await downloadedBytes(file);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    // A ZIP's central directory names its files: at least one JSON.
    expect(bytes.toString('latin1')).toMatch(/[\w/-]+\.json/);
    expect(file.suggestedFilename()).toMatch(/\.zip$/);

    // ---- The activity log: who erased and exported, with the counts and no name.
    await page.goto(`${appUrl}/activity`);
    const erasedEntry = page.getByTestId('activity-entry').filter({ hasText: 'borró todos los datos' });
    await slowly(() => erasedEntry.count()).toBe(1);
    expect(await erasedEntry.textContent()).not.toContain('Lucía');
    expect(await erasedEntry.getByTestId('activity-details').textContent()).toMatch(/^Borró .*1 contacto.*1 cita/);
    await eventually(() => page.getByTestId('activity-entry').filter({ hasText: 'cambió los ajustes de privacidad' }).count()).toBe(1);
    await screenshot(page, 'privacy-activity');
    await page.context().close();
  }, 300_000);

  it('the owner deletes the account: the dialog says what happens, ELIMINAR typed, signed out on the goodbye page', async () => {
    // Signed up in English (flows.ts's words), the account then in Spanish.
    const page = await newPage(browser(), { viewport: LAPTOP.viewport });
    await subscribedUser(page, 'privacy-delete');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Sur', language: 'es', country: 'ES', timeZone: ZONE });
    await page.goto(`${appUrl}/profile?tab=settings`);
    const card = page.getByTestId('account-deletion-card');
    await eventually(() => card.count()).toBe(1);
    await card.getByRole('button', { name: 'Eliminar la cuenta' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Eliminar la cuenta?' });
    expect(await dialog.textContent()).toMatch(/Se cancela tu suscripción.*pierden el acceso.*Se borran todos los datos.*último correo.*No se puede deshacer/);
    const confirm = dialog.getByRole('button', { name: 'Eliminar la cuenta para siempre' });
    await dialog.getByRole('textbox', { name: 'Escribe ELIMINAR para confirmar' }).fill('BORRAR');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Escribe ELIMINAR para confirmar' }).fill('eliminar');
    await confirm.click();
    await slowly(() => pathOf(page)).toBe('/account-deleted');
    await eventually(() => page.getByRole('heading', { name: 'Tu cuenta se está eliminando', level: 1 }).count()).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem('agentdesk.session'))).toBeNull();
    expect(await axeLines(page, '/account-deleted')).toEqual([]);
    await page.context().close();
  }, 120_000);
});
