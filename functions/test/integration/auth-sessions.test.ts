/**
 * Sessions end for real (issues 14 and 28): logout, a password change and a password reset sign
 * the user out everywhere (AdminUserGlobalSignOut), so refresh tokens issued before stop working,
 * and access tokens (checked by signature and expiry only, like API Gateway's JWT authorizer) live
 * 5 minutes, so an old one is refused at most 5 minutes later while a live session goes on
 * through refresh.
 *
 * This file runs on its own local stack: it moves that stack's session clock forward
 * (POST /_local/clock: the gateway's token checks and cognito-local's token issuing), which on
 * the shared stack would expire every other file's tokens.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TOKENS, type AuthSession, type PasswordChangedSession, type RefreshedSession } from '../../src/contract/auth.js';
import { startLocalStack, type LocalStack } from '../../local/stack.js';
import { get, post, readCode, registerUser, useOwnStack } from '../support/api.js';

const functionsDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
let stack: LocalStack;
let dataDir: string;

beforeAll(async () => {
  dataDir = join(functionsDir, '.test-data', `sessions-${randomUUID()}`);
  stack = await startLocalStack({ dataDir, quiet: true });
  useOwnStack(stack);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Moves the stack's session clock forward, as if that many seconds had passed. */
async function advanceClock(seconds: number): Promise<void> {
  const res = await fetch(`${stack.apiUrl}/_local/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  if (res.status !== 200) throw new Error(`POST /_local/clock answered ${res.status}: ${await res.text()}`);
}

const MINUTE = 60;
const refresh = (refreshToken: string) => post<RefreshedSession>('/api/refresh-token', { refreshToken });
const login = (email: string, password: string) => post<AuthSession>('/api/login', { email, password });
const me = (token: string) => get('/api/me', token);
/** A 'userOrApiKey' route: the API authorizer Lambda checks the token, not the JWT authorizer. */
const contacts = (token: string) => get('/api/contacts', token);

describe('POST /api/logout', () => {
  it('signs the user out on every device: refresh tokens issued before answer 401, a new login works', async () => {
    const { email, password, session } = await registerUser();
    const other = (await login(email, password)).body.data as AuthSession;
    expect((await refresh(session.refreshToken)).status).toBe(200);

    const res = await post('/api/logout', undefined, session.token);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Logged out successfully' });
    const stale = await refresh(session.refreshToken);
    expect(stale.status).toBe(401);
    expect(stale.body.message).toBe('Session expired. Please log in again.');
    expect((await refresh(other.refreshToken)).status).toBe(401);
    const again = await login(email, password);
    expect(again.status).toBe(200);
    expect((await refresh((again.body.data as AuthSession).refreshToken)).status).toBe(200);
  });

  it('answers 401 without a token and changes nothing', async () => {
    const { session } = await registerUser();
    expect((await post('/api/logout')).status).toBe(401);
    expect((await post('/api/logout', undefined, 'not-a-token')).status).toBe(401);
    expect((await refresh(session.refreshToken)).status).toBe(200);
  });
});

describe('password change and reset sign the user out everywhere', () => {
  it('a changed password ends the other sessions; this device continues with the tokens it gets back', async () => {
    const { email, password, session } = await registerUser();
    const other = (await login(email, password)).body.data as AuthSession;

    const res = await post<PasswordChangedSession>('/api/update-password', { currentPassword: password, newPassword: 'Fresh#Pass9' }, session.token);

    expect(res.status).toBe(200);
    expect((await refresh(session.refreshToken)).status).toBe(401);
    expect((await refresh(other.refreshToken)).status).toBe(401);
    const mine = res.body.data as PasswordChangedSession;
    expect((await get('/api/me', mine.token)).status).toBe(200);
    expect((await refresh(mine.refreshToken)).status).toBe(200);
    expect((await login(email, 'Fresh#Pass9')).status).toBe(200);
  });

  it('a reset password ends every session', async () => {
    const { email, session } = await registerUser();
    await post('/api/send-password-reset', { email });
    const resetCode = await readCode(email, 'reset');

    expect((await post('/api/reset-password', { email, resetCode, newPassword: 'Brand#New99' })).status).toBe(200);

    expect((await refresh(session.refreshToken)).status).toBe(401);
    const fresh = await login(email, 'Brand#New99');
    expect(fresh.status).toBe(200);
    expect((await refresh((fresh.body.data as AuthSession).refreshToken)).status).toBe(200);
  });
});

describe('old access tokens stop working within 5 minutes (issue 28)', () => {
  it('logout: the old access token still reads /api/me 4 minutes later, not 6; its refresh token is refused; a fresh session goes on through refresh', async () => {
    const { email, password, session } = await registerUser();
    expect(session.expiresIn).toBe(SESSION_TOKENS.accessMinutes * MINUTE);
    expect((await post('/api/logout', undefined, session.token)).status).toBe(200);
    const fresh = (await login(email, password)).body.data as AuthSession;

    await advanceClock(4 * MINUTE);
    expect((await me(session.token)).status).toBe(200);
    await advanceClock(2 * MINUTE);

    const stale = await me(session.token);
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual({ message: 'Unauthorized' });
    expect((await contacts(session.token)).status).toBe(401);
    expect((await refresh(session.refreshToken)).status).toBe(401);

    // The fresh session's access token has expired as well: its refresh token brings a new one.
    expect((await me(fresh.token)).status).toBe(401);
    let token = fresh.token;
    for (let round = 0; round < 3; round++) {
      const renewed = await refresh(fresh.refreshToken);
      expect(renewed.status).toBe(200);
      const data = renewed.body.data as RefreshedSession;
      expect(data.expiresIn).toBe(SESSION_TOKENS.accessMinutes * MINUTE);
      expect(data.token).not.toBe(token);
      token = data.token;
      expect((await me(token)).status).toBe(200);
      expect((await contacts(token)).status).not.toBe(401);
      // Refreshed every 4 minutes, as the app does, the session never lapses.
      await advanceClock(4 * MINUTE);
      expect((await me(token)).status).toBe(200);
    }
  });

  it('password change: the other device\'s and this device\'s old access tokens are refused 6 minutes later; the tokens handed back go on through refresh', async () => {
    const { email, password, session } = await registerUser();
    const other = (await login(email, password)).body.data as AuthSession;
    const res = await post<PasswordChangedSession>('/api/update-password', { currentPassword: password, newPassword: 'Fresh#Pass9' }, session.token);
    expect(res.status).toBe(200);
    const mine = res.body.data as PasswordChangedSession;

    await advanceClock(6 * MINUTE);

    expect((await me(session.token)).status).toBe(401);
    expect((await me(other.token)).status).toBe(401);
    expect((await refresh(other.refreshToken)).status).toBe(401);
    const renewed = await refresh(mine.refreshToken);
    expect(renewed.status).toBe(200);
    expect((await me((renewed.body.data as RefreshedSession).token)).status).toBe(200);
  });

  it('password reset: the old access token is refused 6 minutes later, and so is its refresh token', async () => {
    const { email, session } = await registerUser();
    await post('/api/send-password-reset', { email });
    const resetCode = await readCode(email, 'reset');
    expect((await post('/api/reset-password', { email, resetCode, newPassword: 'Brand#New99' })).status).toBe(200);
    const fresh = (await login(email, 'Brand#New99')).body.data as AuthSession;

    await advanceClock(6 * MINUTE);

    expect((await me(session.token)).status).toBe(401);
    expect((await contacts(session.token)).status).toBe(401);
    expect((await refresh(session.refreshToken)).status).toBe(401);
    const renewed = await refresh(fresh.refreshToken);
    expect(renewed.status).toBe(200);
    expect((await me((renewed.body.data as RefreshedSession).token)).status).toBe(200);
  });
});

describe('POST /_local/clock', () => {
  it('only moves forward, by a whole number of seconds up to a day; anything else is a 400 that changes nothing', async () => {
    const { session } = await registerUser();
    for (const body of [{ advanceSeconds: -60 }, { advanceSeconds: 0 }, { advanceSeconds: 1.5 }, { advanceSeconds: '60' }, { advanceSeconds: 86_401 }, {}]) {
      const res = await fetch(`${stack.apiUrl}/_local/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const garbled = await fetch(`${stack.apiUrl}/_local/clock`, { method: 'POST', body: '{not json' });
    expect(garbled.status).toBe(400);
    expect((await me(session.token)).status).toBe(200);
    const state = (await (await fetch(`${stack.apiUrl}/_local/clock`)).json()) as { offsetSeconds: number; now: string };
    expect(typeof state.offsetSeconds).toBe('number');
    expect(Date.parse(state.now) - Date.now()).toBeGreaterThanOrEqual(state.offsetSeconds * 1000 - 5_000);
  });
});
