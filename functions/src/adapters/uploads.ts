/** AvatarStore over the uploads bucket, through presigned URLs (see s3-presigner.ts). */
import type { AvatarStore } from '../domain/account/ports.js';
import type { S3Presigner } from './s3-presigner.js';
import { s3Failure } from './s3-failure.js';

export class S3AvatarStore implements AvatarStore {
  constructor(private readonly presigner: S3Presigner) {}

  urlFor(key: string): Promise<string> {
    return this.presigner.urlFor(key);
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const response = await fetch(await this.presigner.putUrl(key), {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': contentType, 'cache-control': 'private, max-age=3600' },
    });
    // S3 answers errors as XML; keep the status only (no internals reach the client).
    if (!response.ok) throw s3Failure(`Avatar upload to S3 failed with HTTP ${response.status}`, response);
  }
}
