/** What a person does in the app, shared by the e2e files: open a page, sign up, log in. */
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { expect, onTestFailed } from 'vitest';
import { waitForMailCode } from './browser.js';

export const ONBOARDING_HEADING = 'An agent that never misses a call';
export const PASSWORD = 'Sunny-Day#42';

/** Real round trips (Cognito, DynamoDB Local, SES) on a busy 2-core CI machine: poll, don't sleep. */
export const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** A fresh browser context; if the test fails, what the page showed is saved under test-results/. */
export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  onTestFailed(async ({ task }) => {
    await mkdir('test-results', { recursive: true });
    const file = `test-results/e2e-${task.name.replace(/\W+/g, '-').slice(0, 60)}.png`;
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    console.error(`e2e failure at ${page.url()}; screenshot: ${file}`);
  });
  return page;
}

/** Signs up through the register page with the code the local mailbox received. */
export async function register(page: Page, appUrl: string, mailboxUrl: string, email: string): Promise<void> {
  await page.goto(`${appUrl}/register`);
  await page.getByLabel('Name', { exact: true }).fill('Dana Dentist');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send Code' }).click();
  // The note appears once the server accepted the request and e-mailed the code.
  await eventually(() => page.getByText(/60 minutes/).count()).toBeGreaterThan(0);
  const code = await waitForMailCode(mailboxUrl, email, /\b([A-Z0-9]{10})\b/);
  await page.getByLabel('Verification Code').fill(code);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
}

export async function login(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Path and query of the page's URL. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}
