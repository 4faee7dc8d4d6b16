/** Rate limits of the auth flows (fixed windows per e-mail, see RateLimiter). */
import { TooManyRequestsError } from '../errors.js';
import type { RateDecision, RateLimiter, RateRule, Tokens } from './ports.js';

export const LOGIN_FAILURE_WINDOW_MINUTES = 15;
/** Failed logins per e-mail: at most 5 per 15 minutes, then 429 until the window ends. */
export const loginFailureRules: readonly RateRule[] = [{ windowSeconds: LOGIN_FAILURE_WINDOW_MINUTES * 60, max: 5 }];
/** Code e-mails per e-mail address and purpose: at most 1 per 30 s and 5 per hour. */
export const codeEmailRules: readonly RateRule[] = [
  { windowSeconds: 30, max: 1 },
  { windowSeconds: 3600, max: 5 },
];

export const RATE_ACTIONS = {
  loginFailure: 'login-failure',
  sendVerification: 'send-verification',
  sendPasswordReset: 'send-password-reset',
} as const;

export const TOO_MANY_LOGINS = `Too many failed login attempts. Please try again in ${LOGIN_FAILURE_WINDOW_MINUTES} minutes.`;

export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export function throwIfLimited<D extends RateDecision>(
  decision: D,
  message: (retryAfterSeconds: number) => string,
): asserts decision is Extract<D, { allowed: true }> {
  if (!decision.allowed) throw new TooManyRequestsError(message(decision.retryAfterSeconds), decision.retryAfterSeconds);
}

export const tooManyCodeEmails = (retryAfterSeconds: number) =>
  `Too many code requests for this email. Please try again in ${describeWait(retryAfterSeconds)}.`;

/**
 * A password check under the failed-login throttle: the attempt is counted (atomically, only
 * while under the limit) before the password is checked, so parallel guesses cannot get more
 * than the budget through; a right password, or a check that could not run, is un-counted.
 */
export async function checkPasswordThrottled(
  rateLimiter: RateLimiter,
  email: string,
  check: () => Promise<Tokens | null>,
): Promise<Tokens | null> {
  const attempt = await rateLimiter.reserve(RATE_ACTIONS.loginFailure, email, loginFailureRules);
  throwIfLimited(attempt, () => TOO_MANY_LOGINS);
  let tokens: Tokens | null;
  try {
    tokens = await check();
  } catch (error) {
    await attempt.release().catch(() => undefined);
    throw error;
  }
  // A lost give-back only leaves one extra failure counted: never worth failing a good sign-in.
  if (tokens) await attempt.release().catch(() => undefined);
  return tokens;
}
