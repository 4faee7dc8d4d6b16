/**
 * The local runtime's session clock (issue 28): the "now" that the token checks use (the
 * gateway's JWT authorizer and the API authorizer, both src/auth/cognito-jwt.ts) and that
 * cognito-local issues tokens by (iat/exp, through the LocalSetClockOffset call its launcher
 * adds). POST /_local/clock moves both forward together, so a test or a developer can let a
 * 5-minute access token expire without waiting, while tokens issued afterwards are valid as usual.
 *
 * Only forward: a token issued on a later clock would be refused for its future `iat` if the
 * clock went back. Everything else (handlers, codes, rate windows) keeps the real time.
 */
import { setTokenClock } from '../src/auth/cognito-jwt.js';

/** The largest single step: a day (tokens live minutes, refresh tokens 30 days). */
export const MAX_ADVANCE_SECONDS = 86_400;

export interface SessionClock {
  /** Epoch ms on the session clock. */
  now(): number;
  offsetSeconds(): number;
  /** Moves the clock forward by a whole number of seconds (1..MAX_ADVANCE_SECONDS); cognito-local first. */
  advance(seconds: number): Promise<void>;
}

export function validClockStep(seconds: unknown): seconds is number {
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 && seconds <= MAX_ADVANCE_SECONDS;
}

async function setCognitoOffset(cognitoEndpoint: string, offsetMs: number): Promise<void> {
  const res = await fetch(cognitoEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.LocalSetClockOffset' },
    body: JSON.stringify({ OffsetMs: offsetMs }),
  });
  if (!res.ok) throw new Error(`cognito-local refused the clock offset: ${res.status} ${await res.text()}`);
}

/** Starts at the real time; from now on the token checks of this process read it. */
export function sessionClock(cognitoEndpoint: string): SessionClock {
  let offsetMs = 0;
  let pending = Promise.resolve();
  const clock: SessionClock = {
    now: () => Date.now() + offsetMs,
    offsetSeconds: () => offsetMs / 1000,
    advance(seconds) {
      if (!validClockStep(seconds)) return Promise.reject(new RangeError(`advanceSeconds must be a whole number from 1 to ${MAX_ADVANCE_SECONDS}`));
      // One step at a time. The checks move first: a token cognito-local issues on the new clock
      // must never meet a check still on the old one (its iat would be in the future).
      const step = pending.then(async () => {
        const before = offsetMs;
        offsetMs += seconds * 1000;
        try {
          await setCognitoOffset(cognitoEndpoint, offsetMs);
        } catch (error) {
          offsetMs = before;
          throw error;
        }
      });
      pending = step.catch(() => undefined);
      return step;
    },
  };
  setTokenClock(clock.now);
  return clock;
}
