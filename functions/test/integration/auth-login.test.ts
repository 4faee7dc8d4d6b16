/** Login, refresh, and the gateway's token checks (SPEC §4 Session, §7 Auth, §8). */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
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

describe('POST /api/login: failed logins per client (issue 28)', () => {
  /** A login sent from a loopback address of its own (the gateway passes it on as the viewer's address, as CloudFront does). */
  function loginFrom(address: string, body: { email: string; password: string }): Promise<{ status: number; retryAfter: string; body: { message?: string } }> {
    const api = new URL(provided('apiUrl'));
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        { host: api.hostname, port: api.port, localAddress: address, method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: String(res.headers['retry-after'] ?? ''), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message?: string } }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  it('refuses a client its 101st password check in 15 minutes, whatever the e-mails, with a 429; other clients sign in', { timeout: 120_000 }, async () => {
    // Addresses of their own: the other test files log in from 127.0.0.1 at the same time.
    const third = 2 + Math.floor(Math.random() * 120);
    const [attacker, neighbour] = [`127.0.${third}.${2 + Math.floor(Math.random() * 250)}`, `127.0.${third + 121}.9`];
    const { email, password } = await registerUser();
    // 100 wrong passwords spread over 20 e-mails: 5 each, so no e-mail's own budget refuses any.
    const targets = Array.from({ length: 20 }, (_, i) => uniqueEmail(`spray${i}`));
    const guesses = Array.from({ length: 100 }, (_, i) => ({ email: targets[i % 20]!, password: `Wrong#${1000 + i}` }));
    const statuses: number[] = [];
    for (let i = 0; i < guesses.length; i += 10) {
      statuses.push(...(await Promise.all(guesses.slice(i, i + 10).map((g) => loginFrom(attacker, g)))).map((r) => r.status));
    }

    const blocked = await loginFrom(attacker, { email, password });
    const elsewhere = await loginFrom(neighbour, { email, password });

    expect(statuses.filter((s) => s === 401), JSON.stringify(statuses)).toHaveLength(100);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many failed login attempts from your network. Please try again in 15 minutes.');
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(900);
    expect(elsewhere.status).toBe(200);
    const counters = (await itemsOf(emailPk(`client:${attacker}`))).filter((i) => String(i.sk).startsWith('RATE#login-client-failure#'));
    expect(counters.map((c) => c.count)).toEqual([100]);
    // The refused attempt was not counted against the account's e-mail (its slot was given back).
    expect((await itemsOf(emailPk(email))).filter((i) => String(i.sk).startsWith('RATE#login-failure#')).map((c) => c.count)).toEqual([0]);
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
