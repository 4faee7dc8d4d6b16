import { describe, expect, it } from 'vitest';
import {
  MAX_CODE_ATTEMPTS,
  OneTimeCodes,
  VERIFICATION_ALPHABET,
  generateResetCode,
  generateVerificationCode,
  resetCodePolicy,
  verificationCodePolicy,
} from '../../../src/domain/auth/codes.js';
import { FakeClock, MemoryCodes } from './fakes.js';

const email = 'ana@example.com';

function setup() {
  const clock = new FakeClock();
  const store = new MemoryCodes();
  return { clock, store, codes: new OneTimeCodes(store, clock) };
}

describe('code generation', () => {
  it('makes 10-character verification codes from the unambiguous uppercase alphabet', () => {
    const codes = Array.from({ length: 200 }, generateVerificationCode);
    for (const code of codes) {
      expect(code).toHaveLength(10);
      for (const ch of code) expect(VERIFICATION_ALPHABET).toContain(ch);
    }
    expect(VERIFICATION_ALPHABET).not.toMatch(/[01OIL]/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('makes 10 lowercase hexadecimal reset codes', () => {
    for (let i = 0; i < 200; i++) expect(generateResetCode()).toMatch(/^[0-9a-f]{10}$/);
  });
});

describe('OneTimeCodes', () => {
  it('stores only a salted hash with a 60-minute expiry', async () => {
    const { codes, store, clock } = setup();
    const code = await codes.issue(verificationCodePolicy, email);
    const [stored] = [...store.items.values()];
    expect(stored).toBeDefined();
    expect(JSON.stringify(stored)).not.toContain(code);
    expect(stored?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(stored?.expiresAt).toBe(Math.floor(clock.now() / 1000) + 60 * 60);
  });

  it('accepts the right code, case-insensitively, and only once', async () => {
    const { codes } = setup();
    const code = await codes.issue(verificationCodePolicy, email);
    const checked = await codes.check(verificationCodePolicy, email, code.toLowerCase());
    expect(await codes.consume(verificationCodePolicy, email, checked)).toBe(true);
    await expect(codes.check(verificationCodePolicy, email, code)).rejects.toThrow('Invalid verification code');
  });

  it('rejects a wrong code', async () => {
    const { codes } = setup();
    await codes.issue(verificationCodePolicy, email);
    await expect(codes.check(verificationCodePolicy, email, 'ZZZZZZZZZZ')).rejects.toThrow('Invalid verification code');
  });

  it('rejects an expired code with the expiry message even though the item still exists', async () => {
    const { codes, clock } = setup();
    const code = await codes.issue(verificationCodePolicy, email);
    clock.advance(60 * 60 - 1);
    await expect(codes.check(verificationCodePolicy, email, code)).resolves.toBeDefined();
    clock.advance(1);
    await expect(codes.check(verificationCodePolicy, email, code)).rejects.toThrow(
      'Verification code has expired. Please request a new one.',
    );
  });

  it('replaces the previous code on resend', async () => {
    const { codes } = setup();
    const first = await codes.issue(verificationCodePolicy, email);
    let second = await codes.issue(verificationCodePolicy, email);
    while (second === first) second = await codes.issue(verificationCodePolicy, email);
    await expect(codes.check(verificationCodePolicy, email, first)).rejects.toThrow('Invalid verification code');
    await expect(codes.check(verificationCodePolicy, email, second)).resolves.toBeDefined();
  });

  it(`voids the code after ${MAX_CODE_ATTEMPTS} wrong guesses, even for the right code`, async () => {
    const { codes, store } = setup();
    const code = await codes.issue(verificationCodePolicy, email);
    for (let i = 1; i < MAX_CODE_ATTEMPTS; i++) {
      await expect(codes.check(verificationCodePolicy, email, 'WRONGWRONG')).rejects.toThrow('Invalid verification code');
    }
    await expect(codes.check(verificationCodePolicy, email, 'WRONGWRONG')).rejects.toThrow('Too many incorrect attempts');
    expect(store.items.size).toBe(0);
    await expect(codes.check(verificationCodePolicy, email, code)).rejects.toThrow('Invalid verification code');
  });

  it(`lets at most ${MAX_CODE_ATTEMPTS} of 30 parallel guesses be compared, so the right code at #20 is refused`, async () => {
    const { codes, store } = setup();
    const code = await codes.issue(verificationCodePolicy, email);
    // Every request reads the code before any of them writes: the worst interleaving.
    const get = store.get.bind(store);
    let waiting: (() => void)[] = [];
    store.get = async (p, e) => {
      const value = await get(p, e);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length === 30) for (const go of waiting) go();
      });
      return value;
    };
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 19 ? code : `WRONG${String(i).padStart(5, 'X')}`));

    const results = await Promise.allSettled(guesses.map((g) => codes.check(verificationCodePolicy, email, g)));

    waiting = [];
    expect(results[19]?.status).toBe('rejected');
    const messages = results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'accepted'));
    expect(messages.filter((m) => m === 'Invalid verification code')).toHaveLength(MAX_CODE_ATTEMPTS - 1);
    expect(messages.filter((m) => m === 'accepted')).toHaveLength(0);
    expect(store.items.size).toBe(0);
  });

  it('does not count the right code as a wrong guess', async () => {
    const { codes, store } = setup();
    const code = await codes.issue(verificationCodePolicy, email);
    await expect(codes.check(verificationCodePolicy, email, 'WRONGWRONG')).rejects.toThrow('Invalid verification code');
    await codes.check(verificationCodePolicy, email, code);
    expect([...store.items.values()][0]?.attempts).toBe(1);
  });

  it('answers every reset-code failure with the same message', async () => {
    const { codes, clock } = setup();
    await expect(codes.check(resetCodePolicy, email, '0123456789')).rejects.toThrow('Invalid or expired reset code');
    const code = await codes.issue(resetCodePolicy, email);
    await expect(codes.check(resetCodePolicy, email, 'abcdefabcd')).rejects.toThrow('Invalid or expired reset code');
    clock.advance(3600);
    await expect(codes.check(resetCodePolicy, email, code)).rejects.toThrow('Invalid or expired reset code');
  });
});
