/**
 * The fake Google Calendar (local/fake-google-calendar) for the integration tests: its `/_test`
 * control API (accounts, consent, busy times, the events written) and the owner's OAuth connect.
 */
import { expect } from 'vitest';
import { api, provided } from './api.js';
import { must } from './bookings.js';

export async function google<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${provided('googleCalendarUrl')}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`fake Google ${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface GoogleEvent {
  id: string;
  status: string;
  summary: string;
  start: { dateTime: string; timeZone?: string };
  end: { dateTime: string };
  transparency: string;
}
/** Every event the fake holds in a calendar (a deleted one stays, with status 'cancelled'). */
export const googleEvents = async (calendarId: string) => (await google<{ events: GoogleEvent[] }>('GET', `/_test/events?calendarId=${encodeURIComponent(calendarId)}`)).events;

export interface GoogleAccount {
  email: string;
  calendars: { id: string; summary: string; accessRole?: string }[];
}

/** The owner clicks Connect: Google's consent page (the fake consents at once) sends the browser to our callback, which sends it to the app. */
export async function connectGoogle(token: string, account: GoogleAccount, consent: 'allow' | 'deny' = 'allow'): Promise<{ landed: string; callback: string }> {
  await google('POST', '/_test/accounts', account);
  if (consent === 'deny') await google('POST', '/_test/consent', { answer: 'deny' });
  const { url } = await must<{ url: string }>(api('POST', '/api/integrations/google-calendar/connect', { token }));
  const authorize = new URL(url);
  expect(authorize.pathname).toBe('/o/oauth2/v2/auth');
  expect(authorize.searchParams.get('scope')!.split(' ').sort()).toEqual([
    'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
    'https://www.googleapis.com/auth/calendar.events',
    'https://www.googleapis.com/auth/calendar.freebusy',
  ]);
  expect(authorize.searchParams.get('access_type')).toBe('offline');
  const consentPage = await fetch(url, { redirect: 'manual' });
  expect(consentPage.status).toBe(302);
  const callback = consentPage.headers.get('location')!;
  expect(new URL(callback).pathname).toBe('/api/integrations/google-calendar/callback');
  const back = await fetch(`${provided('apiUrl')}${new URL(callback).pathname}${new URL(callback).search}`, { redirect: 'manual' });
  expect(back.status).toBe(302);
  return { landed: back.headers.get('location')!, callback };
}
