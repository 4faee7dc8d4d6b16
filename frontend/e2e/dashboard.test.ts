/**
 * The dashboard in a real browser against the local runtime. A subscribed user connects Twilio
 * Voice (through the API, with an account registered in the fake Twilio) and adds two contacts
 * through the API; the fake Twilio then plays four calls to the number (POST /_test/calls, signed
 * webhooks and status callbacks with chosen durations): two from a known contact (45 s and 75 s),
 * one from another number (120 s) and one that fails. Without an agent the app answers every
 * connected call with its error message and hangs up itself, so the three connected calls end
 * 'completed'. The dashboard then shows the true figures (4 calls, 3 completed, 2 contacts,
 * average 1m 20s per completed call, max 2m 0s, total 4m 0s), the chart draws today's bar, the top
 * numbers rank the contact's number first, and Recent Activity lists the four calls 'Just now',
 * newest first, each linking to its call. Also: the empty dashboard, the 30-day range, the
 * failure state with Try Again, the agents banner and the profile's time zone; no median response
 * time ('—') while no call was answered in real time.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { DashboardData } from '../../functions/src/contract/dashboard.js';
import { callApi, eventually, newPage, pathOf, randomDigits, slowly, subscribedUser, twilioControl, useBrowser } from './flows.js';

const appUrl = inject('appUrl');

/** The value shown on a stat card (test id `stat-<id>`). */
const stat = (page: Page, id: string) => page.getByTestId(`stat-${id}`).getByTestId('stat-value').textContent();

/** Bars the chart draws with a height (empty days are 0-high or absent). */
const drawnBars = (page: Page) =>
  page
    .getByTestId('calls-chart')
    .locator('.MuiBarElement-root')
    .evaluateAll((bars) => bars.filter((bar) => bar.getBoundingClientRect().height > 0.5).length);

const browser = useBrowser();

describe('dashboard', () => {
  it('shows the true call, contact and duration figures, the chart, top numbers and recent activity', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'dashboard');

    // Nothing yet: zeros, the empty texts, the default range Last 7 days, the agents banner.
    await page.goto(`${appUrl}/`);
    await eventually(() => page.getByRole('heading', { name: 'Dashboard', level: 1 }).count()).toBe(1);
    await eventually(() => page.getByTestId('stat-totalCalls').count()).toBe(1);
    expect(await stat(page, 'totalCalls')).toBe('0');
    expect(await stat(page, 'completedCalls')).toBe('0');
    expect(await stat(page, 'totalContacts')).toBe('0');
    expect(await stat(page, 'avgDuration')).toBe('0s');
    // No real-time call answered yet: no median response time.
    expect(await stat(page, 'turnLatency')).toBe('—');
    expect(await page.getByTestId('stat-turnLatency').getByText('No real-time calls in the period').count()).toBe(1);
    expect(await page.getByText('Voice Calls - Last 30 Days').count()).toBe(1);
    expect(await page.getByText('Daily call volume and activity').count()).toBe(1);
    expect(await page.getByTestId('chart-empty').textContent()).toBe('No call data available');
    expect(await page.getByTestId('top-numbers-empty').textContent()).toBe('No call data available');
    expect(await page.getByTestId('recent-empty').textContent()).toBe('No recent activity');
    expect(await page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByText('Ready to create intelligent AI agents?').count()).toBe(1);

    // Twilio Voice through the API: setup points the fake Twilio's number at the app.
    const businessNumber = `+1415${randomDigits(7)}`;
    const account = await twilioControl<{ accountSid: string; authToken: string }>('accounts', { numbers: [businessNumber] });
    await callApi(page, 'POST', '/api/integrations/twilio-voice/setup', { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: businessNumber });

    // Two contacts; the first is the frequent caller.
    const frequent = `+346${randomDigits(8)}`;
    // A UK mobile of the 74 range: the 70 and 76 ranges group otherwise.
    const other = `+4474${randomDigits(8)}`;
    const failing = `+336${randomDigits(8)}`;
    await callApi(page, 'POST', '/api/contacts', { name: 'Ana Caller', phoneNumber: frequent });
    await callApi(page, 'POST', '/api/contacts', { name: 'Bruno Quiet', phoneNumber: `+49151${randomDigits(8)}` });

    // Four calls, one after the other (newest last): 45 s, 120 s, 75 s, then a failed one.
    const play = (from: string, extra: Record<string, unknown>) =>
      twilioControl<{ callSid: string; httpStatuses: number[] }>('calls', { to: businessNumber, from, turns: [], ...extra });
    for (const [from, extra] of [
      [frequent, { callDurationSec: 45 }],
      [other, { callDurationSec: 120 }],
      [frequent, { callDurationSec: 75 }],
      [failing, { finalStatus: 'failed' }],
    ] as const) {
      const call = await play(from, extra);
      expect(call.httpStatuses.every((s) => s === 200), JSON.stringify(call.httpStatuses)).toBe(true);
    }

    // The API agrees before the page is read (the status callbacks are written by then).
    await slowly(async () => (await callApi<DashboardData>(page, 'GET', '/api/dashboard')).voiceAnalytics.overview).toEqual({ totalCalls: 4, completedCalls: 3 });

    await page.reload();
    await eventually(() => stat(page, 'totalCalls')).toBe('4');
    expect(await stat(page, 'completedCalls')).toBe('3');
    expect(await stat(page, 'totalContacts')).toBe('2');
    // (45 + 120 + 75) / 3 completed calls = 80 s; the longest 120 s; all finished calls 240 s.
    expect(await stat(page, 'avgDuration')).toBe('1m 20s');
    expect(await stat(page, 'maxDuration')).toBe('2m 0s');
    expect(await stat(page, 'totalDuration')).toBe('4m 0s');
    // Calls without an agent are not answered in real time: still no median response time.
    expect(await stat(page, 'turnLatency')).toBe('—');

    // The chart (its own lazy chunk) draws one bar, today's; at most 15 day labels.
    await eventually(() => page.getByTestId('calls-chart').locator('.MuiBarElement-root').count()).toBeGreaterThan(0);
    await eventually(() => drawnBars(page)).toBe(1);
    const xLabels = await page.getByTestId('calls-chart').locator('.MuiChartsAxis-directionX .MuiChartsAxis-tickLabel').count();
    expect(xLabels).toBeGreaterThan(0);
    expect(xLabels).toBeLessThanOrEqual(15);
    expect(await page.getByTestId('chart-empty').count()).toBe(0);

    // Top phone numbers: the frequent caller first with 2 calls, then the two others with 1.
    const top = page.getByTestId('top-number');
    expect(await top.count()).toBe(3);
    // Grouped in the international format (issue 29: a US account, foreign numbers).
    const grouped = {
      [frequent]: `+34 ${frequent.slice(3, 6)} ${frequent.slice(6, 8)} ${frequent.slice(8, 10)} ${frequent.slice(10)}`,
      [other]: `+44 ${other.slice(3, 7)} ${other.slice(7)}`,
      [failing]: `+33 ${failing.slice(3, 4)} ${failing.slice(4, 6)} ${failing.slice(6, 8)} ${failing.slice(8, 10)} ${failing.slice(10)}`,
    };
    expect(await top.nth(0).getByTestId('top-number-phone').textContent()).toBe(grouped[frequent]!);
    expect(await top.nth(0).getByTestId('top-number-calls').textContent()).toBe('2 calls');
    expect(await top.nth(0).getByText('2 completed', { exact: false }).count()).toBe(1);
    expect(await top.nth(1).getByTestId('top-number-calls').textContent()).toBe('1 call');
    expect(await top.nth(2).getByTestId('top-number-calls').textContent()).toBe('1 call');
    const others = [await top.nth(1).getByTestId('top-number-phone').textContent(), await top.nth(2).getByTestId('top-number-phone').textContent()];
    expect(others.sort()).toEqual([grouped[other], grouped[failing]].sort());

    // Recent Activity: newest first, the contact's name where the number is known, 'Just now'.
    const activity = page.getByTestId('activity-item');
    expect(await activity.count()).toBe(4);
    expect(await activity.nth(0).getByTestId('activity-status').textContent()).toBe('Failed');
    expect(await activity.nth(0).getByTestId('activity-contact').textContent()).toBe('Unknown');
    expect(await activity.nth(1).getByTestId('activity-contact').textContent()).toBe('Ana Caller');
    expect(await activity.nth(1).getByTestId('activity-status').textContent()).toBe('Completed');
    expect(await activity.nth(3).getByTestId('activity-contact').textContent()).toBe('Ana Caller');
    expect(await activity.getByTestId('activity-when').allTextContents()).toEqual(['Just now', 'Just now', 'Just now', 'Just now']);

    // Last 30 days holds the same calls.
    const month = page.waitForResponse((res) => res.url().includes('/api/dashboard?timeFilter=30days') && res.ok());
    await page.getByRole('button', { name: 'Last 30 days' }).click();
    await month;
    await eventually(() => page.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(await stat(page, 'totalCalls')).toBe('4');
    expect(await stat(page, 'totalDuration')).toBe('4m 0s');

    // A recent activity opens its call.
    await activity.nth(2).click();
    await eventually(() => pathOf(page)).toMatch(/^\/voice-conversations\/[^/]+$/);
    await eventually(() => page.getByText(grouped[other]!, { exact: true }).count()).toBeGreaterThan(0);

    // The banner's 'View agents' goes to /agents/.
    await page.goto(`${appUrl}/`);
    await eventually(() => page.getByRole('link', { name: 'View agents' }).count()).toBe(1);
    await page.getByRole('link', { name: 'View agents' }).click();
    await eventually(() => pathOf(page)).toBe('/agents/');
  });

  it("shows 'Error Loading Dashboard' when the figures cannot be read, and Try Again loads them", async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'dashboard-error');
    await page.route('**/api/dashboard?*', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Service Unavailable' }) }),
    );
    await page.goto(`${appUrl}/`);
    // The failed read is retried before the page gives up: it shows the loading text meanwhile.
    await eventually(() => page.getByText('Loading dashboard...').count()).toBe(1);
    await slowly(() => page.getByText('Error Loading Dashboard').count()).toBe(1);

    await page.unroute('**/api/dashboard?*');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await eventually(() => stat(page, 'totalCalls')).toBe('0');
    expect(await page.getByText('Error Loading Dashboard').count()).toBe(0);
  });

  it("saves the profile's time zone, which the dashboard's days follow", async () => {
    // An en-US browser on a machine set to UTC: a US account, whose zone starts as the US main one (issue 29: never UTC).
    const page = await newPage(browser(), { locale: 'en-US', timezoneId: 'UTC' });
    await subscribedUser(page, 'dashboard-tz');
    expect((await callApi<DashboardData>(page, 'GET', '/api/dashboard')).timeZone).toBe('America/New_York');

    await page.goto(`${appUrl}/profile?tab=settings`);
    const field = page.getByRole('combobox', { name: 'Time Zone' });
    await eventually(() => field.inputValue()).toBe('America/New_York');
    await field.fill('Europe/Mad');
    await page.getByRole('option', { name: 'Europe/Madrid' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await eventually(() => page.getByText('Profile updated successfully!').count()).toBeGreaterThan(0);

    await page.reload();
    await eventually(() => page.getByRole('combobox', { name: 'Time Zone' }).inputValue()).toBe('Europe/Madrid');
    const data = await callApi<DashboardData>(page, 'GET', '/api/dashboard');
    expect(data.timeZone).toBe('Europe/Madrid');
    // The chart's last day is today in Madrid.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(new Date());
    expect(data.voiceAnalytics.callsPerDay.at(-1)?.date).toBe(today);
    expect(data.voiceAnalytics.callsPerDay).toHaveLength(30);
  });
});
