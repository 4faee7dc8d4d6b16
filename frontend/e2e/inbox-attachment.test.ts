/**
 * The owner attaches a PDF to a reply from the inbox (issue 31), in Spanish at 390×844 against the
 * local runtime: "Adjuntar" opens the file chooser; a file that cannot be attached is refused
 * before any upload, in Spanish; the PDF goes to storage with its progress, shows as a chip with
 * its name and size, the text becomes its caption, and "Enviar" sends it: the fake Graph API got
 * the upload and a document send with the caption and the file name, and the conversation shows
 * it as sent. Nothing in the open conversation is a serious axe violation.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { FileChooser, Locator, Page } from 'playwright-core';
import { graphUploads, waCustomer } from '../../functions/test/support/whatsapp.js';
import { seriousViolations } from './axe.js';
import { openSpanishConversation, PHONE, screenshot, spanishOwner, wholeInView } from './layout.js';
import { chatGptAndAgent, connectWhatsAppBusiness, customerWrites, eventually, graphSends, randomDigits, slowly, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

/**
 * Focus `button` and press Enter: the file chooser it opens. Once in a loaded CI run the chooser
 * of a second Enter never reached Playwright (its interception is switched off and on again
 * between two choosers); a second press is allowed, a third failure fails the test.
 */
async function chooseFromKeyboard(page: Page, button: Locator): Promise<FileChooser> {
  for (let attempt = 1; ; attempt++) {
    await button.focus();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser', { timeout: 15_000 }).catch((error: unknown) => {
        if (attempt >= 2) throw error;
        return null;
      }),
      page.keyboard.press('Enter'),
    ]);
    if (chooser) return chooser;
  }
}

describe('a file attached to a reply from the inbox', () => {
  it('390×844, in Spanish: a PDF attached with a caption is sent as a document and shows in the conversation as sent', async () => {
    const page = await spanishOwner(browser(), 'inbox-attachment', PHONE);
    // Keeps Playwright's file-chooser interception on for the whole test: without a listener it is
    // switched off after each chooser and on again by the next wait (a round trip to Chromium), and
    // on a loaded machine the keyboard's Enter could open the chooser before it was back on.
    page.on('filechooser', () => undefined);
    await page.goto(`${appUrl}/dashboard`);
    await chatGptAndAgent(page, {
      name: 'Recepción',
      description: 'Responde por WhatsApp sobre horarios, precios y citas de la clínica',
      objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
    });
    const business = await connectWhatsAppBusiness(page);
    const customer = waCustomer(`Lucía ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await customerWrites(business, customer, '¿Me mandas el presupuesto de la ortodoncia?');
    await slowly(async () => (await graphSends(business.phoneId)).length).toBe(1);

    const { dialog, log } = await openSpanishConversation(page, appUrl, customer.name);
    await eventually(() => log.getByText('¿Me mandas el presupuesto de la ortodoncia?', { exact: true }).count()).toBe(1);
    const attach = dialog.getByRole('button', { name: 'Adjuntar' });
    const send = dialog.getByRole('button', { name: 'Enviar', exact: true });
    await eventually(() => attach.isEnabled()).toBe(true);

    // A zip is refused before anything is uploaded, in Spanish.
    const [zipChooser] = await Promise.all([page.waitForEvent('filechooser'), attach.click()]);
    await zipChooser.setFiles({ name: 'fotos.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\u0003\u0004 not really') });
    await eventually(() => dialog.getByTestId('reply-attachment-error').textContent()).toBe('Adjunta una imagen (JPG, PNG) o un documento (PDF, Word, Excel, texto)');
    expect(await dialog.getByTestId('reply-attachment').count()).toBe(0);
    expect(await graphUploads(business.phoneId)).toEqual([]);

    // The PDF, chosen from the keyboard: focus "Adjuntar" and press Enter.
    const fileName = 'Presupuesto Dra. Pérez.pdf';
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n% Presupuesto\n'), randomBytes(300 * 1024), Buffer.from('\n%%EOF\n')]);
    const chooser = await chooseFromKeyboard(page, attach);
    await chooser.setFiles({ name: fileName, mimeType: 'application/pdf', buffer: pdf });
    const chip = dialog.getByTestId('reply-attachment');
    await eventually(() => chip.textContent()).toContain(fileName);
    expect(await chip.textContent()).toMatch(/KB/);
    expect(await dialog.getByTestId('reply-attachment-error').count()).toBe(0);
    // Uploaded: Send is enabled with the file alone; the text box is now the caption.
    await slowly(() => send.isEnabled()).toBe(true);
    const caption = dialog.getByRole('textbox', { name: 'Texto (opcional)' });
    await caption.fill('Aquí tienes el presupuesto, Lucía');
    expect(await wholeInView(page, send)).toBe('in view');
    expect(await wholeInView(page, chip)).toBe('in view');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'inbox-attachment-chip');
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);

    await send.click();

    // Meta got the file, then a document send by its media id with the caption and the file name.
    await slowly(async () => (await graphSends(business.phoneId)).map((s) => s.type)).toEqual(['text', 'document']);
    const uploads = await graphUploads(business.phoneId);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ fileName, mimeType: 'application/pdf', size: pdf.length });
    const documentSend = (await graphSends(business.phoneId))[1]!;
    expect(documentSend).toMatchObject({ to: customer.waId, status: 200 });
    expect(documentSend.payload.document).toEqual({ id: uploads[0]!.id, caption: 'Aquí tienes el presupuesto, Lucía', filename: fileName });

    // The box clears, and the conversation shows the file as sent by a person.
    await eventually(() => chip.count()).toBe(0);
    await eventually(() => dialog.getByRole('textbox', { name: 'Respuesta' }).inputValue()).toBe('');
    const bubble = log.getByTestId('conversation-message').filter({ hasText: fileName });
    await eventually(() => bubble.count()).toBe(1);
    expect(await bubble.getAttribute('data-from-me')).toBe('true');
    await eventually(async () => /Enviado|Entregado|Leído/.test((await bubble.textContent()) ?? '')).toBe(true);
    expect(await bubble.textContent()).toContain('Aquí tienes el presupuesto, Lucía');
    await screenshot(page, 'inbox-attachment-sent');
  });
});
