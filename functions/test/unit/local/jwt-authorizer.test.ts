import { beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, type JWK } from 'jose';
import { authorize, type AuthorizerConfig } from '../../../local/jwt-authorizer.js';
import { setTokenClock } from '../../../src/auth/cognito-jwt.js';

const issuer = 'http://127.0.0.1:9229/local_pool';
const clientId = 'web-client';
const now = () => Math.floor(Date.now() / 1000);
let config: AuthorizerConfig;
let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  signingKey = privateKey;
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  config = { issuer, audience: [clientId], keys: createLocalJWKSet({ keys: [jwk] }) };
});

function token(claims: Record<string, unknown>, header: { kid?: string } = { kid: 'k1' }) {
  return new SignJWT({ iss: issuer, iat: now() - 5, exp: now() + 600, ...claims })
    .setProtectedHeader({ alg: 'RS256', ...header })
    .sign(signingKey);
}

describe('local JWT authorizer (API Gateway HTTP API semantics)', () => {
  it('accepts an access token whose client_id is the audience, with or without "Bearer"', async () => {
    const jwt = await token({ sub: 'u1', client_id: clientId, scope: 'aws.cognito.signin.user.admin' });

    const withBearer = await authorize(`Bearer ${jwt}`, config);
    const bare = await authorize(jwt, config);

    expect(withBearer?.claims.sub).toBe('u1');
    expect(withBearer?.scopes).toEqual(['aws.cognito.signin.user.admin']);
    expect(bare?.claims.sub).toBe('u1');
  });

  it('hands claims over as strings, arrays as "[a b]"', async () => {
    const jwt = await token({ sub: 'u1', aud: clientId, email_verified: true, 'cognito:groups': ['admin', 'staff'] });

    const result = await authorize(`Bearer ${jwt}`, config);

    expect(result?.claims).toMatchObject({ email_verified: 'true', 'cognito:groups': '[admin staff]', aud: clientId });
    expect(typeof result?.claims.exp).toBe('string');
  });

  it('checks aud when present and ignores client_id then', async () => {
    const jwt = await token({ sub: 'u1', aud: 'someone-else', client_id: clientId });

    expect(await authorize(`Bearer ${jwt}`, config)).toBeNull();
  });

  it.each([
    ['another client', { client_id: 'other' }, undefined],
    ['another issuer', { client_id: clientId, iss: 'http://127.0.0.1:9229/other_pool' }, undefined],
    ['an expired token', { client_id: clientId, exp: now() - 1 }, undefined],
    ['a token not valid yet (nbf)', { client_id: clientId, nbf: now() + 300 }, undefined],
    ['a token issued in the future (iat)', { client_id: clientId, iat: now() + 300 }, undefined],
    ['a token without exp', { client_id: clientId, exp: undefined }, undefined],
    ['a token without kid', { client_id: clientId }, {}],
    ['a token with an unknown kid', { client_id: clientId }, { kid: 'k2' }],
  ])('rejects %s', async (_name, claims, header) => {
    const jwt = await token(claims, header);

    expect(await authorize(`Bearer ${jwt}`, config)).toBeNull();
  });

  it('checks exp against the token clock, which the local session clock moves forward', async () => {
    const jwt = await token({ sub: 'u1', client_id: clientId, exp: now() + 300 });
    try {
      setTokenClock(() => Date.now() + 290_000);
      expect(await authorize(jwt, config)).not.toBeNull();
      setTokenClock(() => Date.now() + 310_000);
      expect(await authorize(jwt, config)).toBeNull();
    } finally {
      setTokenClock(() => Date.now());
    }
  });

  it('rejects a missing header, an empty bearer and garbage', async () => {
    expect(await authorize(undefined, config)).toBeNull();
    expect(await authorize('Bearer ', config)).toBeNull();
    expect(await authorize('Bearer abc.def.ghi', config)).toBeNull();
  });
});
