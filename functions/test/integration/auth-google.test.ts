/**
 * Google sign-in through the gateway: credentials are signed by the fake Google of the global
 * setup (its JWKS is the API's GOOGLE_JWKS_URL), so signature, audience, issuer and expiry are
 * really checked. Locally the sign-in itself uses the adapter in src/adapters/cognito-local-google.ts.
 */
import { describe, expect, it } from 'vitest';
import type { AuthSession, User } from '../../src/contract/auth.js';
import { foreignPrivateJwk, mintGoogleIdToken, type GoogleClaims } from '../support/fake-google.js';
import { get, getItem, post, provided, registerUser, uniqueEmail } from '../support/api.js';

const mint = (claims: GoogleClaims) => mintGoogleIdToken(provided('googlePrivateJwk'), claims);
const FAILED = 'Google login failed: the Google credential is invalid or expired';

describe('POST /api/google-auth', () => {
  it('creates the user on first use and signs them in on the second', async () => {
    const email = uniqueEmail('gmail');

    const first = await post<AuthSession>('/api/google-auth', { credential: await mint({ email, name: 'Gala Google' }) });

    expect(first.status).toBe(201);
    const created = first.body.data as AuthSession;
    expect(created.user).toMatchObject({ email, name: 'Gala Google', authProvider: 'google', role: 'user', language: 'en', hasActiveSubscription: false });
    expect(created.refreshToken).toBeTruthy();
    expect(await getItem(`USER#${created.user._id}`, 'PROFILE')).toMatchObject({ email, authProvider: 'google', googleSub: `google-${email}` });
    expect((await get<User>('/api/me', created.token)).body.data?._id).toBe(created.user._id);

    const second = await post<AuthSession>('/api/google-auth', { credential: await mint({ email: email.toUpperCase() }) });

    expect(second.status).toBe(200);
    expect(second.body.data?.user._id).toBe(created.user._id);
    expect(second.body.data?.user.name).toBe('Gala Google');
    expect((await get('/api/me', second.body.data?.token)).status).toBe(200);
    // The first session's refresh token still works after the second sign-in.
    expect((await post('/api/refresh-token', { refreshToken: created.refreshToken })).status).toBe(200);
  });

  const now = () => Math.floor(Date.now() / 1000);
  it.each<[string, (email: string) => Promise<string>]>([
    ['a wrong audience', (email) => mint({ email, aud: 'someone-else.apps.googleusercontent.com' })],
    ['a wrong issuer', (email) => mint({ email, iss: 'https://evil.example.com' })],
    ['an expired token', (email) => mint({ email, iat: now() - 7200, exp: now() - 3600 })],
    ['an unverified e-mail', (email) => mint({ email, email_verified: false })],
    ['a bad signature', async (email) => mintGoogleIdToken(await foreignPrivateJwk(), { email })],
    ['a foreign key posing as the published one', async (email) => {
      const kid = (JSON.parse(provided('googlePrivateJwk')) as { kid: string }).kid;
      return mintGoogleIdToken(await foreignPrivateJwk(kid), { email });
    }],
    ['garbage', async () => 'not.a.jwt'],
  ])('rejects %s with a 401 and creates nobody', async (_case, credential) => {
    const email = uniqueEmail('reject');
    const res = await post('/api/google-auth', { credential: await credential(email) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: FAILED });
    // No account was created: the e-mail can still start a sign-up.
    expect((await post('/api/send-verification', { email })).status).toBe(200);
  });

  it('asks for the credential', async () => {
    const res = await post('/api/google-auth', {});
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Google credential is required');
  });

  it('does not take over an e-mail that has a password account', async () => {
    const { email, password } = await registerUser();
    const res = await post('/api/google-auth', { credential: await mint({ email }) });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('An account with this email already exists. Please log in with your email and password.');
    expect((await post('/api/login', { email, password })).status).toBe(200);
  });
});
