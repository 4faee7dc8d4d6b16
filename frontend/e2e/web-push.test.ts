/**
 * Web Push in a real browser, in Spanish on a phone-sized screen (issue 29 item 6): the owner
 * opens "Avisos en este dispositivo" from the bell, turns alerts on (permission granted, the
 * service worker registered by the built app, the subscription sent to the API), sends a test
 * alert, and an escalation reaches the fake push service, which decrypts it: Spanish text, a link
 * to the conversation. The service worker then shows that very payload as a notification.
 *
 * Chromium's own pushManager.subscribe() asks Google's push service, which a test cannot reach
 * offline, so this page's PushManager returns a subscription the fake push service minted (its
 * endpoint and keys) — everything else is the page's real flow and the same API call. The
 * pushManager is handed the app's VAPID public key, which the test checks.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { Conversation } from '@agentdesk/functions/contract';
import { fakePushClient } from '../../functions/test/support/push.js';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import { callApi, connectWhatsAppBusiness, customerWrites, eventually, newPage, randomDigits, slowly, subscribedUser, useBrowser, useMintedSubscription } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const fake = fakePushClient(inject('pushServiceUrl'), inject('pushServiceCa'));
afterAll(() => fake.close());

/** The notifications the service worker is showing (their titles). */
const shownTitles = (page: Page) =>
  page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title));

describe('Web Push on the phone, in Spanish', () => {
  it('enable alerts on this device → a test alert → an escalation reaches the push service in Spanish', async () => {
    // Signed up through the shared flow (its labels are English), then Spanish by the profile: the app is in Spanish from here on.
    const page = await newPage(browser(), { timezoneId: 'Europe/Madrid', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.context().grantPermissions(['notifications'], { origin: appUrl });
    await subscribedUser(page, 'avisos');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    const minted = await fake.mint();
    await useMintedSubscription(page, minted);

    await page.goto(`${appUrl}/dashboard`);
    // The built app registers its service worker.
    await slowly(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active))).toBe(true);
    await page.getByTestId('notification-bell').click();
    await page.getByRole('menuitem', { name: 'Avisos en este dispositivo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Avisos en tus dispositivos' });
    await eventually(() => dialog.getByTestId('push-state').getAttribute('data-state')).toBe('off');
    expect(await dialog.getByTestId('push-state').textContent()).toBe('Los avisos están desactivados en este dispositivo.');

    await dialog.getByRole('button', { name: 'Activar avisos en este dispositivo' }).click();

    await eventually(() => dialog.getByTestId('push-state').getAttribute('data-state')).toBe('on');
    expect(await dialog.getByTestId('push-state').textContent()).toBe('Los avisos están activados en este dispositivo.');
    const { publicKey } = await callApi<{ publicKey: string }>(page, 'GET', '/api/push/public-key');
    expect(await page.evaluate(() => (window as unknown as { __pushServerKey?: string }).__pushServerKey)).toBe(publicKey);
    await eventually(() => dialog.getByTestId('push-device').count()).toBe(1);
    expect(await dialog.getByTestId('push-device').textContent()).toContain('Este dispositivo');
    expect(await dialog.getByTestId('push-device').textContent()).toContain('Chrome');

    await dialog.getByRole('button', { name: 'Enviar un aviso de prueba' }).click();
    await eventually(() => page.getByText('Aviso de prueba enviado').count()).toBe(1);
    await slowly(async () => (await fake.messages(minted.id)).map((m) => m.json?.title)).toEqual(['Aviso de prueba de AgentDesk']);
    await dialog.getByRole('button', { name: 'Cerrar' }).click();

    // A customer writes on WhatsApp and the conversation is escalated.
    const business = await connectWhatsAppBusiness(page);
    const name = `Begoña ${randomBytes(2).toString('hex')}`;
    await customerWrites(business, waCustomer(name, `346${randomDigits(8)}`), 'Quiero hablar con una persona');
    let conversationId = '';
    await slowly(async () => {
      const list = await callApi<Conversation[]>(page, 'GET', '/api/conversations');
      conversationId = list.find((c) => c.profileName === name || c.contact.name === name)?._id ?? '';
      return conversationId;
    }).not.toBe('');
    await callApi(page, 'POST', `/api/conversations/${conversationId}/escalate`, { reason: 'Pide una factura con IVA' });

    await slowly(async () => (await fake.messages(minted.id)).length).toBe(2);
    const escalation = (await fake.messages(minted.id))[1]!;
    expect(escalation.json).toMatchObject({
      title: `Conversación escalada: ${name}`,
      body: 'Pide una factura con IVA',
      url: `${appUrl}/conversations?open=${conversationId}`,
    });
    expect(escalation.vapid.k).toBe(publicKey);

    // The service worker shows that payload as a notification (delivered to it as a push through DevTools).
    const cdp = await page.context().newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
        const found = event.registrations.find((r) => r.scopeURL === `${appUrl}/` && !r.isDeleted);
        if (found) resolve(found.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: appUrl, registrationId: await registrationId, data: escalation.payload });
    await slowly(() => shownTitles(page)).toContain(`Conversación escalada: ${name}`);
  });
});
