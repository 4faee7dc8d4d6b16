/** Wires the auth group (register, login, refresh, Google, reset) to its adapters. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoCodeStore } from '../adapters/dynamo/codes.js';
import { DynamoMembershipDirectory } from '../adapters/dynamo/memberships.js';
import { RESET_RESPONSE_FLOOR_MS, createSignInService } from '../domain/auth/service.js';
import { once } from '../lib/once.js';
import { googleVerifier } from './google.js';
import { identityDeps } from './identity.js';
import { userViewDeps } from './user-view.js';

export const signInService = once(() =>
  createSignInService({
    ...userViewDeps(),
    ...identityDeps(),
    codes: new DynamoCodeStore(documentClient(), config().TABLE_NAME),
    google: googleVerifier(),
    memberships: new DynamoMembershipDirectory(documentClient(), config().TABLE_NAME),
    resetResponseFloorMs: RESET_RESPONSE_FLOOR_MS,
  }),
);
