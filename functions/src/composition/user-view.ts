/** What every route group that answers with a `User` needs: the profile table and avatar links. */
import { config } from '../config.js';
import { S3Presigner } from '../adapters/s3-presigner.js';
import { once } from '../lib/once.js';
import { tableDeps } from './table.js';

/** Presigned links live this long; /api/me hands out fresh avatar links. */
const PRESIGNED_URL_SECONDS = 3600;

export const uploadsPresigner = once(() => {
  const c = config();
  return new S3Presigner({
    bucket: c.UPLOADS_BUCKET,
    region: c.AWS_REGION,
    endpoint: c.S3_ENDPOINT,
    expiresInSeconds: PRESIGNED_URL_SECONDS,
  });
});

export function userViewDeps() {
  return { ...tableDeps(), avatars: uploadsPresigner() };
}
