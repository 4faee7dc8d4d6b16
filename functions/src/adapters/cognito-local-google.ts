/**
 * Local-only Google sign-in (config RUNTIME=local). cognito-local has no CUSTOM_AUTH flow and
 * runs no custom-auth triggers, so this adapter keeps the IdentityProvider interface and signs a
 * Google user in another way:
 *
 * 1. The domain has already verified the Google ID token (signature against GOOGLE_JWKS_URL,
 *    audience GOOGLE_CLIENT_ID, issuer, expiry, email_verified) with the same verifier the AWS
 *    trigger uses; nothing reaches this adapter without that check.
 * 2. It sets a fresh random permanent password on the Google user's Cognito account
 *    (AdminSetUserPassword) and immediately signs in with it (InitiateAuth USER_PASSWORD_AUTH).
 *    The password is never stored, logged or returned; nobody knows it afterwards.
 * 3. The result is real cognito-local access and refresh tokens, checked by the local gateway
 *    exactly as the JWT authorizer checks Cognito's.
 *
 * Limits: the trust decision happens in the API, not inside the identity provider (in AWS Cognito
 * re-verifies the credential in its verify trigger); the trigger code itself is exercised only by
 * unit tests; a Google account's password is rotated on every Google sign-in (harmless: Google
 * accounts never sign in with a password, and the domain refuses Google sign-in for e-mails that
 * own a password account).
 */
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { UnauthorizedError } from '../domain/errors.js';
import type { Tokens } from '../domain/auth/ports.js';
import { randomPassword } from '../domain/auth/service.js';
import { CognitoIdentityProvider, GOOGLE_LOGIN_FAILED, tokenRequestError, tokensOf } from './cognito.js';

export class LocalCognitoIdentityProvider extends CognitoIdentityProvider {
  override async signInWithGoogle(email: string, _credential: string): Promise<Tokens> {
    const password = randomPassword();
    await this.setPassword(email, password);
    const out = await this.client
      .send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: this.settings.clientId,
          AuthParameters: { USERNAME: email, PASSWORD: password },
        }),
      )
      .catch((error: unknown) => {
        throw tokenRequestError(error);
      });
    const tokens = tokensOf(out.AuthenticationResult);
    if (!tokens) throw new UnauthorizedError(GOOGLE_LOGIN_FAILED);
    return tokens;
  }
}
