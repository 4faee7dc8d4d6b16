/**
 * The notification bell (issue 17) in a real browser against the local runtime: a customer writes
 * on WhatsApp (a signed webhook), the conversation is escalated, and the app bar's bell shows the
 * unread count; opening it lists the escalation, a click opens the conversation on the board and
 * the count drops. Once in English, once in Spanish ("Marcar todo como leído" clears the count).
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { Conversation } from '@agentdesk/functions/contract';
import { metaDelivery, signMetaBody, textMessage, waCustomer, webhookPath } from '../../functions/test/support/whatsapp.js';
import { callApi, eventually, newPage, randomDigits, slowly, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

interface Business {
  phoneId: string;
  businessId: string;
  phoneNumber: string;
  appSecret: string;
  integrationId: string;
}

/** WhatsApp connected through the API (the fake Graph accepts any token). */
async function connectWhatsApp(page: Page): Promise<Business> {
  const business = {
    bearerToken: `EAAG${randomBytes(24).toString('hex')}`,
    appSecret: randomBytes(16).toString('hex'),
    phoneId: `1${randomDigits(14)}`,
    businessId: `2${randomDigits(14)}`,
    phoneNumber: '+34910000000',
  };
  const setup = await callApi<{ webhookUrl: string }>(page, 'POST', '/api/integrations/whatsapp-business/setup', business);
  return { ...business, integrationId: decodeURIComponent(setup.webhookUrl.split('/').pop() ?? '') };
}

/** One customer message delivered (a signed webhook), its conversation escalated by the owner. */
async function escalatedConversation(page: Page, business: Business, name: string, reason: string): Promise<{ customer: string; conversationId: string }> {
  const customer = waCustomer(name, `346${randomDigits(8)}`);
  const body = metaDelivery(
    { phoneId: business.phoneId, businessId: business.businessId, displayPhoneNumber: business.phoneNumber },
    { messages: [textMessage(customer, 'Necesito hablar con alguien, por favor')] },
  );
  const delivery = await fetch(`${appUrl}${webhookPath(business.integrationId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(body, business.appSecret) },
    body,
  });
  expect(delivery.status).toBe(200);
  let conversationId = '';
  await slowly(async () => {
    const list = await callApi<Conversation[]>(page, 'GET', '/api/conversations');
    conversationId = list.find((c) => c.profileName === name || c.contact.name === name)?._id ?? '';
    return conversationId;
  }).not.toBe('');
  await callApi(page, 'POST', `/api/conversations/${conversationId}/escalate`, { reason });
  return { customer: name, conversationId };
}

describe('notification bell', () => {
  it('an escalation shows on the bell; a click opens the conversation and the count drops', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'bell');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Owner', language: 'en' });
    await page.goto(`${appUrl}/`);
    const bell = page.getByTestId('notification-bell');
    await eventually(() => bell.getAttribute('aria-label')).toBe('Notifications');
    await bell.click();
    await eventually(() => page.getByText('No notifications').count()).toBe(1);
    await page.keyboard.press('Escape');

    const business = await connectWhatsApp(page);
    const { customer, conversationId } = await escalatedConversation(page, business, `Lucía ${randomBytes(2).toString('hex')}`, 'Wants a refund');
    await page.reload();

    await eventually(() => bell.getAttribute('aria-label')).toBe('Notifications, 1 unread');
    await bell.click();
    const menu = page.getByRole('menu', { name: 'Notifications' });
    const item = menu.getByTestId('notification-item');
    await eventually(() => item.count()).toBe(1);
    expect(await item.textContent()).toContain(`Conversation escalated: ${customer}`);
    expect(await item.textContent()).toContain('Wants a refund');
    expect(await item.getAttribute('data-unread')).toBe('true');
    await item.click();

    await eventually(() => new URL(page.url()).pathname).toBe('/conversations');
    const dialog = page.getByRole('dialog').filter({ hasText: customer });
    await slowly(() => dialog.count()).toBe(1);
    await eventually(() => bell.getAttribute('aria-label')).toBe('Notifications');
    const after = await callApi<{ unreadCount: number; notifications: Array<{ subjectId: string; readAt: string | null }> }>(page, 'GET', '/api/notifications');
    expect(after.unreadCount).toBe(0);
    expect(after.notifications).toEqual([expect.objectContaining({ subjectId: conversationId, readAt: expect.any(String) })]);

    // Another escalation while the board is shown: the bell (refreshed when opened) opens it in place.
    await page.keyboard.press('Escape');
    await eventually(() => dialog.count()).toBe(0);
    const second = await escalatedConversation(page, business, `Mateo ${randomBytes(2).toString('hex')}`, 'Asks for the manager');
    await bell.click();
    const next = menu.getByTestId('notification-item').filter({ hasText: second.customer });
    await eventually(() => next.count()).toBe(1);
    await next.click();
    await slowly(() => page.getByRole('dialog').filter({ hasText: second.customer }).count()).toBe(1);
    await eventually(() => bell.getAttribute('aria-label')).toBe('Notifications');
  });

  it('in Spanish: the count, the list and "Marcar todo como leído"', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'campana');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    const first = await escalatedConversation(page, await connectWhatsApp(page), `Begoña ${randomBytes(2).toString('hex')}`, 'Pide una factura');

    await page.goto(`${appUrl}/`);
    const bell = page.getByTestId('notification-bell');
    await eventually(() => bell.getAttribute('aria-label')).toBe('Notificaciones, 1 sin leer');
    await bell.click();
    const menu = page.getByRole('menu', { name: 'Notificaciones' });
    await eventually(() => menu.getByTestId('notification-item').count()).toBe(1);
    expect(await menu.getByTestId('notification-item').textContent()).toContain(`Conversación escalada: ${first.customer}`);
    expect(await menu.getByTestId('notification-item').textContent()).toContain('Pide una factura');
    await page.getByTestId('notifications-mark-all').click();

    await eventually(() => bell.getAttribute('aria-label')).toBe('Notificaciones');
    expect(await page.getByTestId('notifications-mark-all').textContent()).toBe('Marcar todo como leído');
    await eventually(() => menu.getByTestId('notification-item').getAttribute('data-unread')).toBe('false');
  });
});
