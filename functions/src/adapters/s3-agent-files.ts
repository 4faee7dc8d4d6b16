/**
 * Agent documents in the uploads bucket, through presigned URLs only (see s3-presigner.ts:
 * no S3 client in the API bundles). The browser POSTs documents itself with a signed form
 * policy; the function HEADs, copies, PUTs small files and DELETEs with presigned links.
 */
import type { AgentFileObjects, PresignedPost, PresignedRequest } from '../domain/agents/repository.js';
import type { S3Presigner } from './s3-presigner.js';
import { s3Failure } from './s3-failure.js';

/** Upload links stay valid long enough for 50 MB on a slow connection. */
export const UPLOAD_URL_SECONDS = 3600;
/** Download links are used right away by the browser. */
export const DOWNLOAD_URL_SECONDS = 300;

/** Content-Disposition: attachment with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / 5987). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '_').trim() || 'download';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export class S3AgentFiles implements AgentFileObjects {
  constructor(
    private readonly presigner: S3Presigner,
    private readonly now: () => number = Date.now,
  ) {}

  private expiresAt(seconds: number): string {
    return new Date(this.now() + seconds * 1000).toISOString();
  }

  async uploadRequest(key: string, contentType: string, maxBytes: number): Promise<PresignedPost> {
    const expiresAt = this.expiresAt(UPLOAD_URL_SECONDS);
    const post = await this.presigner.postPolicy(key, { contentType, minBytes: 1, maxBytes, expiresInSeconds: UPLOAD_URL_SECONDS });
    return { ...post, expiresAt };
  }

  async copy(sourceKey: string, key: string): Promise<void> {
    const { url, headers } = await this.presigner.copyRequest(sourceKey, key);
    const response = await fetch(url, { method: 'PUT', headers });
    const body = await response.text();
    // A copy can fail after S3 answered 200: the error is then in the body.
    if (!response.ok || body.includes('<Error>')) throw s3Failure(`Copy of a document in S3 failed with HTTP ${response.status}`, response);
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const response = await fetch(await this.presigner.putUrl(key), { method: 'PUT', body: bytes, headers: { 'content-type': contentType } });
    // S3 answers errors as XML; keep the status only (no internals reach the client).
    if (!response.ok) throw s3Failure(`Document upload to S3 failed with HTTP ${response.status}`, response);
  }

  async head(key: string): Promise<{ size: number } | null> {
    const response = await fetch(await this.presigner.headUrl(key), { method: 'HEAD' });
    // Without s3:ListBucket (not granted), S3 answers a missing object with 403 instead of 404.
    if (response.status === 404 || response.status === 403) return null;
    if (!response.ok) throw s3Failure(`HEAD of a document in S3 failed with HTTP ${response.status}`, response);
    return { size: Number(response.headers.get('content-length') ?? 0) };
  }

  async delete(key: string): Promise<void> {
    // S3 may answer 500/503 (SlowDown) to a burst of deletes (an agent with many documents); s3rver
    // does for parallel deletes under one prefix. Both are worth a short retry.
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(await this.presigner.deleteUrl(key), { method: 'DELETE' });
      if (response.ok || response.status === 404) return;
      if (response.status < 500 || attempt >= 3) throw s3Failure(`Delete of a document in S3 failed with HTTP ${response.status}`, response);
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }

  async downloadRequest(key: string, fileName: string, contentType: string): Promise<PresignedRequest> {
    const expiresAt = this.expiresAt(DOWNLOAD_URL_SECONDS);
    const url = await this.presigner.downloadUrl(
      key,
      { contentDisposition: attachmentDisposition(fileName), contentType },
      { expiresInSeconds: DOWNLOAD_URL_SECONDS },
    );
    return { url, headers: {}, expiresAt };
  }
}
