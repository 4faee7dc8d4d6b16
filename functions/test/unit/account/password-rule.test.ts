/**
 * The one password rule (issue 19): sign-up, reset and change — their forms and their API
 * requests — refuse the same passwords with the same message, and the rule's constants are the
 * ones the hint shows.
 */
import { describe, expect, it } from 'vitest';
import {
  changePasswordForm,
  PASSWORD_RULE,
  passwordProblem,
  registerForm,
  registerRequest,
  resetPasswordForm,
  resetPasswordRequest,
  updatePasswordRequest,
} from '../../../src/contract/auth.js';
import type * as z from 'zod/mini';

const issueAt = (schema: z.ZodMiniType, input: unknown, field: string) => {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues.find((i) => i.path[0] === field)?.message;
};

/** Every place a password is set, as [schema, input with the password, the password's field]. */
const setters = (password: string): [string, z.ZodMiniType, unknown, string][] => {
  const base = { name: 'Ana Peña', email: 'ana@example.es', verificationCode: 'ABCDEFGHJK' };
  return [
    ['register form', registerForm, { ...base, password, confirmPassword: password, acceptTerms: true }, 'password'],
    ['register request', registerRequest, { ...base, password }, 'password'],
    ['reset form', resetPasswordForm, { email: base.email, resetCode: 'abcdef0123', newPassword: password, confirmPassword: password }, 'newPassword'],
    ['reset request', resetPasswordRequest, { email: base.email, resetCode: 'abcdef0123', newPassword: password }, 'newPassword'],
    ['change form', changePasswordForm, { currentPassword: 'Old#12345', newPassword: password, confirmPassword: password }, 'newPassword'],
    ['change request', updatePasswordRequest, { currentPassword: 'Old#12345', newPassword: password }, 'newPassword'],
  ];
};

describe('the password rule', () => {
  it('is 8 to 256 characters with a letter, a digit and one of @$!%*#?& (SPEC §5)', () => {
    expect(PASSWORD_RULE).toEqual({ minLength: 8, maxLength: 256, symbols: '@$!%*#?&' });
  });

  it.each([
    ['abc', 'Password must be at least 8 characters'],
    ['Ab1!', 'Password must be at least 8 characters'],
    ['muñoz123', 'Password must include at least one letter, one number, and one special character'],
    ['abcdefgh!', 'Password must include at least one letter, one number, and one special character'],
    ['12345678#', 'Password must include at least one letter, one number, and one special character'],
    ['abcdefg1-', 'Password must include at least one letter, one number, and one special character'],
    [`Aa1!${'x'.repeat(253)}`, 'Password must be 256 characters or less'],
  ])('%j is refused everywhere with %j', (password, message) => {
    expect(passwordProblem(password)).toBe(message);
    for (const [where, schema, input, field] of setters(password)) expect(issueAt(schema, input, field), where).toBe(message);
  });

  it.each(['Secret#1', 'Peña$2026', `Aa1!${'x'.repeat(252)}`])('%j is accepted everywhere', (password) => {
    expect(passwordProblem(password)).toBeNull();
    for (const [where, schema, input] of setters(password)) expect(schema.safeParse(input).success, where).toBe(true);
  });
});
