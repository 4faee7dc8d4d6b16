/**
 * Saved replies (issue 17) in a real browser against the local runtime, in Spanish: the owner adds
 * a saved reply from the conversations page's "Respuestas guardadas" dialog, opens a customer's
 * conversation, types `/cit` in the reply box, picks the reply with the keyboard (↓ past another
 * match, Enter), sees its text in place of `/cit`, and sends it: the fake Graph API receives it.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import {
  callApi,
  chatGptAndAgent,
  connectWhatsAppBusiness,
  customerWrites,
  eventually,
  graphSends,
  newPage,
  randomDigits,
  slowly,
  subscribedUser,
  useBrowser,
} from './flows.js';

const appUrl = inject('appUrl');

const browser = useBrowser();

describe('saved replies', () => {
  it('adds a saved reply in Spanish and inserts it in a conversation with / and the keyboard', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'saved-replies');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    await chatGptAndAgent(page, {
      name: 'Recepción',
      description: 'Responde por WhatsApp sobre horarios, precios y citas de la clínica',
      objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
    });
    const business = await connectWhatsAppBusiness(page);

    // A customer writes (a Spanish mobile, as WhatsApp sends it: digits without +).
    const customer = waCustomer(`Begoña ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await customerWrites(business, customer, '¿Tienen cita mañana por la mañana?');

    // Saved replies from the conversations page, in Spanish: the empty state, then two replies.
    await page.goto(`${appUrl}/conversations`);
    await page.getByRole('button', { name: 'Respuestas guardadas' }).click();
    const manager = page.getByRole('dialog', { name: 'Respuestas guardadas' });
    await eventually(() => manager.getByText('Aún no hay respuestas guardadas').count()).toBe(1);
    const add = async (title: string, text: string) => {
      await manager.getByRole('button', { name: 'Añadir respuesta' }).click();
      const form = page.getByRole('dialog', { name: 'Añadir respuesta' });
      await form.getByRole('textbox', { name: 'Título' }).fill(title);
      await form.getByRole('textbox', { name: 'Texto' }).fill(text);
      await form.getByRole('button', { name: 'Guardar' }).click();
      await eventually(() => form.count()).toBe(0);
      await eventually(() => manager.getByRole('listitem').filter({ hasText: title }).count()).toBe(1);
    };
    const appointment = 'Su cita está confirmada para mañana a las 10:00. ¡Gracias, le esperamos!';
    await add('Cita médica', appointment);
    await add('Recordatorio de cita', 'Le recordamos su cita de mañana.');
    // A title already taken (another case) is refused on its field, in Spanish.
    await manager.getByRole('button', { name: 'Añadir respuesta' }).click();
    const form = page.getByRole('dialog', { name: 'Añadir respuesta' });
    await form.getByRole('textbox', { name: 'Título' }).fill('CITA MÉDICA');
    await form.getByRole('textbox', { name: 'Texto' }).fill('Otra');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => form.getByText('Ya existe una respuesta guardada con este título').count()).toBe(1);
    await form.getByRole('button', { name: 'Cancelar' }).click();
    expect(await manager.getByTestId('saved-reply').count()).toBe(2);
    await manager.getByRole('button', { name: 'Cerrar' }).click();

    // The conversation: type /cit, ↓ to the second match and back, Enter inserts the first.
    const card = page.getByTestId('conversation-card').filter({ hasText: customer.name });
    await slowly(() => card.count()).toBe(1);
    await card.getByRole('button').first().click();
    const dialog = page.getByRole('dialog').filter({ has: page.getByRole('log') });
    const box = dialog.getByRole('textbox', { name: 'Respuesta' });
    await eventually(() => box.isEnabled()).toBe(true);
    await box.click();
    await box.pressSequentially('Hola Begoña, /cit');
    const list = dialog.getByRole('listbox', { name: 'Respuestas guardadas' });
    await eventually(() => list.getByRole('option').allTextContents()).toEqual([expect.stringContaining('Cita médica'), expect.stringContaining('Recordatorio de cita')]);
    expect(await list.getByRole('option', { selected: true }).textContent()).toContain('Cita médica');
    await box.press('ArrowDown');
    await eventually(() => list.getByRole('option', { selected: true }).textContent()).toContain('Recordatorio de cita');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await list.getByRole('option', { selected: true }).getAttribute('id'));
    await box.press('ArrowUp');
    await eventually(() => list.getByRole('option', { selected: true }).textContent()).toContain('Cita médica');
    await box.press('Enter');
    await eventually(() => box.inputValue()).toBe(`Hola Begoña, ${appointment}`);
    expect(await list.count()).toBe(0);
    // Escape closes only the list, not the conversation.
    await box.pressSequentially(' /rec');
    await eventually(() => list.getByRole('option').count()).toBe(1);
    await box.press('Escape');
    await eventually(() => list.count()).toBe(0);
    expect(await dialog.count()).toBe(1);
    for (let i = 0; i < ' /rec'.length; i++) await box.press('Backspace');
    await eventually(() => box.inputValue()).toBe(`Hola Begoña, ${appointment}`);

    // Send: the customer gets exactly that text.
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await slowly(async () => (await graphSends(business.phoneId)).map((s) => s.text)).toContain(`Hola Begoña, ${appointment}`);
    expect((await graphSends(business.phoneId)).find((s) => s.text === `Hola Begoña, ${appointment}`)?.to).toBe(customer.waId);
    await eventually(() => box.inputValue()).toBe('');
  });
});
