import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../../config.js';
import { once } from '../../lib/once.js';

export const s3Client = once(() => {
  const { AWS_REGION, S3_ENDPOINT } = config();
  // s3rver only understands path-style addressing.
  return new S3Client({ region: AWS_REGION, endpoint: S3_ENDPOINT, forcePathStyle: Boolean(S3_ENDPOINT) });
});
