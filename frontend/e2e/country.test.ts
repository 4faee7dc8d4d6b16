/**
 * Country per account (issue 19) in a real browser: a Spanish browser (es-ES) signs up, the
 * account's country is Spain, and in the Spanish UI the contact form shows "ES +34" with a Spanish
 * example and saves "600 111 333" as +34600111333 (it was refused on a US-default deployment);
 * the profile's own phone does the same.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Contact } from '../../functions/src/contract/contacts.js';
import type { User } from '../../functions/src/contract/auth.js';
import { activateTrial, callApi, eventually, newPage, ONBOARDING_HEADING, register, useBrowser, userIdOf } from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');
const browser = useBrowser();

describe('country per account', () => {
  it('a browser in es-ES signs up as a Spanish account whose contacts are typed without +34', async () => {
    const page = await newPage(browser(), { locale: 'es-ES' });
    // The shared sign-up steps speak English: pick English for the sign-up only (the locale still says es-ES).
    await page.goto(`${appUrl}/login`);
    await page.evaluate(() => localStorage.setItem('agentdesk.language', 'en'));
    expect(await page.evaluate(() => navigator.language)).toBe('es-ES');
    await register(page, appUrl, mailboxUrl, `clinica+${randomUUID().slice(0, 8)}@example.com`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
    await activateTrial(await userIdOf(page));

    expect((await callApi<User>(page, 'GET', '/api/me')).country).toBe('ES');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });

    await page.goto(`${appUrl}/contacts`);
    await page.getByRole('button', { name: 'Añadir contacto' }).first().click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByText('Añadir nuevo contacto').count()).toBe(1);
    const phone = dialog.getByLabel('Número de teléfono');
    expect(await phone.getAttribute('placeholder')).toBe('p. ej., 612 34 56 78');
    expect(await dialog.getByText('ES +34').count()).toBe(1);
    await dialog.getByLabel('Nombre', { exact: true }).fill('Lucía Muñoz');
    await phone.fill('600 111 333');
    await dialog.getByRole('button', { name: 'Añadir contacto' }).click();
    await eventually(() => page.getByRole('dialog').count()).toBe(0);

    const [saved] = await callApi<Contact[]>(page, 'GET', '/api/contacts');
    expect(saved).toMatchObject({ name: 'Lucía Muñoz', phoneNumber: '+34600111333' });
    // Shown grouped as a Spanish number (issue 29).
    await eventually(() => page.getByText('600 11 13 33').count()).toBeGreaterThan(0);

    // Settings shows the country, named in Spanish.
    await page.goto(`${appUrl}/profile?tab=settings`);
    await eventually(() => page.getByRole('combobox', { name: 'País' }).inputValue()).toBe('España (+34)');

    // The profile's own phone reads like the others: "ES +34", the example, a wrong number names the Spanish form.
    const profilePhone = page.getByRole('textbox', { name: 'Teléfono' });
    expect(await profilePhone.getAttribute('placeholder')).toBe('p. ej., 612 34 56 78');
    expect(await page.getByText('ES +34').count()).toBe(1);
    await profilePhone.fill('123 456');
    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await eventually(() => page.getByText('Escribe un número de teléfono válido, p. ej., 612 34 56 78 o +34 612 34 56 78').count()).toBeGreaterThan(0);
    await profilePhone.fill('600 111 333');
    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await eventually(async () => (await callApi<User>(page, 'GET', '/api/me')).phoneNumber).toBe('+34600111333');
    await eventually(() => profilePhone.inputValue()).toBe('+34600111333');
  });
});
