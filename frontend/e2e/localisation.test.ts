/**
 * Issue 19's localisation in a real browser: the profile's language switch confirms in the new
 * language, and a Spanish owner in Mexico City reads a WhatsApp customer's contact page in
 * Spanish (origin "WhatsApp") with its dates in their own time zone, not the browser's.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Contact } from '../../functions/src/contract/contacts.js';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import { callApi, chatGptAndAgent, connectWhatsAppBusiness, customerWrites, eventually, newPage, randomDigits, slowly, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

describe('localisation', () => {
  it('says "profile updated" in the language just chosen', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'language-toast');

    await page.goto(`${appUrl}/profile?tab=settings`);
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Español' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();

    await eventually(() => page.getByText('¡Perfil actualizado correctamente!').count()).toBe(1);
    expect(await page.getByText('Profile updated successfully!').count()).toBe(0);
    // And the page itself is Spanish now.
    await eventually(() => page.getByRole('button', { name: 'Guardar cambios' }).count()).toBe(1);
  });

  it("shows a WhatsApp customer's contact as 'Importado de WhatsApp', its dates in the owner's time zone (Spanish UI)", async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'contact-source-es');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Muñoz', language: 'es', timeZone: 'America/Mexico_City' });
    await chatGptAndAgent(page, {
      name: 'Recepción',
      description: 'Responde por WhatsApp sobre citas y horarios de la clínica',
      objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
    });
    const business = await connectWhatsAppBusiness(page);
    const waId = `346${randomDigits(8)}`;
    await customerWrites(business, waCustomer(`Lucía Peña ${randomBytes(2).toString('hex')}`, waId), '¿Tienen cita el lunes?');
    await slowly(async () => (await callApi<Contact[]>(page, 'GET', '/api/contacts')).length).toBe(1);
    const [saved] = await callApi<Contact[]>(page, 'GET', '/api/contacts');
    expect(saved!.source).toBe('whatsapp_import');

    await page.goto(`${appUrl}/contacts/${saved!._id}`);
    // Its origin in words (issue 29: 'WhatsApp', 'Importado (CSV)', 'Llamada', 'Manual'), never the stored code.
    const originRow = page.getByText('Origen', { exact: true }).locator('xpath=..');
    await eventually(() => originRow.textContent()).toBe('OrigenWhatsApp');
    expect(await page.getByText(/whatsapp[ _]import/i).count()).toBe(0);
    // Created: in Mexico City's time, whatever the browser's zone (Spanish format, e.g. "26 nov 2026, 1:15").
    const created = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/Mexico_City' }).format(new Date(saved!.createdAt));
    await eventually(() => page.getByText(created, { exact: true }).count()).toBeGreaterThan(0);
  });
});
