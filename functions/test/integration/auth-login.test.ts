/** Login, refresh, and the gateway's token checks (SPEC §4 Session, §7 Auth, §8). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SignJWT, decodeJwt, importJWK, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AuthSession, RefreshedSession, User } from '../../src/contract/auth.js';
import { STRONG_PASSWORD, emailPk, get, itemsOf, post, provided, registerUser, uniqueEmail } from '../support/api.js';

/** An access token signed with cognito-local's own key, as cognito-local would issue it, but with chosen times. */
async function cognitoLocalToken(claims: { sub: string; username: string }, times: { iat: number; exp: number }) {
  const require = createRequire(import.meta.url);
  const file = require.resolve('cognito-local/lib/keys/cognitoLocal.private.json');
  const { jwk } = JSON.parse(readFileSync(file, 'utf8')) as { jwk: JWK };
  const key = await importJWK(jwk, 'RS256');
  return new SignJWT({
    ...claims,
    client_id: provided('userPoolClientId'),
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    auth_time: times.iat,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
    .setIssuer(`${provided('cognitoEndpoint')}/${provided('userPoolId')}`)
    .setIssuedAt(times.iat)
    .setExpirationTime(times.exp)
    .sign(key);
}

describe('POST /api/login', () => {
  it('signs in with e-mail and password and returns token, refresh token and user', async () => {
    const { email, password, session: registered } = await registerUser({ name: 'Lola Login' });

    const res = await post<AuthSession>('/api/login', { email: email.toUpperCase(), password });

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Login successful');
    const session = res.body.data as AuthSession;
    expect(session.user).toEqual(registered.user);
    expect(decodeJwt(session.token)).toMatchObject({ sub: registered.user._id, token_use: 'access' });
    expect(session.expiresIn).toBeGreaterThan(60);
    expect((await get('/api/me', session.token)).status).toBe(200);
  });

  it.each([
    [{ password: STRONG_PASSWORD }, 'Email is required'],
    [{ email: 'nope', password: STRONG_PASSWORD }, 'Invalid email address'],
    [{ email: 'a@b.co' }, 'Password is required'],
    [{ email: 'a@b.co', password: '' }, 'Password is required'],
    [{ email: 'a@b.co', password: 'short' }, 'Password must be at least 8 characters'],
  ])('%j → 400 %s', async (body, message) => {
    const res = await post('/api/login', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
  });

  it('answers 401 "Invalid email or password" for a wrong password and for an unknown e-mail', async () => {
    const { email } = await registerUser();
    const wrong = await post('/api/login', { email, password: 'Wrong#1234' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ success: false, message: 'Invalid email or password' });
    const unknown = await post('/api/login', { email: uniqueEmail('ghost'), password: 'Wrong#1234' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe('Invalid email or password');
  });

  it('throttles repeated failures for one e-mail with a 429 and Retry-After, even for the right password', async () => {
    const { email, password } = await registerUser();
    for (let i = 0; i < 5; i++) expect((await post('/api/login', { email, password: 'Wrong#1234' })).status).toBe(401);

    const locked = await post('/api/login', { email, password });

    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Too many failed login attempts. Please try again in 15 minutes.');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    const counters = (await itemsOf(emailPk(email))).filter((i) => String(i.sk).startsWith('RATE#login-failure#'));
    expect(counters.map((c) => c.count)).toEqual([5]);
    expect(Number(counters[0]?.expiresAt)).toBeGreaterThan(Date.now() / 1000);
  });

  it('counts each attempt before checking it: 30 parallel guesses reach Cognito at most 5 times and the right password at #20 is refused', async () => {
    const { email, password } = await registerUser();
    const attempt = (pw: string) => post('/api/login', { email, password: pw });
    // #1–#19 race each other; #20 (the right password) and #21–#30 leave once 5 answers are in,
    // so the limit has certainly been reached by then.
    const first = Array.from({ length: 19 }, (_, i) => attempt(`Wrong#${1000 + i}`));
    await new Promise<void>((resolve) => {
      let answered = 0;
      for (const p of first) void p.then(() => ++answered === 5 && resolve());
    });
    const right = attempt(password);
    const rest = Array.from({ length: 10 }, (_, i) => attempt(`Wrong#${2000 + i}`));

    const all = await Promise.all([...first, right, ...rest]);

    expect((await right).status).toBe(429);
    const statuses = all.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5); // only the 5 reserved attempts were checked
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    const counters = (await itemsOf(emailPk(email))).filter((i) => String(i.sk).startsWith('RATE#login-failure#'));
    expect(counters.map((c) => c.count)).toEqual([5]);
  });

  it('does not count a successful login as a failure', async () => {
    const { email, password } = await registerUser();
    for (let i = 0; i < 4; i++) expect((await post('/api/login', { email, password: 'Wrong#1234' })).status).toBe(401);
    expect((await post('/api/login', { email, password })).status).toBe(200);
    expect((await post('/api/login', { email, password })).status).toBe(200);
    const counters = (await itemsOf(emailPk(email))).filter((i) => String(i.sk).startsWith('RATE#login-failure#'));
    expect(counters.map((c) => c.count)).toEqual([4]);
  });
});

describe('POST /api/refresh-token', () => {
  it('gives a new access token for a refresh token', async () => {
    const { session } = await registerUser();
    const res = await post<RefreshedSession>('/api/refresh-token', { refreshToken: session.refreshToken });
    expect(res.status).toBe(200);
    const refreshed = res.body.data as RefreshedSession;
    expect(refreshed.token).not.toBe(session.token);
    expect(refreshed.expiresIn).toBeGreaterThan(60);
    expect((await get<User>('/api/me', refreshed.token)).body.data?._id).toBe(session.user._id);
  });

  it('answers 401 for an unknown refresh token and 400 for a missing one', async () => {
    const bad = await post('/api/refresh-token', { refreshToken: 'not-a-refresh-token' });
    expect(bad.status).toBe(401);
    expect(bad.body.message).toBe('Session expired. Please log in again.');
    const missing = await post('/api/refresh-token', {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Refresh token is required');
  });
});

describe('token checks on user routes', () => {
  it('answers 401 without a token', async () => {
    expect((await get('/api/me')).status).toBe(401);
  });

  it('answers 401 for a tampered token', async () => {
    const { session } = await registerUser();
    const [header, payload, signature] = session.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })).toString('base64url');

    const res = await get('/api/me', `${header}.${forged}.${signature}`);

    expect(res.status).toBe(401);
    expect((await get('/api/me', session.token)).status).toBe(200);
  });

  it('answers 401 for an expired token that is otherwise valid', async () => {
    const { session } = await registerUser();
    const claims = decodeJwt(session.token) as { sub: string; username: string };
    const now = Math.floor(Date.now() / 1000);
    const fresh = await cognitoLocalToken(claims, { iat: now - 60, exp: now + 600 });
    const expired = await cognitoLocalToken(claims, { iat: now - 7200, exp: now - 3600 });

    expect((await get('/api/me', fresh)).status).toBe(200); // the minting is right...
    expect((await get('/api/me', expired)).status).toBe(401); // ...so only the expiry is refused
  });
});
