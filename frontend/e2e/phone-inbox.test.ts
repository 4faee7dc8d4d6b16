/**
 * The inbox in the owner's pocket (issue 29 item 6), in Spanish (es-ES, Madrid time) against the
 * local runtime: at 390×844 a conversation opens on its messages with the reply box at the bottom
 * of the screen and the details (contact, assignment, status, delete) behind the "Detalles" tab;
 * the phone's Back closes the conversation and leaves the inbox as it was. At 1366×768 the reply
 * box is in view as soon as the conversation opens, however long it is (the messages scroll
 * inside their list). axe finds nothing serious in the open conversation at either size. The
 * Message Hub on a phone names customers by their contact, shows every number in the app's one
 * format and a customer's message as "Recibido", not a send status.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import { seriousViolations } from './axe.js';
import { formatPhone } from '../src/shared/phone.js';
import { LAPTOP, openSpanishConversation, PHONE, screenshot, spanishOwner, wholeInView } from './layout.js';
import {
  activeCard,
  callApi,
  chatGptAndAgent,
  connectWhatsAppBusiness,
  customerWrites,
  eventually,
  graphSends,
  pathOf,
  randomDigits,
  slowly,
  useBrowser,
  type WhatsAppBusiness,
} from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

/** A Spanish owner (page of the given size) with ChatGPT, an enabled agent and a WhatsApp number. */
async function spanishInbox(label: string, options: typeof PHONE | typeof LAPTOP): Promise<{ page: Page; business: WhatsAppBusiness }> {
  const page = await spanishOwner(browser(), label, options);
  await page.goto(`${appUrl}/dashboard`);
  await chatGptAndAgent(page, {
    name: 'Recepción',
    description: 'Responde por WhatsApp sobre horarios, precios y citas de la clínica',
    objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
  });
  return { page, business: await connectWhatsAppBusiness(page) };
}

/** Text as read on screen: the non-breaking spaces that keep a number's groups together as plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

const texts = async (business: WhatsAppBusiness) => (await graphSends(business.phoneId)).map((s) => s.text);

/** The customer writes each line and the AI's echo goes out before the next. */
async function chat(business: WhatsAppBusiness, customer: ReturnType<typeof waCustomer>, lines: string[]): Promise<void> {
  for (const line of lines) {
    await customerWrites(business, customer, line);
    await slowly(() => texts(business)).toContain(`Echo: ${line}`);
  }
}

describe('phone-first inbox', () => {
  it('390×844: the conversation opens on its messages with the reply box at the bottom, details behind a tab, Back returns to the list', async () => {
    const { page, business } = await spanishInbox('phone-inbox', PHONE);
    const customer = waCustomer(`Begoña ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await chat(business, customer, ['Hola, ¿tenéis cita el sábado?', '¿Y cuánto cuesta una limpieza?', '¿Aceptáis tarjeta?']);

    await page.goto(`${appUrl}/dashboard`);
    const card = await activeCard(page, appUrl, customer.name);
    // The conversations come first on a phone: the card is on the first screen.
    expect(await wholeInView(page, card)).toBe('in view');
    await screenshot(page, 'phone-inbox-list');

    await card.getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    const log = dialog.getByRole('log', { name: 'Mensajes' });
    await eventually(() => log.getByText('¿Aceptáis tarjeta?', { exact: true }).count()).toBe(1);
    const reply = dialog.getByRole('textbox', { name: /Respuesta/ });
    const send = dialog.getByRole('button', { name: 'Enviar', exact: true });
    // On its messages: the newest in view, the reply box and Send at the bottom of the screen, no settings in the way.
    await eventually(() => wholeInView(page, reply)).toBe('in view');
    expect(await wholeInView(page, send)).toBe('in view');
    expect(await wholeInView(page, log.getByText('¿Aceptáis tarjeta?', { exact: true }))).toBe('in view');
    const [logBox, replyBox] = [await log.boundingBox(), await reply.boundingBox()];
    expect(replyBox!.y).toBeGreaterThan(logBox!.y + logBox!.height - 1);
    expect(replyBox!.y + replyBox!.height).toBeGreaterThan(844 - 120);
    expect(await dialog.getByRole('button', { name: 'Eliminar', exact: true }).count()).toBe(0);
    expect(await dialog.getByRole('combobox', { name: 'Estado' }).count()).toBe(0);
    await screenshot(page, 'phone-inbox-conversation');
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);

    // A reply from the phone.
    await reply.fill('Sí, a las 10. Un saludo, Marta');
    await send.click();
    await slowly(() => texts(business)).toContain('Sí, a las 10. Un saludo, Marta');
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('Responde una persona');

    // Details: contact, assignment, status and delete, behind their tab.
    await dialog.getByRole('tab', { name: 'Detalles' }).click();
    await eventually(() => dialog.getByRole('button', { name: 'Eliminar', exact: true }).count()).toBe(1);
    expect(await dialog.getByRole('combobox', { name: 'Estado' }).count()).toBe(1);
    expect(await dialog.getByRole('button', { name: 'Asignar a mí' }).count()).toBe(1);
    expect(await dialog.getByRole('link', { name: 'Abrir WhatsApp' }).count()).toBe(1);
    expect(await reply.count()).toBe(0);
    await screenshot(page, 'phone-inbox-details');
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('tab', { name: 'Mensajes' }).click();
    await eventually(() => wholeInView(page, reply)).toBe('in view');

    // The phone's Back closes the conversation, not the inbox.
    await page.goBack();
    await eventually(() => dialog.count()).toBe(0);
    expect(pathOf(page)).toBe('/conversations');
    await eventually(() => card.count()).toBe(1);

    // Opened again, its own back arrow does the same; Back after it leaves the inbox.
    await card.getByRole('button').first().click();
    await eventually(() => wholeInView(page, dialog.getByRole('textbox', { name: /Respuesta/ }))).toBe('in view');
    await dialog.getByRole('button', { name: 'Volver a la bandeja' }).click();
    await eventually(() => dialog.count()).toBe(0);
    expect(pathOf(page)).toBe('/conversations');
    await page.goBack();
    await eventually(() => pathOf(page)).toBe('/dashboard');
  });

  it('1366×768: the reply box is in view as soon as a long conversation opens; the messages scroll inside', async () => {
    const { page, business } = await spanishInbox('laptop-inbox', LAPTOP);
    const customer = waCustomer(`Íñigo ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await chat(
      business,
      customer,
      Array.from({ length: 7 }, (_, i) => `Pregunta número ${i + 1} sobre la cita`),
    );

    const { dialog, log } = await openSpanishConversation(page, appUrl, customer.name);
    await eventually(() => log.getByText('Pregunta número 7 sobre la cita', { exact: true }).count()).toBe(1);
    await eventually(() => wholeInView(page, dialog.getByRole('textbox', { name: /Respuesta/ }))).toBe('in view');
    expect(await wholeInView(page, dialog.getByRole('button', { name: 'Enviar', exact: true }))).toBe('in view');
    // The list scrolls, not the page: it is taller inside than its box, and the dialog fits the screen.
    expect(await log.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    expect(await dialog.locator('.MuiDialogContent-root').evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
    expect(await wholeInView(page, dialog)).toBe('in view');
    // The details stay beside the messages at this size.
    expect(await dialog.getByRole('button', { name: 'Eliminar', exact: true }).count()).toBe(1);
    expect(await dialog.getByRole('tab').count()).toBe(0);
    await screenshot(page, 'laptop-inbox-conversation');
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
  });

  it('390×844: the Message Hub names customers by their contact, one phone format, a customer\'s message "Recibido"', async () => {
    const { page, business } = await spanishInbox('phone-hub', PHONE);
    const known = waCustomer(`Begoña ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    const stranger = waCustomer(`Nico ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await callApi(page, 'POST', '/api/contacts', { name: 'Begoña Ruiz Peña', phoneNumber: `+${known.waId}` });
    await chat(business, known, ['¿Tenéis hueco el martes?']);
    await chat(business, stranger, ['¿Dónde estáis?']);

    await page.goto(`${appUrl}/messages`);
    const cards = page.getByTestId('message-card');
    await slowly(() => cards.count()).toBe(4);
    const cardOf = (body: string) => cards.filter({ has: page.getByTestId('message-body').getByText(body, { exact: true }) });
    const fromKnown = cardOf('¿Tenéis hueco el martes?');
    expect(await fromKnown.getByTestId('message-party').textContent()).toBe('De Begoña Ruiz Peña');
    expect(await fromKnown.getByTestId('message-status').textContent()).toBe('Recibido');
    expect(plain(await fromKnown.textContent())).toContain(formatPhone(`+${known.waId}`));
    // The business number too (Meta gives it as bare digits).
    expect(plain(await fromKnown.textContent())).toContain(`desde ${formatPhone(business.phoneNumber)}`);
    const toKnown = cardOf('Echo: ¿Tenéis hueco el martes?');
    expect(await toKnown.getByTestId('message-party').textContent()).toBe('Para Begoña Ruiz Peña');
    expect(await toKnown.getByTestId('message-status').textContent()).not.toBe('Recibido');
    // A customer who wrote first is in the directory under their WhatsApp name; without a contact, the number.
    const fromStranger = cardOf('¿Dónde estáis?');
    expect(await fromStranger.getByTestId('message-party').textContent()).toBe(`De ${stranger.name}`);
    expect(await fromStranger.getByTestId('message-status').textContent()).toBe('Recibido');
    const [saved] = await callApi<{ _id: string }[]>(page, 'GET', `/api/contacts?${new URLSearchParams({ search: stranger.waId.slice(-8) })}`);
    await callApi(page, 'DELETE', `/api/contacts/${saved!._id}`);
    await page.reload();
    await slowly(async () => plain(await fromStranger.getByTestId('message-party').textContent())).toBe(`De ${formatPhone(`+${stranger.waId}`)}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await cards.first().scrollIntoViewIfNeeded();
    await screenshot(page, 'phone-message-hub');
    expect(await seriousViolations(page, 'main')).toEqual([]);
  });
});
