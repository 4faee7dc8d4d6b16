/** Rate limits of the auth flows (fixed windows per e-mail or per client address, see RateLimiter). */
import { signInLimitMessages } from '../../contract/account-texts.js';
import { TooManyRequestsError } from '../errors.js';
import type { RateDecision, RateLimiter, RateReservation, RateRule, Tokens } from './ports.js';

export const LOGIN_FAILURE_WINDOW_MINUTES = 15;
/** Failed logins per e-mail: at most 5 per 15 minutes, then 429 until the window ends. */
export const loginFailureRules: readonly RateRule[] = [{ windowSeconds: LOGIN_FAILURE_WINDOW_MINUTES * 60, max: 5 }];
/**
 * Failed logins per client address, whatever the e-mail: at most 100 per 15 minutes (issue 28:
 * one client spread 2,000 logins over 200 e-mails and got 1,000 password checks in 38 s). Far
 * above what the people behind one office or school address mistype.
 */
export const LOGIN_CLIENT_FAILURE_MAX = 100;
export const loginClientFailureRules: readonly RateRule[] = [{ windowSeconds: LOGIN_FAILURE_WINDOW_MINUTES * 60, max: LOGIN_CLIENT_FAILURE_MAX }];
/** Code e-mails per e-mail address and purpose: at most 1 per 30 s and 5 per hour. */
export const codeEmailRules: readonly RateRule[] = [
  { windowSeconds: 30, max: 1 },
  { windowSeconds: 3600, max: 5 },
];

export const RATE_ACTIONS = {
  loginFailure: 'login-failure',
  loginClientFailure: 'login-client-failure',
  sendVerification: 'send-verification',
  sendPasswordReset: 'send-password-reset',
} as const;

export const TOO_MANY_LOGINS = signInLimitMessages.tooManyLogins(LOGIN_FAILURE_WINDOW_MINUTES);
export const TOO_MANY_LOGINS_FROM_CLIENT = signInLimitMessages.tooManyLoginsFromClient(LOGIN_FAILURE_WINDOW_MINUTES);

/** What the AWS WAF answers (429) to an address over its sign-in request rate (infra/lib/edge.ts). */
export const TOO_MANY_SIGN_IN_REQUESTS = signInLimitMessages.tooManySignInRequests;

/** The rate limiter's key of a client address (the other keys are e-mails, which hold an '@'). */
export const clientRateKey = (address: string) => `client:${address}`;

export function throwIfLimited<D extends RateDecision>(
  decision: D,
  message: (retryAfterSeconds: number) => string,
): asserts decision is Extract<D, { allowed: true }> {
  if (!decision.allowed) throw new TooManyRequestsError(message(decision.retryAfterSeconds), decision.retryAfterSeconds);
}

/** Seconds under a minute, else whole minutes; never "1 seconds" (one text per unit, so the UI can translate it). */
export const tooManyCodeEmails = (retryAfterSeconds: number) =>
  retryAfterSeconds < 60
    ? signInLimitMessages.codeEmailsSeconds(Math.max(2, retryAfterSeconds))
    : signInLimitMessages.codeEmailsMinutes(Math.max(2, Math.ceil(retryAfterSeconds / 60)));

/**
 * A password check under the failed-login throttles: the attempt is counted (atomically, only
 * while under the limit) for the e-mail and, when given, for the client address before the
 * password is checked, so parallel guesses cannot get more than either budget through; a right
 * password, or a check that could not run, is un-counted. An attempt one budget refuses counts
 * against neither (the e-mail's is given back when the client's is spent).
 */
export async function checkPasswordThrottled(
  rateLimiter: RateLimiter,
  email: string,
  check: () => Promise<Tokens | null>,
  client?: string,
): Promise<Tokens | null> {
  const attempt = await rateLimiter.reserve(RATE_ACTIONS.loginFailure, email, loginFailureRules);
  throwIfLimited(attempt, () => TOO_MANY_LOGINS);
  const taken: Extract<RateReservation, { allowed: true }>[] = [attempt];
  // A lost give-back only leaves one extra failure counted: never worth failing a good sign-in.
  const giveBack = () => Promise.all(taken.map((t) => t.release().catch(() => undefined)));
  let tokens: Tokens | null;
  try {
    if (client) {
      const fromClient = await rateLimiter.reserve(RATE_ACTIONS.loginClientFailure, clientRateKey(client), loginClientFailureRules);
      throwIfLimited(fromClient, () => TOO_MANY_LOGINS_FROM_CLIENT);
      taken.push(fromClient);
    }
    tokens = await check();
  } catch (error) {
    await giveBack();
    throw error;
  }
  if (tokens) await giveBack();
  return tokens;
}
