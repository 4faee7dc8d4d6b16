/**
 * The API client keeps a 5-minute access token alive (issue 28): a call made within the refresh
 * margin of the token's expiry refreshes first (one refresh for concurrent calls), a call with
 * time left goes straight out, and a 401 still gets one refresh and one retry. The server is a
 * fake fetch that accepts only the tokens it issued and has not expired.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFRESH_MARGIN_MS, clearSession, getSession, msUntilRefresh, setSession } from './session';
import { teamMessages } from '@agentdesk/functions/contract';
import { endServerSession, requestData, setForbiddenHandler, setUnauthorizedHandler } from './client';

class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

const TOKEN_SECONDS = 300;
let calls: { path: string; token: string | undefined }[];
let valid: Set<string>;
let issued: number;
let lostSession: boolean;

/** The fake API: /api/refresh-token hands out a new token for 'refresh-1'; /api/me and /api/logout answer tokens in `valid`. */
async function fakeFetch(path: string, init: RequestInit): Promise<Response> {
  const token = (init.headers as Record<string, string>).Authorization?.replace('Bearer ', '');
  calls.push({ path, token });
  if (path === '/api/refresh-token') {
    const { refreshToken } = JSON.parse(String(init.body)) as { refreshToken: string };
    if (refreshToken !== 'refresh-1') return Response.json({ success: false, message: 'Session expired. Please log in again.' }, { status: 401 });
    const next = `access-${++issued}`;
    valid.add(next);
    return Response.json({ success: true, data: { token: next, expiresIn: TOKEN_SECONDS } });
  }
  if (!token || !valid.has(token)) return Response.json({ message: 'Unauthorized' }, { status: 401 });
  if (path === '/api/logout') return Response.json({ success: true, message: 'Logged out successfully' });
  return Response.json({ success: true, data: { name: 'Dana' } });
}

beforeEach(() => {
  vi.stubGlobal('window', { localStorage: new MemoryStorage() });
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  calls = [];
  valid = new Set(['access-0']);
  issued = 0;
  lostSession = false;
  setUnauthorizedHandler(() => {
    lostSession = true;
  });
});

afterEach(() => {
  clearSession();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('msUntilRefresh', () => {
  it('is the time left minus the margin, and 0 once inside the margin or past the expiry', () => {
    const now = 1_000_000;
    expect(msUntilRefresh({ expiresAt: now + TOKEN_SECONDS * 1000 }, now)).toBe(TOKEN_SECONDS * 1000 - REFRESH_MARGIN_MS);
    expect(msUntilRefresh({ expiresAt: now + REFRESH_MARGIN_MS - 1 }, now)).toBe(0);
    expect(msUntilRefresh({ expiresAt: now - 1 }, now)).toBe(0);
  });
});

describe('API client and the 5-minute access token', () => {
  it('sends a call with time left on the token as it is', async () => {
    setSession('access-0', 'refresh-1', TOKEN_SECONDS);

    expect(await requestData('/api/me')).toEqual({ name: 'Dana' });

    expect(calls).toEqual([{ path: '/api/me', token: 'access-0' }]);
  });

  it('refreshes before a call made inside the margin, so the server never sees the old token', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    setSession('access-0', 'refresh-1', TOKEN_SECONDS);
    // 4½ minutes later (a sleeping laptop: the app's timer has not run); the server has already
    // let the token go, as a clock a little ahead would.
    vi.advanceTimersByTime(TOKEN_SECONDS * 1000 - 30_000);
    valid.delete('access-0');

    expect(await requestData('/api/me')).toEqual({ name: 'Dana' });

    expect(calls).toEqual([
      { path: '/api/refresh-token', token: undefined },
      { path: '/api/me', token: 'access-1' },
    ]);
    expect(getSession()).toMatchObject({ token: 'access-1', refreshToken: 'refresh-1', expiresAt: Date.now() + TOKEN_SECONDS * 1000 });
    expect(lostSession).toBe(false);
  });

  it('lets concurrent calls inside the margin share one refresh', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    setSession('access-0', 'refresh-1', TOKEN_SECONDS);
    vi.advanceTimersByTime(TOKEN_SECONDS * 1000 + 1_000);

    await Promise.all([requestData('/api/me'), requestData('/api/me'), requestData('/api/me')]);

    expect(calls.filter((c) => c.path === '/api/refresh-token')).toHaveLength(1);
    expect(calls.filter((c) => c.path === '/api/me').map((c) => c.token)).toEqual(['access-1', 'access-1', 'access-1']);
  });

  it('still answers a 401 with one refresh and a retry (a token the server refuses early)', async () => {
    setSession('access-0', 'refresh-1', TOKEN_SECONDS);
    valid.delete('access-0');

    expect(await requestData('/api/me')).toEqual({ name: 'Dana' });

    expect(calls.map((c) => c.path)).toEqual(['/api/me', '/api/refresh-token', '/api/me']);
    expect(lostSession).toBe(false);
  });

  it('loses the session when the refresh token was revoked (signed out everywhere)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    setSession('access-0', 'revoked', TOKEN_SECONDS);
    vi.advanceTimersByTime(TOKEN_SECONDS * 1000 + 1_000);
    valid.delete('access-0');

    await expect(requestData('/api/me')).rejects.toMatchObject({ status: 401 });

    expect(lostSession).toBe(true);
    expect(getSession()).toBeNull();
  });
});

describe('endServerSession (Logout)', () => {
  it('logs out with the stored token while it has time left', async () => {
    setSession('access-0', 'refresh-1', TOKEN_SECONDS);

    await endServerSession(getSession()!);

    expect(calls).toEqual([{ path: '/api/logout', token: 'access-0' }]);
  });

  it('refreshes an expired token first, so the logout is not a 401 that leaves the other devices signed in', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    setSession('access-0', 'refresh-1', TOKEN_SECONDS);
    const session = getSession()!;
    clearSession();
    vi.advanceTimersByTime(TOKEN_SECONDS * 1000 + 60_000);
    valid.delete('access-0');

    await endServerSession(session);

    expect(calls).toEqual([
      { path: '/api/refresh-token', token: undefined },
      { path: '/api/logout', token: 'access-1' },
    ]);
  });
});

describe("a refusal for the person's role (issue 32)", () => {
  it('reaches the forbidden handler with the server text once, and the caller still gets the error', async () => {
    const told: string[] = [];
    setForbiddenHandler((message) => told.push(message));
    setSession('access-0', 'refresh-1', TOKEN_SECONDS);
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ success: false, message: teamMessages.forbidden }, { status: 403 })));

    await expect(requestData('/api/integrations')).rejects.toMatchObject({ status: 403, serverMessage: teamMessages.forbidden });
    expect(told).toEqual([teamMessages.forbidden]);
  });

  it('leaves other refusals to their callers', async () => {
    const told: string[] = [];
    setForbiddenHandler((message) => told.push(message));
    setSession('access-0', 'refresh-1', TOKEN_SECONDS);
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ success: false, message: teamMessages.ownerOnly }, { status: 403 })));

    await expect(requestData('/api/team/ownership', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 403, serverMessage: teamMessages.ownerOnly });
    expect(told).toEqual([]);
  });
});
