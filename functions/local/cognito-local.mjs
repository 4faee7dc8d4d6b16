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
 */
import { createRequire } from 'node:module';

// cognito-local is CommonJS: patch the very module instance its router reads.
const require = createRequire(import.meta.url);
const { Targets } = require('cognito-local/lib/targets/targets');
const { InvalidParameterError, UserNotFoundError } = require('cognito-local/lib/errors');
const { DateClock } = require('cognito-local/lib/services/clock');

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

require('cognito-local/lib/bin/start.js');
