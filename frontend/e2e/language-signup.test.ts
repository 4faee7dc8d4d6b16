/**
 * A language that sticks (issue 29) in a real browser: a person in Madrid with a Spanish browser
 * signs up on the Spanish page, gets the code e-mail in Spanish and lands on a Spanish onboarding;
 * the account is Spanish with Madrid's time zone, so signing in from a second device whose browser
 * is English (New York) still shows Spanish. Switching the language there is an explicit choice:
 * it is saved to the account.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { User } from '../../functions/src/contract/auth.js';
import { callApi, eventually, newPage, PASSWORD, subscribedUser, useBrowser } from './flows.js';
import { waitForMailCode } from './browser.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');
const browser = useBrowser();

const ONBOARDING_ES = 'Un agente que nunca pierde una llamada';
const ONBOARDING_EN = 'An agent that never misses a call';

/** The subject of the newest e-mail to `to`. */
async function lastSubject(to: string): Promise<string | undefined> {
  const { emails } = (await (await fetch(`${mailboxUrl}/store`)).json()) as { emails: { destination: { to: string[] }; subject: string; at: number }[] };
  return emails.filter((e) => e.destination.to.some((a) => a.includes(to))).sort((a, b) => b.at - a.at)[0]?.subject;
}

describe('the language a person signs up in', () => {
  it('a Spanish browser signs up in Spanish, and the account stays Spanish on an English device until they switch', async () => {
    const email = `clinica+${randomUUID().slice(0, 8)}@example.com`;
    const page = await newPage(browser(), { locale: 'es-ES', timezoneId: 'Europe/Madrid' });

    // Nothing chosen yet: the page speaks the browser's language.
    await page.goto(`${appUrl}/register`);
    await eventually(() => page.getByRole('heading', { name: 'Crea tu cuenta' }).count()).toBe(1);
    await page.getByLabel('Nombre', { exact: true }).fill('Lucía Muñoz');
    await page.getByLabel('Correo electrónico', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Enviar código' }).click();
    const code = await waitForMailCode(mailboxUrl, email, /\b([A-Z0-9]{10})\b/);
    expect(await lastSubject(email)).toBe('Tu código de verificación de AgentDesk');
    await page.getByLabel('Código de verificación').fill(code);
    await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirmar contraseña').fill(PASSWORD);
    await page.getByRole('checkbox', { name: /Acepto los/ }).check();
    await page.getByRole('button', { name: 'Crear cuenta' }).click();

    await eventually(() => page.getByRole('heading', { name: ONBOARDING_ES }).count()).toBe(1);
    // The app's own answer, not just what this browser shows: give it time to switch if it would.
    await eventually(async () => (await callApi<User>(page, 'GET', '/api/me')).language).toBe('es');
    expect(await callApi<User>(page, 'GET', '/api/me')).toMatchObject({ language: 'es', country: 'ES', timeZone: 'Europe/Madrid' });
    expect(await page.getByRole('heading', { name: ONBOARDING_ES }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');

    // A second device: an English browser in New York.
    const other = await newPage(browser(), { locale: 'en-US', timezoneId: 'America/New_York' });
    await other.goto(`${appUrl}/login`);
    await eventually(() => other.getByRole('button', { name: 'Sign In' }).count()).toBe(1);
    await other.getByLabel('Email', { exact: true }).fill(email);
    await other.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await other.getByRole('button', { name: 'Sign In' }).click();

    await eventually(() => other.getByRole('heading', { name: ONBOARDING_ES }).count()).toBe(1);
    expect(await other.getByRole('heading', { name: ONBOARDING_EN }).count()).toBe(0);
    expect(await other.evaluate(() => document.documentElement.lang)).toBe('es');

    // On that device the person chooses English: that choice is the account's from now on.
    await other.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
    await eventually(() => other.getByRole('heading', { name: ONBOARDING_EN }).count()).toBe(1);
    await eventually(async () => (await callApi<User>(other, 'GET', '/api/me')).language).toBe('en');
    await page.reload();
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_EN }).count()).toBe(1);
  });

  it("the settings' time zone follows a new country: Spain gives Europe/Madrid, not UTC", async () => {
    const page = await newPage(browser(), { locale: 'en-US', timezoneId: 'UTC' });
    await subscribedUser(page, 'zone-follows');

    await page.goto(`${appUrl}/profile?tab=settings`);
    const zone = page.getByRole('combobox', { name: 'Time Zone' });
    await eventually(() => zone.inputValue()).toBe('America/New_York');
    const country = page.getByRole('combobox', { name: 'Country' });
    await country.fill('Spain');
    await page.getByRole('option', { name: /Spain/ }).click();

    await eventually(() => zone.inputValue()).toBe('Europe/Madrid');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await eventually(async () => (await callApi<User>(page, 'GET', '/api/me')).timeZone).toBe('Europe/Madrid');
    expect((await callApi<User>(page, 'GET', '/api/me')).country).toBe('ES');
  });
});
