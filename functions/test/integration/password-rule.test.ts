/**
 * One password rule (issue 19): what the sign-up, reset and change-password forms refuse, the API
 * refuses with the same message (the contract's form schemas are the forms' validation), and a
 * password the forms accept is one the user pool takes and logs in with.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { changePasswordForm, registerForm, resetPasswordForm } from '../../src/contract/auth.js';
import { post, registerUser, uniqueEmail, type RegisteredUser } from '../support/api.js';

const formMessage = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  result.success ? undefined : result.error?.issues.find((i) => i.path[0] === field)?.message;

const WEAK = ['abc', 'Muñoz12', 'peñapeña1', 'clinica2026', 'CLINICA!!!', '12345678#'];

let user: RegisteredUser;

beforeAll(async () => {
  user = await registerUser();
});

describe('the server refuses what the form refuses, with the same message', () => {
  it.each(WEAK)('sign-up with %j', async (password) => {
    const email = uniqueEmail('pw-rule');
    const shown = formMessage(
      registerForm.safeParse({ name: 'Ana Peña', email, verificationCode: 'ABCDEFGHJK', password, confirmPassword: password, acceptTerms: true }),
      'password',
    );

    const res = await post('/api/register', { name: 'Ana Peña', email, verificationCode: 'ABCDEFGHJK', password });

    expect(shown).toBeTruthy();
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: shown });
  });

  it.each(WEAK)('reset with %j', async (password) => {
    const shown = formMessage(
      resetPasswordForm.safeParse({ email: user.email, resetCode: 'abcdef0123', newPassword: password, confirmPassword: password }),
      'newPassword',
    );

    const res = await post('/api/reset-password', { email: user.email, resetCode: 'abcdef0123', newPassword: password });

    expect(shown).toBeTruthy();
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: shown });
  });

  it.each(WEAK)('change with %j (the old password still works)', async (password) => {
    const shown = formMessage(changePasswordForm.safeParse({ currentPassword: user.password, newPassword: password, confirmPassword: password }), 'newPassword');

    const res = await post('/api/update-password', { currentPassword: user.password, newPassword: password }, user.session.token);

    expect(shown).toBeTruthy();
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: shown });
    expect((await post('/api/login', { email: user.email, password: user.password })).status).toBe(200);
  });
});

it('a password the forms accept is set and logged in with', async () => {
  const password = 'Peña$2026';
  expect(changePasswordForm.safeParse({ currentPassword: user.password, newPassword: password, confirmPassword: password }).success).toBe(true);

  const changed = await post('/api/update-password', { currentPassword: user.password, newPassword: password }, user.session.token);

  expect(changed.status).toBe(200);
  expect((await post('/api/login', { email: user.email, password })).status).toBe(200);
});
