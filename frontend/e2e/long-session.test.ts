/**
 * A browser session outlives its 5-minute access token (issue 28): the owner starts editing the
 * settings form and leaves it open for 12 minutes (the browser's clock and the local stack's
 * session clock, POST /_local/clock, moved forward together); the app refreshes the token a minute
 * before each expiry, so saving the form works and the page never gets a 401, while the token it
 * started with is refused by then.
 */
import { describe, expect, inject, it } from 'vitest';
import { advanceServerClock, callApi, eventually, newPage, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

describe('a long browser session', () => {
  it('keeps working through refresh: a form left open for 12 minutes saves, with no 401 on the way', async () => {
    const page = await newPage(browser());
    // The page's clock (Date and timers) flows normally until the test moves it forward.
    await page.clock.install();
    await subscribedUser(page, 'long-session');
    const storedToken = () => page.evaluate(() => (JSON.parse(localStorage.getItem('agentdesk.session') ?? '{}') as { token?: string }).token ?? '');
    const unauthorized: string[] = [];
    page.on('response', (res) => {
      if (res.status() === 401) unauthorized.push(`${res.request().method()} ${new URL(res.url()).pathname}`);
    });

    await page.goto(`${appUrl}/profile?tab=settings`);
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    await eventually(() => name.inputValue()).toBe('Dana Dentist');
    await name.fill('Dana, back from lunch');
    const first = await storedToken();

    let token = first;
    for (let round = 0; round < 3; round++) {
      // Four minutes pass on both clocks: the app's timer (a minute before expiry) refreshes.
      await advanceServerClock(4 * 60);
      await page.clock.fastForward('04:00');
      const previous = token;
      await eventually(storedToken).not.toBe(previous);
      token = await storedToken();
    }
    const stale = await fetch(`${appUrl}/api/me`, { headers: { authorization: `Bearer ${first}` } });
    expect(stale.status).toBe(401);

    await page.getByRole('button', { name: 'Save Changes' }).click();
    await eventually(() => page.getByText('Profile updated successfully!').count()).toBeGreaterThan(0);
    expect((await callApi<{ name: string }>(page, 'GET', '/api/me')).name).toBe('Dana, back from lunch');
    expect(unauthorized).toEqual([]);
  });
});
