/**
 * Issue 34 item 6 in a real browser, in Spanish: a WhatsApp token Meta refuses (the fake Graph
 * answers 190 to a token starting "bad") marks the integration "Requiere atención" on its card,
 * with Meta's code, the reason in words and how to fix it; the bell has the one notification.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { callApi, eventually, newPage, randomDigits, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

describe('an integration that needs attention, in Spanish', () => {
  it('shows the chip, the reason with Meta’s code and how to fix it', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'health-es');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    await callApi(page, 'POST', '/api/integrations/whatsapp-business/setup', {
      bearerToken: `bad-${randomBytes(12).toString('hex')}`,
      appSecret: randomBytes(16).toString('hex'),
      phoneId: `1${randomDigits(14)}`,
      businessId: `2${randomDigits(14)}`,
      phoneNumber: '+34910000000',
    });
    // Testing the stored token: Meta answers 190.
    await expect(callApi(page, 'POST', '/api/integrations/whatsapp-business/test', {})).rejects.toThrow(/400/);

    await page.goto(`${appUrl}/integrations`);
    const card = page.getByTestId('integration-whatsapp-business');
    await eventually(() => card.getByText('Requiere atención', { exact: true }).count()).toBe(1);
    expect(await card.getByText('Meta: 190 — El token de acceso de WhatsApp ha caducado o fue revocado.').count()).toBe(1);
    expect(await card.getByTestId('integration-health-fix').textContent()).toMatch(/^Genera un token de acceso permanente nuevo en la configuración de Meta Business/);
    expect(await page.getByTestId('integration-chatgpt').getByText('Requiere atención').count()).toBe(0);
    await eventually(() => page.getByRole('button', { name: 'Notificaciones, 1 sin leer' }).count()).toBe(1);
  });
});
