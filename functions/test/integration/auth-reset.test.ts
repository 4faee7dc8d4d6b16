/** Forgot / reset password through the gateway (SPEC §2, §5, §7 Auth). */
import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, emailPk, getItem, mailsTo, post, readCode, registerUser, uniqueEmail } from '../support/api.js';

const GENERIC = 'If an account exists for this email, a reset code has been sent.';

describe('POST /api/send-password-reset', () => {
  it('mails a 10-hex-character code to an existing account and stores only its hash', async () => {
    const { email } = await registerUser();
    const res = await post('/api/send-password-reset', { email });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: GENERIC });
    const code = await readCode(email, 'reset');
    expect(code).toMatch(/^[0-9a-f]{10}$/);
    const item = await getItem(emailPk(email), 'RESET');
    expect(item?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(item)).not.toContain(code);
  });

  it('gives the same answer, in similar time, for an unknown e-mail and sends nothing', async () => {
    const { email } = await registerUser();
    const ghost = uniqueEmail('ghost');
    const t0 = Date.now();
    const known = await post('/api/send-password-reset', { email });
    const t1 = Date.now();
    const unknown = await post('/api/send-password-reset', { email: ghost });
    const t2 = Date.now();
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(await mailsTo(ghost)).toHaveLength(0);
    expect(await getItem(emailPk(ghost), 'RESET')).toBeUndefined();
    expect(t2 - t1).toBeGreaterThanOrEqual(650);
    expect(Math.abs(t2 - t1 - (t1 - t0))).toBeLessThan(1000);
  });

  it.each([
    [{}, 'Email is required'],
    [{ email: 'x@' }, 'Invalid email address'],
  ])('%j → 400 %s', async (body, message) => {
    const res = await post('/api/send-password-reset', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});

describe('POST /api/reset-password', () => {
  it('resets with the mailed code: the old password stops working, the new one works, the code is used up', async () => {
    const { email, password } = await registerUser();
    await post('/api/send-password-reset', { email });
    const resetCode = await readCode(email, 'reset');
    const newPassword = 'Brand#New99';

    const res = await post('/api/reset-password', { email, resetCode: resetCode.toUpperCase(), newPassword });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Password reset successfully. Please log in with your new password.' });
    expect((await post('/api/login', { email, password })).status).toBe(401);
    expect((await post('/api/login', { email, password: newPassword })).status).toBe(200);
    const again = await post('/api/reset-password', { email, resetCode, newPassword: 'Other#Pass1' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Invalid or expired reset code');
  });

  it('lifts a failed-login lockout', async () => {
    const { email } = await registerUser();
    for (let i = 0; i < 5; i++) await post('/api/login', { email, password: 'Wrong#1234' });
    expect((await post('/api/login', { email, password: STRONG_PASSWORD })).status).toBe(429);
    await post('/api/send-password-reset', { email });
    const resetCode = await readCode(email, 'reset');
    expect((await post('/api/reset-password', { email, resetCode, newPassword: 'Brand#New99' })).status).toBe(200);
    expect((await post('/api/login', { email, password: 'Brand#New99' })).status).toBe(200);
  });

  it('rejects a wrong code and a code for an e-mail without one', async () => {
    const { email } = await registerUser();
    await post('/api/send-password-reset', { email });
    const wrong = await post('/api/reset-password', { email, resetCode: '0000000000', newPassword: 'Brand#New99' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Invalid or expired reset code');
    const none = await post('/api/reset-password', { email: uniqueEmail('none'), resetCode: 'abcdef0123', newPassword: 'Brand#New99' });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Invalid or expired reset code');
  });

  it('counts parallel wrong codes before comparing them: after a burst of 30 the right code is refused', async () => {
    const { email, password } = await registerUser();
    await post('/api/send-password-reset', { email });
    const resetCode = await readCode(email, 'reset');
    const wrong = (i: number) => (parseInt(resetCode, 16) + i + 1).toString(16).padStart(10, '0').slice(-10);

    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post('/api/reset-password', { email, resetCode: wrong(i), newPassword: 'Brand#New99' })),
    );

    expect(burst.every((r) => r.status === 400 && r.body.message === 'Invalid or expired reset code')).toBe(true);
    const right = await post('/api/reset-password', { email, resetCode, newPassword: 'Brand#New99' });
    expect(right.status).toBe(400);
    expect(await getItem(emailPk(email), 'RESET')).toBeUndefined();
    expect((await post('/api/login', { email, password })).status).toBe(200);
  });

  it('answers a wrong code in the same time whether or not the e-mail has an account (issue 28: 24-33 ms vs 5-7 ms)', { timeout: 90_000 }, async () => {
    // A registered e-mail that asked for a reset has a code to check (a read, then the guess
    // counted with a conditional write); an unknown one has none (one read). Both must take the
    // same time, or the answer's timing tells which e-mails have accounts. Each sample is a pair
    // sent together (same load on both sides); 3 accounts × 4 wrong guesses (the 5th would void
    // the code) against 12 unknown e-mails, medians compared.
    const accounts = await Promise.all([1, 2, 3].map(() => registerUser()));
    await Promise.all(accounts.map(({ email }) => post('/api/send-password-reset', { email })));
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await post('/api/reset-password', { email, resetCode: '0123456789', newPassword: 'Brand#New99' });
      expect(res.body.message).toBe('Invalid or expired reset code');
      return performance.now() - started;
    };
    const registered: number[] = [];
    const unknown: number[] = [];
    for (let guess = 0; guess < 4; guess++) {
      for (const { email } of accounts) {
        const [known, ghost] = await Promise.all([timed(email), timed(uniqueEmail('ghost'))]);
        registered.push(known);
        unknown.push(ghost);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const report = `registered ${registered.map(Math.round).join(',')} (median ${median(registered).toFixed(1)}); unknown ${unknown.map(Math.round).join(',')} (median ${median(unknown).toFixed(1)})`;
    console.log(`reset-password timing, ms: ${report}`);

    // Every guess was counted against a real code (a fifth would void it).
    for (const { email } of accounts) expect((await getItem(emailPk(email), 'RESET'))?.attempts).toBe(4);
    // Tolerance, from measured runs: with the floor the medians were 708.5 and 708.0 ms (every
    // sample 703-724 ms: the 700 ms floor dominates both sides); without it 119.9 and 65.4 ms on
    // a busy machine (the issue saw 24-33 vs 5-7 ms at idle, ≥ 17 ms apart). 10 ms is well above
    // the noise between the two sides of a pair and below any gap the extra work opens.
    expect(Math.abs(median(registered) - median(unknown)), report).toBeLessThan(10);
  });

  const ok = { email: 'a@b.co', resetCode: 'abcdef0123', newPassword: 'Brand#New99' };
  it.each([
    [{ ...ok, email: '' }, 'Email is required'],
    [{ ...ok, email: 'bad' }, 'Invalid email address'],
    [{ ...ok, resetCode: '' }, 'Reset code is required'],
    [{ ...ok, resetCode: 'abc' }, 'Reset code must be 10 characters'],
    [{ ...ok, resetCode: 'ghijklmnop' }, 'Reset code must be 10 characters'],
    [{ ...ok, newPassword: '' }, 'New password is required'],
    [{ ...ok, newPassword: 'Ab1!' }, 'Password must be at least 8 characters'],
    [{ ...ok, newPassword: 'abcdefgh1' }, 'Password must include at least one letter, one number, and one special character'],
  ])('%j → 400 %s', async (body, message) => {
    const res = await post('/api/reset-password', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});
