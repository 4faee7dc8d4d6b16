/**
 * A fake Google identity provider for tests: a loopback HTTP server serving a JWKS with a
 * fresh RS256 key, and a helper that mints Google-shaped ID tokens signed by that key.
 *
 * The API verifies Google credentials against config GOOGLE_JWKS_URL; the integration setup
 * points it at `jwksUrl` and hands `privateJwk` to the tests so they can sign credentials
 * exactly as Google would (signature, audience, issuer, expiry all really checked).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID, type JsonWebKey } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

export const GOOGLE_ISSUER = 'https://accounts.google.com';
export const FAKE_GOOGLE_CLIENT_ID = 'agentdesk-test.apps.googleusercontent.com';

export interface FakeGoogle {
  jwksUrl: string;
  clientId: string;
  privateJwk: JsonWebKey;
  issuer: string;
  stop(): Promise<void>;
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' } as JsonWebKey;

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/oauth2/v3/certs') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' });
      res.end(JSON.stringify({ keys: [publicJwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    clientId: FAKE_GOOGLE_CLIENT_ID,
    privateJwk,
    issuer: GOOGLE_ISSUER,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export interface GoogleClaims {
  email: string;
  /** Defaults: the fake client id, Google's issuer, email_verified true, valid for an hour. */
  aud?: string;
  iss?: string;
  sub?: string;
  name?: string;
  email_verified?: boolean;
  /** Epoch seconds. */
  exp?: number;
  iat?: number;
  picture?: string;
}

/** Sign a Google-shaped ID token with the fake provider's private key (or any other key). */
export async function mintGoogleIdToken(privateJwk: JsonWebKey | string, claims: GoogleClaims): Promise<string> {
  const jwk = (typeof privateJwk === 'string' ? JSON.parse(privateJwk) : privateJwk) as JsonWebKey & { kid?: string };
  const key = await importJWK(jwk as JWK, 'RS256');
  const now = Math.floor(Date.now() / 1000);
  const { aud, iss, sub, exp, iat, ...rest } = claims;
  return new SignJWT({ email_verified: true, ...rest })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' })
    .setIssuer(iss ?? GOOGLE_ISSUER)
    .setAudience(aud ?? FAKE_GOOGLE_CLIENT_ID)
    .setSubject(sub ?? `google-${claims.email}`)
    .setIssuedAt(iat ?? now)
    .setExpirationTime(exp ?? now + 3600)
    .sign(key);
}

/** A private key the fake provider does not publish: tokens signed with it must be rejected. */
export async function foreignPrivateJwk(kid?: string): Promise<JsonWebKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), ...(kid ? { kid } : {}), alg: 'RS256' } as JsonWebKey;
}
