/** Wires the auth group's domain service to its adapters. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { sesClient } from '../adapters/aws/ses.js';
import { DynamoCodeStore } from '../adapters/dynamo/codes.js';
import { SesMailer } from '../adapters/mailer.js';
import { createAuthService } from '../domain/auth/service.js';
import { once } from '../lib/once.js';
import { googleVerifier } from './google.js';
import { sharedDeps } from './shared.js';

export const authService = once(() => {
  const c = config();
  return createAuthService({
    ...sharedDeps(),
    codes: new DynamoCodeStore(documentClient(), c.TABLE_NAME),
    mailer: new SesMailer(sesClient(), c.MAIL_FROM),
    google: googleVerifier(),
    // The auth group has no uploads access: its User answers omit avatarUrl (GET /api/me has it).
    resetResponseFloorMs: 700,
  });
});
