/** AvatarStore over the uploads bucket: S3 PutObject and presigned GET URLs. */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { AvatarUrlSigner } from '../domain/auth/ports.js';
import type { AvatarStore } from '../domain/account/ports.js';

/** Presigned avatar links live this long; /api/me hands out fresh ones. */
export const AVATAR_URL_SECONDS = 3600;

export class S3UrlSigner implements AvatarUrlSigner {
  constructor(
    protected readonly client: S3Client,
    protected readonly bucket: string,
  ) {}

  urlFor(key: string): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: AVATAR_URL_SECONDS });
  }
}

export class S3AvatarStore extends S3UrlSigner implements AvatarStore {
  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        CacheControl: 'private, max-age=3600',
      }),
    );
  }
}
