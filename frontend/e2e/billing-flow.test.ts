/**
 * Paying for a plan end to end, in a real browser against the local runtime and its local
 * billing mode (the fake Stripe's test checkout, which signs real webhook events into the
 * same handler production uses): onboarding → choose Professional → pay → success page →
 * the full app opens → the subscription page shows the plan's usage bars.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { ONBOARDING_HEADING, eventually, newPage, register, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');

const browser = useBrowser();

describe('choosing a plan', () => {
  it('takes a new user from onboarding through the test checkout into the app', async () => {
    const page = await newPage(browser());
    await register(page, appUrl, mailboxUrl, `owner+${randomUUID().slice(0, 8)}@example.com`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);

    // Steps 1-4, then the plan step with Professional preselected.
    for (let step = 1; step <= 4; step++) await page.getByRole('button', { name: 'Next' }).click();
    await eventually(() => page.getByRole('heading', { name: 'Choose your plan' }).count()).toBe(1);
    expect(await page.getByRole('radio', { name: 'Professional' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Continue' }).click();

    // The local billing mode's checkout page says plainly that no real payment happens.
    await eventually(() => page.getByText('Test mode — no real payment').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).origin).not.toBe(new URL(appUrl).origin);
    await page.getByRole('button', { name: 'Pay' }).click();

    // Back in the app: the session is verified against the provider and the plan is shown.
    await eventually(() => new URL(page.url()).pathname).toBe('/subscription/success');
    await eventually(() => page.getByRole('heading', { name: 'Payment Successful' }).count()).toBe(1);
    await eventually(() => page.getByText('Professional').count()).toBeGreaterThan(0);

    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await eventually(() => page.getByRole('heading', { name: 'Dashboard' }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(0);

    // The subscription page: plan summary and the usage bars of the plan's limits.
    await page.getByTestId('nav-subscription').click();
    await eventually(() => page.getByRole('heading', { name: 'Subscription', exact: true }).count()).toBe(1);
    for (const metric of ['Contacts', 'Messages', 'Voice minutes']) {
      await eventually(() => page.getByRole('progressbar', { name: metric }).count()).toBe(1);
    }
    await page.context().close();
  });
});
