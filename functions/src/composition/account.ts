/** Wires the account group's domain service to its adapters. */
import { config } from '../config.js';
import { s3Client } from '../adapters/aws/s3.js';
import { S3AvatarStore } from '../adapters/uploads.js';
import { createAccountService } from '../domain/account/service.js';
import { once } from '../lib/once.js';
import { sharedDeps } from './shared.js';

export const accountService = once(() => {
  const avatars = new S3AvatarStore(s3Client(), config().UPLOADS_BUCKET);
  return createAccountService({ ...sharedDeps(), avatars });
});
