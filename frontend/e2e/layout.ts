/**
 * Layout checks at the owner's screen sizes (issue 29 item 6): a phone (390×844) and a laptop
 * (1366×768) in Spanish with Madrid time; whether an element is wholly in view without scrolling;
 * screenshots when E2E_SCREENSHOTS names a directory.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { activeCard, callApi, newPage, subscribedUser } from './flows.js';

export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'es-ES', timezoneId: 'Europe/Madrid' };
export const LAPTOP = { viewport: { width: 1366, height: 768 }, locale: 'es-ES', timezoneId: 'Europe/Madrid' };

/** Saves what the page shows when E2E_SCREENSHOTS names a directory (the before/after screens). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png` });
}

/** 'in view' when the element's box lies wholly inside the viewport as the page is now (no scrolling), else where it is. */
export async function wholeInView(page: Page, locator: Locator): Promise<string> {
  const box = await locator.boundingBox();
  const view = page.viewportSize();
  if (!box || !view) return 'not shown';
  const inside = box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= view.width + 0.5 && box.y + box.height <= view.height + 0.5;
  return inside ? 'in view' : `outside the ${view.width}×${view.height} viewport: ${JSON.stringify(box)}`;
}

/**
 * A subscribed owner whose account speaks Spanish, signed in on a page of the given size. The
 * sign-up runs on a desktop page in English (the sign-up steps are flows.ts's); the session is
 * carried over to the new context.
 */
export async function spanishOwner(browser: Browser, label: string, options: BrowserContextOptions): Promise<Page> {
  const signup = await newPage(browser);
  await subscribedUser(signup, label);
  await callApi(signup, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
  const storageState = await signup.context().storageState();
  await signup.context().close();
  return newPage(browser, { ...options, storageState });
}

/** Opens a customer's conversation from the Spanish inbox: its card, the dialog and the message log. */
export async function openSpanishConversation(page: Page, appUrl: string, customerName: string): Promise<{ card: Locator; dialog: Locator; log: Locator }> {
  const card = await activeCard(page, appUrl, customerName);
  await card.getByRole('button').first().click();
  const dialog = page.getByRole('dialog');
  return { card, dialog, log: dialog.getByRole('log', { name: 'Mensajes' }) };
}
