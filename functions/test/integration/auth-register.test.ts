/** Sign-up through the local gateway: send-verification, register, /api/me (SPEC §5, §7 Auth). */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { AuthSession, User } from '../../src/contract/auth.js';
import {
  STRONG_PASSWORD,
  clearRateLimits,
  db,
  emailPk,
  get,
  getItem,
  mailsTo,
  post,
  provided,
  readCode,
  registerUser,
  tableName,
  uniqueEmail,
} from '../support/api.js';

const valid = () => ({ name: 'Ana Test', email: uniqueEmail('reg'), password: STRONG_PASSWORD, verificationCode: 'ABCDEFGHJK' });

describe('POST /api/send-verification', () => {
  it('mails a 10-character code and stores only its salted hash with a 60-minute TTL', async () => {
    const email = uniqueEmail('code');
    const before = Math.floor(Date.now() / 1000);

    const res = await post('/api/send-verification', { email });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Verification code sent to your email!', data: { expiresInMinutes: 60 } });
    const code = await readCode(email);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{10}$/);
    const [mail] = await mailsTo(email);
    expect(mail?.body.html).toContain(code);
    const item = await getItem(emailPk(email), 'VERIFY');
    expect(item).toBeDefined();
    expect(JSON.stringify(item)).not.toContain(code);
    expect(JSON.stringify(item)).not.toContain(email);
    expect(item?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(item?.expiresAt)).toBeGreaterThanOrEqual(before + 3600);
    expect(Number(item?.expiresAt)).toBeLessThanOrEqual(before + 3600 + 5);
  });

  it.each([
    [{}, 'Email is required'],
    [{ email: '' }, 'Email is required'],
    [{ email: 'not-an-email' }, 'Invalid email address'],
  ])('%j → 400 %s', async (body, message) => {
    const res = await post('/api/send-verification', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
  });

  it('rate-limits per e-mail with a 429 and Retry-After, without touching other e-mails', async () => {
    const email = uniqueEmail('rate');
    expect((await post('/api/send-verification', { email })).status).toBe(200);

    const again = await post('/api/send-verification', { email });

    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^Too many code requests for this email\. Please try again in \d+ seconds?\.$/);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await post('/api/send-verification', { email: uniqueEmail('other') })).status).toBe(200);
  });

  it('replaces the old code when sent again', async () => {
    const email = uniqueEmail('resend');
    await post('/api/send-verification', { email });
    const first = await readCode(email);
    await clearRateLimits(email, 'send-verification'); // the 30-second window passes
    expect((await post('/api/send-verification', { email })).status).toBe(200);
    const second = await readCode(email);
    expect(second).not.toBe(first);

    const withOld = await post('/api/register', { name: 'Ana', email, password: STRONG_PASSWORD, verificationCode: first });
    expect(withOld.status).toBe(400);
    expect(withOld.body.message).toBe('Invalid verification code');
    const withNew = await post('/api/register', { name: 'Ana', email, password: STRONG_PASSWORD, verificationCode: second });
    expect(withNew.status).toBe(201);
  });

  it('answers byte for byte the same for a registered e-mail, which is mailed how to sign in instead of a code', async () => {
    const { email, session } = await registerUser({ name: 'Rita Registered' });
    await clearRateLimits(email, 'send-verification');
    const fresh = uniqueEmail('fresh');
    const raw = async (to: string) => {
      const res = await fetch(`${provided('apiUrl')}/api/send-verification`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: to }),
      });
      return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    };

    const known = await raw(email);
    const unknown = await raw(fresh);

    expect(known).toEqual(unknown);
    expect(known.status).toBe(200);
    const notices = (await mailsTo(email)).filter((m) => m.subject === 'You already have an AgentDesk account');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.body.text).toContain('Hello Rita Registered,');
    expect(notices[0]?.body.text).toMatch(/Sign in at https?:\/\/\S+\/login\. If you don't remember your password, reset it at https?:\/\/\S+\/forgot-password/);
    expect(notices[0]?.body.text).not.toMatch(/\b[A-HJ-NP-Z2-9]{10}\b/);
    expect(await getItem(emailPk(email), 'VERIFY')).toBeUndefined();
    expect(await readCode(fresh)).toMatch(/^[A-HJ-NP-Z2-9]{10}$/);
    expect((await get('/api/me', session.token)).status).toBe(200); // nothing changed for the account
  });

  it('mails the "already registered" notice in the account\'s language', async () => {
    const { email, session } = await registerUser({ name: 'Eva Existe' });
    expect((await post('/api/settings', { name: 'Eva Existe', phoneNumber: '', language: 'es' }, session.token)).status).toBe(200);
    await clearRateLimits(email, 'send-verification');

    expect((await post('/api/send-verification', { email })).status).toBe(200);

    const [notice] = (await mailsTo(email)).filter((m) => m.subject === 'Ya tienes una cuenta de AgentDesk');
    expect(notice?.body.text).toContain('Hola, Eva Existe:');
    expect(notice?.body.text).toContain('/forgot-password');
    expect(notice?.body.html).toMatch(/<a href="https?:\/\/[^"]+\/login">/);
  });
});

describe('POST /api/register', () => {
  it('creates the Cognito user and the profile, returns a session, and uses up the code', async () => {
    const email = uniqueEmail('new');
    await post('/api/send-verification', { email });
    const verificationCode = await readCode(email);

    const res = await post<AuthSession>('/api/register', { name: '  Ana Nueva ', email: email.toUpperCase(), password: STRONG_PASSWORD, verificationCode });

    expect(res.status).toBe(201);
    const session = res.body.data as AuthSession;
    expect(session.token.split('.')).toHaveLength(3);
    expect(session.refreshToken).toBeTruthy();
    expect(session.expiresIn).toBeGreaterThan(60);
    expect(session.user).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Ana Nueva',
      email,
      phoneNumber: '',
      language: 'en',
      timeZone: 'UTC',
      // Issue 19: no country sent → the deployment's default.
      country: 'US',
      role: 'user',
      createdAt: expect.any(String),
      authProvider: 'password',
      // Issue 29 item 7: no rollout list configured (WHATSAPP_USER_IDS empty) = WhatsApp for every account.
      features: { whatsapp: true },
      hasActiveSubscription: false,
      // Issue 32: a new person owns their own account, named after them.
      accountId: session.user._id,
      accountRole: 'owner',
      accountName: 'Ana Nueva',
    });
    const profile = await getItem(`USER#${session.user._id}`, 'PROFILE');
    expect(profile).toMatchObject({ email, name: 'Ana Nueva', role: 'user', language: 'en', authProvider: 'password' });
    expect(JSON.stringify(profile)).not.toContain(STRONG_PASSWORD);
    expect(await getItem(emailPk(email), 'VERIFY')).toBeUndefined();
    const me = await get<User>('/api/me', session.token);
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual(session.user);
    const login = await post('/api/login', { email, password: STRONG_PASSWORD });
    expect(login.status).toBe(200);
  });

  it.each([
    [{ name: '' }, 'Name is required'],
    [{ name: 'A' }, 'Name must be at least 2 characters'],
    [{ name: 'A'.repeat(51) }, 'Name must be less than 50 characters'],
    [{ email: '' }, 'Email is required'],
    [{ email: 'bad@' }, 'Invalid email address'],
    [{ password: '' }, 'Password is required'],
    [{ password: 'Ab1!' }, 'Password must be at least 8 characters'],
    [{ password: 'abcdefgh' }, 'Password must include at least one letter, one number, and one special character'],
    [{ verificationCode: '' }, 'Verification code is required'],
    [{ verificationCode: 'ABC123' }, 'Please enter a valid 10-character code'],
  ])('%j → 400 %s', async (override, message) => {
    const res = await post('/api/register', { ...valid(), ...override });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
  });

  it('rejects a wrong code with a clear 400', async () => {
    const email = uniqueEmail('wrong');
    await post('/api/send-verification', { email });
    const res = await post('/api/register', { ...valid(), email, verificationCode: 'WRONGCODE2' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid verification code');
    expect(await getItem(emailPk(email), 'VERIFY')).toMatchObject({ attempts: 1 });
  });

  it('rejects a code nobody asked for', async () => {
    const res = await post('/api/register', valid());
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid verification code');
  });

  it('rejects an expired code with a clear 400', async () => {
    const email = uniqueEmail('expired');
    await post('/api/send-verification', { email });
    const verificationCode = await readCode(email);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: emailPk(email), sk: 'VERIFY' },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );

    const res = await post('/api/register', { ...valid(), email, verificationCode });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Verification code has expired. Please request a new one.');
  });

  it('voids the code after 5 wrong guesses', async () => {
    const email = uniqueEmail('guess');
    await post('/api/send-verification', { email });
    const verificationCode = await readCode(email);
    for (let i = 0; i < 4; i++) {
      expect((await post('/api/register', { ...valid(), email, verificationCode: 'WRONGCODE2' })).body.message).toBe('Invalid verification code');
    }
    const fifth = await post('/api/register', { ...valid(), email, verificationCode: 'WRONGCODE2' });
    expect(fifth.body.message).toBe('Too many incorrect attempts. Please request a new verification code.');
    const right = await post('/api/register', { ...valid(), email, verificationCode });
    expect(right.status).toBe(400);
    expect(right.body.message).toBe('Invalid verification code');
  });

  it('counts parallel wrong codes before comparing them: after a burst of 30 the right code is refused', async () => {
    const email = uniqueEmail('burst');
    await post('/api/send-verification', { email });
    const verificationCode = await readCode(email);

    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post('/api/register', { ...valid(), email, verificationCode: `WRONG${String(i).padStart(5, 'X')}` })),
    );

    expect(burst.every((r) => r.status === 400)).toBe(true);
    const right = await post('/api/register', { ...valid(), email, verificationCode });
    expect(right.status).toBe(400);
    expect(await getItem(emailPk(email), 'VERIFY')).toBeUndefined();
    expect((await post('/api/login', { email, password: STRONG_PASSWORD })).status).toBe(401);
  });

  it('does not tell a registered e-mail apart without its code: the same 400 as an unknown one', async () => {
    const { email } = await registerUser();

    const registered = await post('/api/register', { ...valid(), email });
    const unknown = await post('/api/register', valid());

    expect(registered.status).toBe(400);
    expect(registered.body).toEqual(unknown.body);
    expect(registered.body).toEqual({ success: false, message: 'Invalid verification code' });
  });

});
