/**
 * Starts cognito-local (the local Cognito) with the one admin call the product needs that it
 * lacks: AdminUserGlobalSignOut (logout, password change and reset sign a user out everywhere).
 * As in Cognito, it revokes every refresh token the user holds; cognito-local keeps them on the
 * user (RefreshTokens) and REFRESH_TOKEN_AUTH answers NotAuthorizedException for one it no
 * longer lists. Access tokens stay valid until they expire (5 minutes, the app client's
 * validity), as API Gateway's JWT authorizer does not ask Cognito about revocation either.
 *
 * Local only, not an AWS call: LocalSetClockOffset {OffsetMs} moves the clock cognito-local
 * issues tokens by (iat/exp), so the local runtime's session clock (session-clock.ts, POST
 * /_local/clock) can let tokens expire without waiting. Relies on cognito-local 5.x internals (the
 * mutable Targets table the router reads, the DateClock every service shares); the integration
 * tests of sessions cover them.
 *
 * Pre-token generation as Cognito's V2_0 trigger event (issue 32): cognito-local 5 sends a V1
 * event (version '0') and applies only `claimsOverrideDetails`, to the ID token. Here the event says
 * version '2' with the V2 response shape, and the trigger's `claimsAndScopeOverrideDetails` is
 * applied to both tokens: the ID token through cognito-local's own override code, the access token
 * re-signed with cognito-local's key (same iat/exp/iss). Reserved claims are never overridden, as
 * in Cognito. The trigger runs behind the local Lambda endpoint (lambda-endpoint.ts), named in
 * .cognito/config.json by startCognito.
 */
import { createRequire } from 'node:module';

// cognito-local is CommonJS: patch the very module instance its router reads.
const require = createRequire(import.meta.url);
const { Targets } = require('cognito-local/lib/targets/targets');
const { InvalidParameterError, UserNotFoundError } = require('cognito-local/lib/errors');
const { DateClock } = require('cognito-local/lib/services/clock');
const { LambdaService } = require('cognito-local/lib/services/lambda');
const { JwtTokenGenerator } = require('cognito-local/lib/services/tokenGenerator');
const jwt = require('jsonwebtoken');
const signingKey = require('cognito-local/lib/keys/cognitoLocal.private.json');

let clockOffsetMs = 0;
DateClock.prototype.get = () => new Date(Date.now() + clockOffsetMs);

Targets.LocalSetClockOffset = () => async (_ctx, req) => {
  if (!Number.isSafeInteger(req?.OffsetMs) || req.OffsetMs < 0) throw new InvalidParameterError('OffsetMs must be a whole number of ms, 0 or more');
  clockOffsetMs = req.OffsetMs;
  return { OffsetMs: clockOffsetMs };
};

if (!Targets.AdminUserGlobalSignOut) {
  Targets.AdminUserGlobalSignOut =
    ({ cognito }) =>
    async (ctx, req) => {
      const userPool = await cognito.getUserPool(ctx, req.UserPoolId);
      const user = await userPool.getUserByUsername(ctx, req.Username);
      if (!user) throw new UserNotFoundError();
      await userPool.saveUser(ctx, { ...user, RefreshTokens: [] });
      return {};
    };
}

// Cognito's reserved claims (the list cognito-local applies to the ID token): no trigger changes them.
const RESERVED_CLAIMS = new Set(['acr', 'amr', 'aud', 'at_hash', 'auth_time', 'azp', 'client_id', 'cognito:username', 'event_id', 'exp', 'iat', 'identities', 'iss', 'jti', 'nbf', 'nonce', 'origin_jti', 'scope', 'sub', 'token_use', 'username']);

const createLambdaEvent = LambdaService.prototype.createLambdaEvent;
LambdaService.prototype.createLambdaEvent = function (event) {
  const lambdaEvent = createLambdaEvent.call(this, event);
  if (!String(event.triggerSource).startsWith('TokenGeneration_')) return lambdaEvent;
  return {
    ...lambdaEvent,
    version: '2',
    request: { ...lambdaEvent.request, groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [], preferredRole: null }, scopes: ['aws.cognito.signin.user.admin'] },
    response: { claimsAndScopeOverrideDetails: null },
  };
};

/** A token's claims with a V2 `…TokenGeneration` applied (reserved claims untouched). */
function applyOverrides(claims, overrides) {
  const suppress = new Set((overrides?.claimsToSuppress ?? []).filter((c) => !RESERVED_CLAIMS.has(c)));
  const add = Object.entries(overrides?.claimsToAddOrOverride ?? {}).filter(([c]) => !RESERVED_CLAIMS.has(c));
  return Object.fromEntries([...Object.entries(claims), ...add].filter(([c]) => !suppress.has(c)));
}

const generate = JwtTokenGenerator.prototype.generate;
JwtTokenGenerator.prototype.generate = async function (...args) {
  // One view of this generator per call (calls run concurrently): its trigger hands the V2 ID
  // overrides to cognito-local's own code and keeps the access overrides for below.
  let details = null;
  const triggers = this.triggers;
  const call = Object.create(this);
  call.triggers = {
    enabled: (name) => triggers.enabled(name),
    preTokenGeneration: async (ctx, req) => {
      const response = await triggers.preTokenGeneration(ctx, req);
      details = response?.claimsAndScopeOverrideDetails ?? null;
      return { claimsOverrideDetails: details?.idTokenGeneration ?? response?.claimsOverrideDetails };
    },
  };
  const tokens = await generate.apply(call, args);
  const access = details?.accessTokenGeneration;
  if (!access) return tokens;
  // The payload keeps iat, exp and iss; only the claims change.
  const claims = applyOverrides(jwt.decode(tokens.AccessToken), access);
  return { ...tokens, AccessToken: jwt.sign(claims, signingKey.pem, { algorithm: 'RS256', keyid: 'CognitoLocal' }) };
};

require('cognito-local/lib/bin/start.js');
