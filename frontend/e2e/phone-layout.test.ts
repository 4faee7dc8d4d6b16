/**
 * The owner's screens at a laptop's 1366×768 and a phone's 390×844 in Spanish (issue 29 item 6):
 * "Cerrar sesión" is in view without scrolling (the sidebar at the laptop, the drawer on the
 * phone); the contacts header keeps its main action and puts the rest in a menu instead of
 * overflowing; voice settings show the connected Twilio number and offer no "Solicitar número"
 * while one is connected; a call to it reads on the phone (list, detail, back) without anything
 * wider than the screen. axe finds nothing serious in what these tests open.
 */
import { describe, expect, inject, it } from 'vitest';
import type { VoiceConversationList } from '../../functions/src/contract/voice.js';
import { formatPhone } from '../src/shared/phone.js';
import { seriousViolations } from './axe.js';
import { callApi, chatGptAndAgent, eventually, randomDigits, slowly, twilioControl, useBrowser } from './flows.js';
import { LAPTOP, PHONE, screenshot, spanishOwner, wholeInView } from './layout.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

describe('layout at a laptop and a phone', () => {
  it('Cerrar sesión is in view without scrolling: the sidebar at 1366×768, the drawer at 390×844', async () => {
    const laptop = await spanishOwner(browser(), 'signout-laptop', LAPTOP);
    await laptop.goto(`${appUrl}/dashboard`);
    const signOut = laptop.getByTestId('nav-logout');
    await eventually(() => signOut.count()).toBe(1);
    await eventually(() => wholeInView(laptop, signOut)).toBe('in view');
    expect(await signOut.textContent()).toBe('Cerrar sesión');
    await screenshot(laptop, 'laptop-sidebar');
    // However short the window, the links scroll inside the sidebar and sign-out stays put.
    await laptop.setViewportSize({ width: 1366, height: 520 });
    await eventually(() => wholeInView(laptop, signOut)).toBe('in view');
    expect(await laptop.getByRole('navigation', { name: 'Navegación principal' }).evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);

    const phone = await spanishOwner(browser(), 'signout-phone', PHONE);
    await phone.goto(`${appUrl}/dashboard`);
    await phone.getByRole('button', { name: 'Abrir el menú de navegación' }).click();
    const drawerSignOut = phone.getByTestId('nav-logout');
    await eventually(() => wholeInView(phone, drawerSignOut)).toBe('in view');
    await screenshot(phone, 'phone-drawer');
    expect(await seriousViolations(phone, '.MuiDrawer-paper')).toEqual([]);
    await drawerSignOut.click();
    await eventually(() => new URL(phone.url()).pathname).toBe('/login');
  });

  it('390×844: the contacts header keeps "Añadir contacto" and puts the other actions in a menu, nothing wider than the screen', async () => {
    const page = await spanishOwner(browser(), 'contacts-phone', PHONE);
    await page.goto(`${appUrl}/contacts`);
    const add = page.getByRole('button', { name: 'Añadir contacto' }).first();
    await eventually(() => wholeInView(page, add)).toBe('in view');
    const more = page.getByRole('button', { name: 'Más acciones de contactos' });
    expect(await wholeInView(page, more)).toBe('in view');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'phone-contacts-header');
    await more.click();
    const menu = page.getByRole('menu');
    for (const name of ['Exportar CSV', 'Importar CSV', 'Importar desde WhatsApp']) {
      expect(await menu.getByRole('menuitem', { name }).count(), name).toBe(1);
    }
    await screenshot(page, 'phone-contacts-menu');
    expect(await seriousViolations(page, '[role="menu"]')).toEqual([]);
    await menu.getByRole('menuitem', { name: 'Exportar CSV' }).click();
    await eventually(() => page.getByRole('dialog').count()).toBe(1);

    // At the laptop all four stay as buttons in the header.
    const laptop = await spanishOwner(browser(), 'contacts-laptop', LAPTOP);
    await laptop.goto(`${appUrl}/contacts`);
    for (const name of ['Exportar CSV', 'Importar CSV', 'Importar desde WhatsApp', 'Añadir contacto']) {
      await eventually(() => wholeInView(laptop, laptop.getByRole('button', { name }).first())).toBe('in view');
    }
    expect(await laptop.getByRole('button', { name: 'Más acciones de contactos' }).count()).toBe(0);
  });

  it('390×844: the voice settings Save bar is one compact row, Restablecer beside Guardar, also with unsaved changes', async () => {
    const page = await spanishOwner(browser(), 'voice-save-bar', PHONE);
    await page.goto(`${appUrl}/voice-settings`);
    const save = page.getByRole('button', { name: 'Guardar configuración' });
    const reset = page.getByRole('button', { name: 'Restablecer valores predeterminados' });
    await eventually(() => wholeInView(page, save)).toBe('in view');
    const bar = page.getByTestId('voice-settings-actions');
    const compact = async () => {
      expect(await wholeInView(page, reset)).toBe('in view');
      const [barBox, saveBox, resetBox] = await Promise.all([bar.boundingBox(), save.boundingBox(), reset.boundingBox()]);
      expect(barBox!.height).toBeLessThanOrEqual(72);
      // One row: Restablecer and Guardar side by side.
      expect(Math.abs(resetBox!.y + resetBox!.height / 2 - (saveBox!.y + saveBox!.height / 2))).toBeLessThan(4);
    };
    await compact();
    await screenshot(page, 'phone-voice-save-bar');
    await page.getByRole('textbox', { name: 'Mensaje de bienvenida' }).fill('Hola, has llamado a la Clínica Peña. ¿En qué te ayudo?');
    await eventually(() => bar.getByText('Tienes cambios sin guardar.').count()).toBe(1);
    await compact();
    await screenshot(page, 'phone-voice-save-bar-unsaved');
    // Restablecer still asks first.
    await reset.click();
    await eventually(() => page.getByRole('dialog', { name: 'Restablecer la configuración de voz' }).count()).toBe(1);
    expect(await seriousViolations(page, '[data-testid="voice-settings-actions"]')).toEqual([]);
  });

  it('voice settings show the connected Twilio number and no "Solicitar número de teléfono"', async () => {
    const page = await spanishOwner(browser(), 'voice-number', PHONE);
    await page.goto(`${appUrl}/voice-settings`);
    const panel = page.getByTestId('phone-number-panel');
    // Nothing connected: the request is offered.
    await eventually(() => panel.getByRole('button', { name: 'Solicitar número de teléfono' }).count()).toBe(1);

    const number = `+3491${randomDigits(7)}`;
    const account = await twilioControl<{ accountSid: string; authToken: string }>('accounts', { numbers: [number] });
    await callApi(page, 'POST', '/api/integrations/twilio-voice/setup', { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number });
    await page.reload();
    await eventually(() => panel.getByTestId('phone-connected-number').textContent()).toBe(formatPhone(number));
    expect(await panel.getByRole('button', { name: 'Solicitar número de teléfono' }).count()).toBe(0);
    expect(await panel.getByRole('textbox', { name: 'Notas' }).count()).toBe(0);
    expect(await panel.getByRole('link', { name: /Integraciones/ }).count()).toBe(1);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'phone-voice-number');
    expect(await seriousViolations(page, '[data-testid="phone-number-panel"]')).toEqual([]);

    // A call to that number, read on the phone: the list, its detail with nothing wider than the screen, and back.
    await chatGptAndAgent(page, { name: 'Recepción', description: 'Contesta las llamadas de la clínica', objective: 'Dar citas' });
    const caller = `+346${randomDigits(8)}`;
    await twilioControl('calls', { to: number, from: caller, turns: [{ speech: 'Quiero una cita para mañana', confidence: 0.9 }], hangup: 'after-script' });
    await slowly(async () => (await callApi<VoiceConversationList>(page, 'GET', '/api/voice-conversations')).conversations.length).toBe(1);
    await page.goto(`${appUrl}/voice-conversations`);
    const rows = page.getByTestId('call-row');
    await eventually(() => rows.count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'phone-voice-list');
    await rows.first().click();
    await eventually(() => new URL(page.url()).pathname).toMatch(/^\/voice-conversations\/[^/]+$/);
    await slowly(() => page.getByTestId('call-transcript').getByTestId('call-turn').count()).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'phone-voice-detail');
    expect(await seriousViolations(page, 'main')).toEqual([]);
    await page.goBack();
    await eventually(() => new URL(page.url()).pathname).toBe('/voice-conversations');
  });
});
