import { describe, expect, it } from 'vitest';
import { createAuthService } from '../../../src/domain/auth/service.js';
import { ConflictError, TooManyRequestsError, UnauthorizedError, ValidationError } from '../../../src/domain/errors.js';
import { FakeClock, FakeGoogle, FakeIdentity, MemoryCodes, MemoryMailer, MemoryRateLimiter, MemoryUsers } from './fakes.js';

const PASSWORD = 'Secret#123';
const VERIFY_CODE = /\b[A-Z2-9]{10}\b/;
const RESET_CODE = /\b[0-9a-f]{10}\b/;

function setup() {
  const clock = new FakeClock();
  const deps = {
    clock,
    users: new MemoryUsers(),
    identity: new FakeIdentity(),
    codes: new MemoryCodes(),
    rateLimiter: new MemoryRateLimiter(clock),
    mailer: new MemoryMailer(),
    google: new FakeGoogle(),
    whatsappUserIds: [] as string[],
    defaultCountry: 'US',
    appUrl: 'https://app.example.com',
    resetResponseFloorMs: 0,
  };
  const auth = createAuthService(deps);
  async function register(email = 'ana@example.com', name = 'Ana') {
    await auth.sendVerification({ email });
    const verificationCode = deps.mailer.lastCodeFor(email, VERIFY_CODE);
    return auth.register({ name, email, password: PASSWORD, verificationCode });
  }
  return { ...deps, auth, register };
}

describe('sign-up', () => {
  it('mails a code and registers the user with the profile defaults', async () => {
    const { auth, mailer, users, register } = setup();
    const session = await register();
    expect(mailer.sent[0]?.subject).toBe('Your AgentDesk verification code');
    expect(mailer.sent[0]?.text).toContain('60 minutes');
    expect(session.token).toMatch(/^access-/);
    expect(session.user).toMatchObject({
      name: 'Ana',
      email: 'ana@example.com',
      role: 'user',
      language: 'en',
      phoneNumber: '',
      authProvider: 'password',
      hasActiveSubscription: false,
      // Issue 29 item 7: no rollout list = WhatsApp for every account.
      features: { whatsapp: true },
    });
    expect(users.profiles.get(session.user._id)?.role).toBe('user');
    await expect(auth.login({ email: 'ana@example.com', password: PASSWORD })).resolves.toBeDefined();
  });

  it('mails the code in Spanish when asked', async () => {
    const { auth, mailer } = setup();
    await auth.sendVerification({ email: 'eva@example.com', language: 'es' });
    expect(mailer.sent[0]?.subject).toBe('Tu código de verificación de AgentDesk');
  });

  it('rejects a wrong and an expired code', async () => {
    const { auth, mailer, clock } = setup();
    await auth.sendVerification({ email: 'ana@example.com' });
    const code = mailer.lastCodeFor('ana@example.com', VERIFY_CODE);
    const input = { name: 'Ana', email: 'ana@example.com', password: PASSWORD };
    await expect(auth.register({ ...input, verificationCode: 'WRONGCODE2' })).rejects.toThrow(
      new ValidationError('Invalid verification code'),
    );
    clock.advance(60 * 60);
    await expect(auth.register({ ...input, verificationCode: code })).rejects.toThrow(
      'Verification code has expired. Please request a new one.',
    );
  });

  it('answers a registered e-mail like any other and mails it how to sign in instead of a code', async () => {
    const { auth, register, clock, mailer, codes } = setup();
    await register();
    clock.advance(31);
    const fresh = await auth.sendVerification({ email: 'new@example.com' });

    const known = await auth.sendVerification({ email: 'ana@example.com' });

    expect(known).toEqual(fresh);
    const notice = mailer.sent.at(-1);
    expect(notice).toMatchObject({ to: 'ana@example.com', subject: 'You already have an AgentDesk account' });
    expect(notice?.text).toContain('https://app.example.com/login');
    expect(notice?.text).toContain('https://app.example.com/forgot-password');
    expect(notice?.text).not.toMatch(VERIFY_CODE);
    expect(await codes.get('verify', 'ana@example.com')).toBeNull();
  });

  it('answers a registered e-mail without its code as any wrong code, so register cannot enumerate accounts', async () => {
    const { auth, register } = setup();
    await register();
    await expect(
      auth.register({ name: 'Ana', email: 'ana@example.com', password: PASSWORD, verificationCode: 'ABCDEFGHJK' }),
    ).rejects.toThrow(new ValidationError('Invalid verification code'));
  });

  it('refuses a second account with a 409 only to the holder of a valid code (an account created meanwhile)', async () => {
    const { auth, mailer, identity } = setup();
    await auth.sendVerification({ email: 'ana@example.com' });
    const verificationCode = mailer.lastCodeFor('ana@example.com', VERIFY_CODE);
    await identity.createUser({ email: 'ana@example.com', password: PASSWORD });

    await expect(auth.register({ name: 'Ana', email: 'ana@example.com', password: PASSWORD, verificationCode })).rejects.toThrow(
      new ConflictError('An account with this email already exists'),
    );
  });

  it('limits code e-mails to one per 30 seconds and five per hour', async () => {
    const { auth, clock } = setup();
    const email = 'ana@example.com';
    await auth.sendVerification({ email });
    const limited = await auth.sendVerification({ email }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(TooManyRequestsError);
    expect((limited as TooManyRequestsError).retryAfterSeconds).toBeGreaterThan(0);
    expect((limited as TooManyRequestsError).retryAfterSeconds).toBeLessThanOrEqual(30);
    for (let i = 0; i < 4; i++) {
      clock.advance(31);
      await auth.sendVerification({ email });
    }
    clock.advance(31);
    await expect(auth.sendVerification({ email })).rejects.toThrow(/Too many code requests for this email/);
    clock.advance(3600);
    await expect(auth.sendVerification({ email })).resolves.toEqual({ expiresInMinutes: 60 });
  });
});

describe('login', () => {
  it('rejects a wrong password with a 401', async () => {
    const { auth, register } = setup();
    await register();
    await expect(auth.login({ email: 'ana@example.com', password: 'Wrong#1234' })).rejects.toThrow(
      new UnauthorizedError('Invalid email or password'),
    );
  });

  it('throttles after 5 failures in 15 minutes, even the right password, until the window ends', async () => {
    const { auth, register, clock } = setup();
    await register();
    clock.ms = Math.ceil(clock.ms / 900_000) * 900_000; // start of a window
    for (let i = 0; i < 5; i++) {
      await expect(auth.login({ email: 'ana@example.com', password: 'Wrong#1234' })).rejects.toThrow(UnauthorizedError);
    }
    const error = await auth.login({ email: 'ana@example.com', password: PASSWORD }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooManyRequestsError);
    expect((error as Error).message).toBe('Too many failed login attempts. Please try again in 15 minutes.');
    expect((error as TooManyRequestsError).retryAfterSeconds).toBe(900);
    clock.advance(900);
    await expect(auth.login({ email: 'ana@example.com', password: PASSWORD })).resolves.toBeDefined();
  });

  it('limits failed logins per client address across e-mails: the 101st check is refused, even the right password; other clients and the e-mails are untouched', async () => {
    const { auth, register, clock, rateLimiter } = setup();
    await register();
    clock.ms = Math.ceil(clock.ms / 900_000) * 900_000; // start of a window
    for (let i = 0; i < 100; i++) {
      await expect(auth.login({ email: `guess${i % 20}@example.com`, password: 'Wrong#1234' }, '203.0.113.7')).rejects.toThrow(UnauthorizedError);
    }

    const error = await auth.login({ email: 'ana@example.com', password: PASSWORD }, '203.0.113.7').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TooManyRequestsError);
    expect((error as Error).message).toBe('Too many failed login attempts from your network. Please try again in 15 minutes.');
    expect((error as TooManyRequestsError).retryAfterSeconds).toBe(900);
    // The refused attempt was not counted against the e-mail, and another client signs in.
    expect([...rateLimiter.counts].filter(([k]) => k.startsWith('login-failure:ana@example.com')).map(([, n]) => n)).toEqual([0]);
    await expect(auth.login({ email: 'ana@example.com', password: PASSWORD }, '198.51.100.1')).resolves.toBeDefined();
    // A right password gives its slot back: it never counts.
    expect([...rateLimiter.counts].filter(([k]) => k.startsWith('login-client-failure:client:198.51.100.1')).map(([, n]) => n)).toEqual([0]);
    clock.advance(900);
    await expect(auth.login({ email: 'ana@example.com', password: PASSWORD }, '203.0.113.7')).resolves.toBeDefined();
  });

  it('does not count failures of one e-mail against another', async () => {
    const { auth, register } = setup();
    await register('bob@example.com', 'Bob');
    for (let i = 0; i < 6; i++) await auth.login({ email: 'eve@example.com', password: 'Wrong#1234' }).catch(() => undefined);
    await expect(auth.login({ email: 'bob@example.com', password: PASSWORD })).resolves.toBeDefined();
  });

  it('refreshes a session and rejects a bad refresh token with a 401', async () => {
    const { auth } = setup();
    await expect(auth.refresh('refresh-x')).resolves.toEqual({ token: 'fresh', expiresIn: 3600 });
    await expect(auth.refresh('garbage')).rejects.toThrow(UnauthorizedError);
  });
});

describe('password reset', () => {
  it('answers the same way for unknown e-mails and sends nothing', async () => {
    const { auth, mailer } = setup();
    await expect(auth.sendPasswordReset({ email: 'nobody@example.com' })).resolves.toBeUndefined();
    expect(mailer.sent).toHaveLength(0);
  });

  it('waits at least the response floor either way', async () => {
    const slept: number[] = [];
    const deps = setup();
    const floored = createAuthService({ ...deps, resetResponseFloorMs: 500, sleep: async (ms) => void slept.push(ms) });
    await floored.sendPasswordReset({ email: 'nobody@example.com' });
    expect(slept[0]).toBeGreaterThanOrEqual(500);
  });

  it('answers a reset, right or wrong, for an account or not, no sooner than the response floor', async () => {
    const slept: number[] = [];
    const deps = setup();
    await deps.register();
    const floored = createAuthService({ ...deps, resetResponseFloorMs: 500, sleep: async (ms) => void slept.push(ms) });
    await floored.sendPasswordReset({ email: 'ana@example.com' });
    const resetCode = deps.mailer.lastCodeFor('ana@example.com', RESET_CODE);
    slept.length = 0;

    await expect(floored.resetPassword({ email: 'ana@example.com', resetCode: '0000000000', newPassword: 'Changed#456' })).rejects.toThrow('Invalid or expired reset code');
    await expect(floored.resetPassword({ email: 'nobody@example.com', resetCode: '0000000000', newPassword: 'Changed#456' })).rejects.toThrow('Invalid or expired reset code');
    await floored.resetPassword({ email: 'ana@example.com', resetCode, newPassword: 'Changed#456' });

    // The fake clock stands still: each answer waited the whole floor.
    expect(slept).toEqual([500, 500, 500]);
  });

  it('resets with the mailed code once; the old password stops working; a lockout is lifted', async () => {
    const { auth, mailer, register } = setup();
    await register();
    for (let i = 0; i < 5; i++) await auth.login({ email: 'ana@example.com', password: 'Wrong#1234' }).catch(() => undefined);
    await auth.sendPasswordReset({ email: 'ana@example.com' });
    const resetCode = mailer.lastCodeFor('ana@example.com', RESET_CODE);
    await auth.resetPassword({ email: 'ana@example.com', resetCode, newPassword: 'Changed#456' });
    await expect(auth.login({ email: 'ana@example.com', password: PASSWORD })).rejects.toThrow('Invalid email or password');
    await expect(auth.login({ email: 'ana@example.com', password: 'Changed#456' })).resolves.toBeDefined();
    await expect(
      auth.resetPassword({ email: 'ana@example.com', resetCode, newPassword: 'Again#7890' }),
    ).rejects.toThrow('Invalid or expired reset code');
  });
});

describe('Google sign-in', () => {
  it('creates the user on first use and signs in on the second', async () => {
    const { auth, users, identity } = setup();
    const first = await auth.googleSignIn({ credential: 'google:gil@gmail.com:Gil Gomez' });
    expect(first.created).toBe(true);
    expect(first.session.user).toMatchObject({ email: 'gil@gmail.com', name: 'Gil Gomez', authProvider: 'google', role: 'user' });
    const second = await auth.googleSignIn({ credential: 'google:gil@gmail.com' });
    expect(second.created).toBe(false);
    expect(second.session.user._id).toBe(first.session.user._id);
    expect(users.profiles.size).toBe(1);
    expect(identity.googleSignIns).toEqual(['gil@gmail.com', 'gil@gmail.com']);
  });

  it('rejects a credential the verifier refuses', async () => {
    const { auth } = setup();
    await expect(auth.googleSignIn({ credential: 'forged' })).rejects.toThrow(UnauthorizedError);
  });

  it('does not take over an e-mail that has a password account', async () => {
    const { auth, register } = setup();
    await register();
    await expect(auth.googleSignIn({ credential: 'google:ana@example.com' })).rejects.toThrow(ConflictError);
  });
});
