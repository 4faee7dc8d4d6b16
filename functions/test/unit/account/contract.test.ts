/** The contract's validation messages for the account and auth forms (SPEC §5). */
import { describe, expect, it } from 'vitest';
import {
  loginRequest,
  registerForm,
  registerRequest,
  resetPasswordRequest,
  settingsRequest,
  updatePasswordRequest,
} from '../../../src/contract/auth.js';
import type * as z from 'zod/mini';

const firstMessage = (schema: z.ZodMiniType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe('settings (profile) rules', () => {
  const ok = { name: 'Ana', phoneNumber: '+34600111222', language: 'en' };
  it.each([
    [{ ...ok, name: '' }, 'Name is required'],
    [{ ...ok, name: 'A' }, 'Name must be at least 2 characters'],
    [{ ...ok, name: 'A'.repeat(51) }, 'Name must be less than 50 characters'],
    [{ ...ok, phoneNumber: '0123' }, 'Please enter a valid phone number'],
    [{ ...ok, phoneNumber: '+1234567890123456789' }, 'Please enter a valid phone number'],
    [{ ...ok, phoneNumber: '12-34' }, 'Please enter a valid phone number'],
    [{ ...ok, language: 'fr' }, 'Language is required'],
    [{ name: 'Ana' }, 'Language is required'],
  ])('%j → %s', (input, message) => {
    expect(firstMessage(settingsRequest, input)).toBe(message);
  });

  it('accepts an empty or absent phone and the 50-character name', () => {
    expect(settingsRequest.parse({ name: 'A'.repeat(50), language: 'es' }).phoneNumber).toBe('');
    expect(settingsRequest.safeParse({ ...ok, phoneNumber: '' }).success).toBe(true);
    expect(settingsRequest.safeParse({ ...ok, phoneNumber: '1234567890123456' }).success).toBe(true);
  });
});

describe('password rules', () => {
  it.each([
    ['', 'New password is required'],
    ['Ab1!', 'Password must be at least 8 characters'],
    ['abcdefgh1', 'Password must include at least one letter, one number, and one special character'],
    ['abcdefgh!', 'Password must include at least one letter, one number, and one special character'],
    ['12345678!', 'Password must include at least one letter, one number, and one special character'],
  ])('new password %j → %s', (newPassword, message) => {
    expect(firstMessage(updatePasswordRequest, { currentPassword: 'x', newPassword })).toBe(message);
  });

  it('requires the current password', () => {
    expect(firstMessage(updatePasswordRequest, { newPassword: 'Newer#1234' })).toBe('Current password is required');
  });

  it('register: the form checks 6 characters first, confirm and terms', () => {
    const ok = { name: 'Ana', email: 'a@b.co', verificationCode: 'ABCDEFGHJK', password: 'Secret#1', confirmPassword: 'Secret#1', acceptTerms: true };
    // One rule for every password that is set (issue 19): sign-up asks for what the API asks for.
    expect(firstMessage(registerForm, { ...ok, password: 'abc', confirmPassword: 'abc' })).toBe('Password must be at least 8 characters');
    expect(firstMessage(registerForm, { ...ok, confirmPassword: '' })).toBe('Please confirm your password');
    expect(firstMessage(registerForm, { ...ok, confirmPassword: 'Other#123' })).toBe('Passwords do not match');
    expect(firstMessage(registerForm, { ...ok, acceptTerms: false })).toBe('You must accept the terms of service to register');
    expect(firstMessage(registerRequest, { ...ok, verificationCode: 'ABC' })).toBe('Please enter a valid 10-character code');
  });

  it('login and reset', () => {
    expect(firstMessage(loginRequest, { email: '', password: 'x' })).toBe('Email is required');
    expect(firstMessage(loginRequest, { email: 'nope', password: 'x' })).toBe('Invalid email address');
    expect(firstMessage(loginRequest, { email: 'a@b.co', password: 'short' })).toBe('Password must be at least 8 characters');
    expect(firstMessage(resetPasswordRequest, { email: 'a@b.co', resetCode: 'xyz0123456', newPassword: 'Newer#1234' })).toBe(
      'Reset code must be 10 characters',
    );
  });
});
