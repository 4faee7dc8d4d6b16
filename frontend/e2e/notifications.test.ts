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
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import {
  callApi,
  connectWhatsAppBusiness,
  customerWrites,
  eventually,
  newPage,
  randomDigits,
  slowly,
  subscribedUser,
  useBrowser,
  type WhatsAppBusiness,
} from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

/** One customer message delivered (a signed webhook), its conversation escalated by the owner. */
async function escalatedConversation(page: Page, business: WhatsAppBusiness, name: string, reason: string): Promise<{ customer: string; conversationId: string }> {
  await customerWrites(business, waCustomer(name, `346${randomDigits(8)}`), 'Necesito hablar con alguien, por favor');
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

    const business = await connectWhatsAppBusiness(page);
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
    const first = await escalatedConversation(page, await connectWhatsAppBusiness(page), `Begoña ${randomBytes(2).toString('hex')}`, 'Pide una factura');

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
