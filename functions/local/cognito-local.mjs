/**
 * Starts cognito-local (the local Cognito) with the one admin call the product needs that it
 * lacks: AdminUserGlobalSignOut (logout, password change and reset sign a user out everywhere).
 * As in Cognito, it revokes every refresh token the user holds; cognito-local keeps them on the
 * user (RefreshTokens) and REFRESH_TOKEN_AUTH answers NotAuthorizedException for one it no
 * longer lists. Access tokens stay valid until they expire, as API Gateway's JWT authorizer
 * does not ask Cognito about revocation either. Relies on cognito-local 5.x internals (the
 * mutable Targets table the router reads); the integration tests of logout cover it.
 */
import { createRequire } from 'node:module';

// cognito-local is CommonJS: patch the very module instance its router reads.
const require = createRequire(import.meta.url);
const { Targets } = require('cognito-local/lib/targets/targets');
const { UserNotFoundError } = require('cognito-local/lib/errors');

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
