/**
 * One-time codes (sign-up verification, password reset): generated with a CSPRNG, stored
 * only as a salted SHA-256 hash with a TTL, replaced on resend, deleted after use, and void
 * after a few wrong guesses. Expiry is also checked on read (DynamoDB Local never deletes).
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  RESET_CODE_LENGTH,
  RESET_CODE_TTL_MINUTES,
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_TTL_MINUTES,
} from '../../contract/auth.js';
import { codeMessages } from '../../contract/account-texts.js';
import { ValidationError } from '../errors.js';
import type { Clock, CodePurpose, CodeStore, StoredCode } from './ports.js';

/** Uppercase letters and digits without look-alikes (0/O, 1/I/L). */
export const VERIFICATION_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** Wrong guesses allowed per code; the code is void after that. */
export const MAX_CODE_ATTEMPTS = 5;

export function generateVerificationCode(): string {
  let code = '';
  for (let i = 0; i < VERIFICATION_CODE_LENGTH; i++) code += VERIFICATION_ALPHABET[randomInt(VERIFICATION_ALPHABET.length)];
  return code;
}

/** 10 lowercase hexadecimal characters. */
export function generateResetCode(): string {
  return randomBytes(Math.ceil(RESET_CODE_LENGTH / 2)).toString('hex').slice(0, RESET_CODE_LENGTH);
}

export function hashCode(code: string, salt: string): string {
  return createHash('sha256').update(`${salt}:${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface CodePolicy {
  purpose: CodePurpose;
  ttlMinutes: number;
  generate(): string;
  /** Normalises user input the way the contract does (case). */
  normalise(input: string): string;
  messages: { invalid: string; expired: string; tooManyAttempts: string };
}

export const verificationCodePolicy: CodePolicy = {
  purpose: 'verify',
  ttlMinutes: VERIFICATION_CODE_TTL_MINUTES,
  generate: generateVerificationCode,
  normalise: (v) => v.trim().toUpperCase(),
  messages: {
    invalid: codeMessages.verificationInvalid,
    expired: codeMessages.verificationExpired,
    tooManyAttempts: codeMessages.verificationTooManyAttempts,
  },
};

const RESET_INVALID = codeMessages.resetInvalid;
export const resetCodePolicy: CodePolicy = {
  purpose: 'reset',
  ttlMinutes: RESET_CODE_TTL_MINUTES,
  generate: generateResetCode,
  normalise: (v) => v.trim().toLowerCase(),
  // The reset form never says which of the three it was.
  messages: { invalid: RESET_INVALID, expired: RESET_INVALID, tooManyAttempts: RESET_INVALID },
};

export class OneTimeCodes {
  constructor(
    private readonly store: CodeStore,
    private readonly clock: Clock,
  ) {}

  /** Creates a new code for the e-mail (replacing any previous one) and returns it in clear, for the e-mail only. */
  async issue(policy: CodePolicy, email: string): Promise<string> {
    const code = policy.generate();
    const salt = randomBytes(16).toString('hex');
    const now = this.clock.now();
    const stored: StoredCode = {
      hash: hashCode(code, salt),
      salt,
      expiresAt: Math.floor(now / 1000) + policy.ttlMinutes * 60,
      attempts: 0,
      createdAt: new Date(now).toISOString(),
    };
    await this.store.put(policy.purpose, email, stored);
    return code;
  }

  /**
   * Checks a code without using it up; throws ValidationError with the policy's message.
   * Returns a token for `consume` once the action the code unlocks has succeeded. The guess is
   * counted (atomically, only while under the budget) before it is compared, so parallel guesses
   * cannot get more than MAX_CODE_ATTEMPTS comparisons; the right code gives its count back.
   */
  async check(policy: CodePolicy, email: string, input: string): Promise<{ hash: string }> {
    const stored = await this.store.get(policy.purpose, email);
    if (!stored) throw new ValidationError(policy.messages.invalid);
    if (stored.expiresAt <= Math.floor(this.clock.now() / 1000)) {
      await this.store.delete(policy.purpose, email);
      throw new ValidationError(policy.messages.expired);
    }
    const attempts = await this.store.reserveAttempt(policy.purpose, email, stored.hash, MAX_CODE_ATTEMPTS);
    if (attempts === null) {
      // Out of guesses (or used or replaced meanwhile): void it if it is still this code.
      await this.store.consume(policy.purpose, email, stored.hash);
      throw new ValidationError(policy.messages.tooManyAttempts);
    }
    if (!sameHash(hashCode(policy.normalise(input), stored.salt), stored.hash)) {
      if (attempts >= MAX_CODE_ATTEMPTS) {
        await this.store.consume(policy.purpose, email, stored.hash);
        throw new ValidationError(policy.messages.tooManyAttempts);
      }
      throw new ValidationError(policy.messages.invalid);
    }
    await this.store.releaseAttempt(policy.purpose, email, stored.hash);
    return { hash: stored.hash };
  }

  /** Deletes the checked code so it cannot be used twice; false if another request used it first. */
  consume(policy: CodePolicy, email: string, checked: { hash: string }): Promise<boolean> {
    return this.store.consume(policy.purpose, email, checked.hash);
  }
}
