/**
 * GoogleTokenVerifier with jose: the ID token's signature against the JWKS at config
 * GOOGLE_JWKS_URL (Google's in production, a fake served by the tests), audience
 * GOOGLE_CLIENT_ID, issuer accounts.google.com, expiry, and a verified e-mail.
 */
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { UnauthorizedError, ValidationError } from '../domain/errors.js';
import type { GoogleIdentity, GoogleTokenVerifier } from '../domain/auth/ports.js';
import { authMessages } from '../contract/account-texts.js';
import { GOOGLE_LOGIN_FAILED } from './cognito.js';

export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

export class JoseGoogleTokenVerifier implements GoogleTokenVerifier {
  private readonly keys: JWTVerifyGetKey;

  constructor(
    jwksUrl: string,
    private readonly clientId: string,
  ) {
    this.keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 });
  }

  async verify(credential: string): Promise<GoogleIdentity> {
    if (!this.clientId) throw new ValidationError(authMessages.googleNotConfigured);
    let payload;
    try {
      ({ payload } = await jwtVerify(credential, this.keys, {
        audience: this.clientId,
        issuer: GOOGLE_ISSUERS,
        algorithms: ['RS256'],
        clockTolerance: 5,
        requiredClaims: ['exp', 'iat', 'sub', 'email'],
      }));
    } catch {
      throw new UnauthorizedError(GOOGLE_LOGIN_FAILED);
    }
    const verified = payload.email_verified === true || payload.email_verified === 'true';
    if (typeof payload.email !== 'string' || !verified || typeof payload.sub !== 'string') {
      throw new UnauthorizedError(GOOGLE_LOGIN_FAILED);
    }
    return {
      email: payload.email.toLowerCase(),
      googleSub: payload.sub,
      ...(typeof payload.name === 'string' ? { name: payload.name } : {}),
    };
  }
}
