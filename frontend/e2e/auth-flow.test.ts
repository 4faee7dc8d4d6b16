/**
 * The walking skeleton end to end, in a real browser against the real local runtime:
 * sign-up with the e-mailed code → onboarding → logout → deep link → login → back on
 * the deep link, and the route table of each audience.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { ONBOARDING_HEADING, activateTrial, eventually, login, newPage, pathOf, register, userIdOf, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');

const browser = useBrowser();

describe('sign-up, onboarding and the route table', () => {
  const email = `dana+${randomUUID().slice(0, 8)}@example.com`;

  it('registers with the code from the mailbox and shows onboarding', async () => {
    const page = await newPage(browser());
    await register(page, appUrl, mailboxUrl, email);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);

    // Log out from onboarding: close-and-logout asks for confirmation first.
    const refreshToken = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('agentdesk.session') ?? '{}') as { refreshToken?: string }).refreshToken ?? '',
    );
    await page.getByRole('button', { name: 'Close and logout' }).click();
    await eventually(() => page.getByText('Are you sure you want to logout?').count()).toBe(1);
    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await eventually(() => new URL(page.url()).pathname).toBe('/login');
    // Logout ended the session on the server too: the old refresh token no longer works.
    const refreshStatus = async () =>
      (
        await fetch(`${appUrl}/api/refresh-token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refreshToken }),
        })
      ).status;
    expect(refreshToken).not.toBe('');
    await eventually(refreshStatus).toBe(401);

    // A deep link while logged out goes to login with the target kept.
    await page.goto(`${appUrl}/agents`);
    await eventually(() => pathOf(page)).toBe('/login?redirectUrl=%2Fagents');

    // Logging in lands back on the target, which this audience sees as onboarding.
    await login(page, email);
    await eventually(() => new URL(page.url()).pathname).toBe('/agents');
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);

    // An unknown path under the onboarding audience still shows onboarding.
    await page.goto(`${appUrl}/no-such-page`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
    await page.context().close();
  });

  it('sends a visitor on an unknown path to /login with the path kept', async () => {
    const page = await newPage(browser());
    await page.goto(`${appUrl}/no-such-page`);
    await eventually(() => pathOf(page)).toBe('/login?redirectUrl=%2Fno-such-page');
    await page.context().close();
  });

  it('checks the register form in the browser before calling the server', async () => {
    const page = await newPage(browser());
    await page.goto(`${appUrl}/register`);

    await page.getByRole('button', { name: 'Send Code' }).click();
    await eventually(() => page.getByText('Please enter your email first').count()).toBe(1);

    await page.getByLabel('Name', { exact: true }).fill('D');
    await page.getByLabel('Password', { exact: true }).fill('abc');
    await page.getByLabel('Confirm Password').fill('abd');
    await page.getByRole('button', { name: 'Create Account' }).click();
    for (const message of [
      'Name must be at least 2 characters',
      'Verification code is required',
      // One password rule (issue 19): the server's 8 characters, not the form's own 6.
      'Password must be at least 8 characters',
      'Passwords do not match',
      'You must accept the terms of service to register',
    ]) {
      await eventually(() => page.getByText(message, { exact: true }).count()).toBe(1);
    }
    expect(new URL(page.url()).pathname).toBe('/register');
    await page.context().close();
  });

  it('gives a subscribed user the full app: dashboard, sidebar and the 404 page', async () => {
    const page = await newPage(browser());
    await page.goto(`${appUrl}/login`);
    await login(page, email);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);

    // Billing lands later: give this user an active trial the way the billing webhook will.
    await activateTrial(await userIdOf(page));

    await page.goto(`${appUrl}/`);
    await eventually(() => page.getByRole('heading', { name: 'Dashboard' }).count()).toBeGreaterThan(0);
    await eventually(() => page.getByTestId('nav-logout').count()).toBe(1);

    await page.goto(`${appUrl}/no-such-page`);
    await eventually(() => page.getByText("Oops! The page you're looking for doesn't exist.").count()).toBe(1);
    await page.getByRole('link', { name: 'Go Home' }).click();
    await eventually(() => new URL(page.url()).pathname).toBe('/');
    await page.context().close();
  });
});
