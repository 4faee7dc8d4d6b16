/**
 * Cognito custom-auth triggers for Google sign-in in AWS (CUSTOM_AUTH flow, see
 * adapters/cognito.ts signInWithGoogle). The API sends the Google ID token as the challenge
 * ANSWER; the verify trigger checks it again with the same verifier as the API (signature
 * against GOOGLE_JWKS_URL, audience GOOGLE_CLIENT_ID, issuer, expiry, email_verified) and that
 * its e-mail is the user's, so Cognito only issues tokens for a credential Google signed.
 * These functions need GOOGLE_CLIENT_ID and GOOGLE_JWKS_URL in their environment.
 */
import type {
  CreateAuthChallengeTriggerEvent,
  DefineAuthChallengeTriggerEvent,
  VerifyAuthChallengeResponseTriggerEvent,
} from 'aws-lambda';
import { googleVerifier } from '../composition/google.js';
import type { GoogleTokenVerifier } from '../domain/auth/ports.js';
import { logger } from '../adapters/logger.js';

export const CHALLENGE_METADATA = 'GOOGLE_ID_TOKEN';

/** One custom challenge; tokens once it was answered correctly; anything else fails. */
export async function defineAuthChallenge(event: DefineAuthChallengeTriggerEvent): Promise<DefineAuthChallengeTriggerEvent> {
  const sessions = event.request.session ?? [];
  const last = sessions[sessions.length - 1];
  if (sessions.length === 0) {
    event.response.challengeName = 'CUSTOM_CHALLENGE';
    event.response.issueTokens = false;
    event.response.failAuthentication = false;
  } else if (
    sessions.length === 1 &&
    last?.challengeName === 'CUSTOM_CHALLENGE' &&
    last.challengeMetadata === CHALLENGE_METADATA &&
    last.challengeResult === true
  ) {
    event.response.issueTokens = true;
    event.response.failAuthentication = false;
  } else {
    event.response.issueTokens = false;
    event.response.failAuthentication = true;
  }
  return event;
}

/** Nothing secret to send: the answer is the Google credential the caller already has. */
export async function createAuthChallenge(event: CreateAuthChallengeTriggerEvent): Promise<CreateAuthChallengeTriggerEvent> {
  if (event.request.challengeName === 'CUSTOM_CHALLENGE') {
    event.response.publicChallengeParameters = { type: CHALLENGE_METADATA };
    event.response.privateChallengeParameters = {};
    event.response.challengeMetadata = CHALLENGE_METADATA;
  }
  return event;
}

export function makeVerifyAuthChallengeResponse(verifier: () => GoogleTokenVerifier) {
  return async (event: VerifyAuthChallengeResponseTriggerEvent): Promise<VerifyAuthChallengeResponseTriggerEvent> => {
    const userEmail = (event.request.userAttributes?.email ?? '').toLowerCase();
    let correct = false;
    try {
      const google = await verifier().verify(event.request.challengeAnswer ?? '');
      correct = Boolean(userEmail) && google.email.toLowerCase() === userEmail;
    } catch {
      correct = false;
    }
    if (!correct) logger.warn('Google challenge answer rejected', { userName: event.userName });
    event.response.answerCorrect = correct;
    return event;
  };
}

export const verifyAuthChallengeResponse = makeVerifyAuthChallengeResponse(googleVerifier);
