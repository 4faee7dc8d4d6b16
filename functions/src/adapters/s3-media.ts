/**
 * Customers' WhatsApp media and owners' attachments in the uploads bucket (issue 31), through
 * presigned requests only (s3-presigner.ts: no S3 client in the API and worker bundles).
 *
 * putStream sends the body to a presigned PUT as it arrives: sha256 and the byte count are taken
 * on the way, and the upload is aborted past maxBytes (S3 keeps nothing of an aborted PUT). A
 * presigned single PUT needs its Content-Length up front (S3 refuses a chunked body that is not
 * aws-chunked signed), so the length is the one declared (Meta's file_size or the download's
 * Content-Length); a body whose length is unknown is read into memory first, bounded by maxBytes
 * (never the case for Meta's media, which always declares its size; a multipart upload would need
 * an S3 client or a presigned link per 5 MB part for a path that does not occur).
 *
 * Every object is tagged with MEDIA_RETENTION_TAG, which the bucket's tag-based lifecycle rules (infra)
 * expire per retention. No encryption header is signed: the bucket's default encrypts each object with
 * the customer-managed data key (SSE-KMS, issue 33; an explicit AES256 would override it with SSE-S3,
 * and `aws:kms` without the key id would pick the aws/s3 key instead).
 */
import { createHash } from 'node:crypto';
import { WHATSAPP_MEDIA_PREFIX } from '../contract/whatsapp-media.js';
import { mediaRetentionTag, type RetentionReader } from '../domain/privacy/retention.js';
import { MediaIncompleteError, MediaTooLargeError, type MediaObjects } from '../domain/whatsapp/media/ports.js';
import { attachmentDisposition, S3AgentFiles } from './s3-agent-files.js';
import type { S3Presigner } from './s3-presigner.js';
import { s3Failure } from './s3-failure.js';

/** The retention tag every media object carries (S3 object tag `retention=default`); the lifecycle rules match on it. */
export const MEDIA_RETENTION_TAG = { key: 'retention', value: 'default' } as const;
/** Seconds a presigned PUT of a media body stays valid (a 100 MB document on a slow link). */
const PUT_URL_SECONDS = 900;

const mediaPutHeaders = (): Record<string, string> => ({
  'x-amz-tagging': `${MEDIA_RETENTION_TAG.key}=${MEDIA_RETENTION_TAG.value}`,
});

/** The account a media key belongs to (`whatsapp-media/{account}/{conversation}/{message}`), or null. */
export function mediaKeyAccount(key: string): string | null {
  if (!key.startsWith(WHATSAPP_MEDIA_PREFIX)) return null;
  const account = key.slice(WHATSAPP_MEDIA_PREFIX.length).split('/')[0];
  return account ? account : null;
}

/** Reads a stream whole, refusing it past `maxBytes` (the reader is cancelled: the rest is never read). */
async function readAll(body: ReadableStream<Uint8Array>, maxBytes: number, expected?: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new MediaTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  if (expected !== undefined && size !== expected) throw new MediaIncompleteError(expected, size);
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

export class S3MediaObjects implements MediaObjects {
  /** Deletes with S3AgentFiles' short retry on SlowDown. */
  private readonly files: S3AgentFiles;

  constructor(
    private readonly presigner: S3Presigner,
    private readonly fetchFn: typeof fetch = fetch,
    /** The account's retention (issue 33; the settings store's minute cache); none = `retention=default`. */
    private readonly retention?: RetentionReader,
  ) {
    this.files = new S3AgentFiles(presigner);
  }

  /**
   * The retention tag of a new object (issue 33): its account's media retention (`30d` … `730d`,
   * the account being the key's second segment), else `default`. Set when written: the lifecycle
   * rule of that tag deletes the object that many days later.
   */
  private async retentionTag(key: string): Promise<string> {
    const account = mediaKeyAccount(key);
    if (!this.retention || !account) return MEDIA_RETENTION_TAG.value;
    return mediaRetentionTag((await this.retention.get(account)).retention.media);
  }

  async putStream(
    key: string,
    body: ReadableStream<Uint8Array>,
    options: { contentType: string; contentLength?: number; maxBytes: number },
  ): Promise<{ size: number; sha256: string }> {
    const { maxBytes, contentLength } = options;
    if (contentLength !== undefined && contentLength > maxBytes) {
      await body.cancel().catch(() => undefined);
      throw new MediaTooLargeError(maxBytes);
    }
    const hash = createHash('sha256');
    let size = 0;
    if (contentLength === undefined) {
      const bytes = await readAll(body, maxBytes);
      hash.update(bytes);
      await this.put(key, bytes, options.contentType, bytes.byteLength);
      return { size: bytes.byteLength, sha256: hash.digest('hex') };
    }
    // The failure the counting stream raised (the PUT's own error then only says "aborted").
    let refused: Error | undefined;
    // The last chunk is held until the body has ended: the PUT cannot complete (and S3 store it)
    // before a body longer than declared has shown its extra bytes.
    let held: Uint8Array | undefined;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size > contentLength) {
            refused = new MediaTooLargeError(Math.min(contentLength, maxBytes));
            controller.error(refused);
            return;
          }
          hash.update(chunk);
          if (held) controller.enqueue(held);
          held = chunk;
        },
        flush(controller) {
          if (size !== contentLength) {
            refused = new MediaIncompleteError(contentLength, size);
            controller.error(refused);
            return;
          }
          if (held) controller.enqueue(held);
        },
      }),
    );
    try {
      await this.put(key, counted, options.contentType, contentLength);
    } catch (error) {
      if (refused) {
        // An aborted PUT stores nothing on S3; an emulator may keep a partial file: make sure.
        await this.delete(key).catch(() => undefined);
        throw refused;
      }
      throw error;
    }
    if (refused) {
      await this.delete(key).catch(() => undefined);
      throw refused;
    }
    return { size, sha256: hash.digest('hex') };
  }

  private async put(key: string, body: Uint8Array | ReadableStream<Uint8Array>, contentType: string, contentLength: number): Promise<void> {
    const tagging = { 'x-amz-tagging': `${MEDIA_RETENTION_TAG.key}=${await this.retentionTag(key)}` };
    const { url, headers } = await this.presigner.putRequest(key, { ...mediaPutHeaders(), ...tagging }, { expiresInSeconds: PUT_URL_SECONDS });
    const response = await this.fetchFn(url, {
      method: 'PUT',
      body,
      headers: { ...headers, 'content-type': contentType, 'content-length': String(contentLength) },
      // A stream body goes out as it is read (undici needs half duplex for it).
      ...(body instanceof Uint8Array ? {} : { duplex: 'half' }),
    } as RequestInit);
    await response.body?.cancel().catch(() => undefined);
    if (!response.ok) throw s3Failure(`Media upload to S3 failed with HTTP ${response.status}`, response);
  }

  async get(key: string, maxBytes: number): Promise<Uint8Array | null> {
    const response = await this.fetchFn(await this.presigner.urlFor(key));
    // Without s3:ListBucket (not granted), S3 answers a missing object with 403 instead of 404.
    if (response.status === 404 || response.status === 403) {
      await response.body?.cancel().catch(() => undefined);
      return null;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw s3Failure(`Media read from S3 failed with HTTP ${response.status}`, response);
    }
    const length = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(length) && length > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new MediaTooLargeError(maxBytes);
    }
    return readAll(response.body, maxBytes);
  }

  viewUrl(key: string, options: { seconds: number; fileName?: string; contentType?: string }): Promise<string> {
    return this.presigner.downloadUrl(
      key,
      { contentDisposition: options.fileName ? attachmentDisposition(options.fileName) : 'inline', ...(options.contentType ? { contentType: options.contentType } : {}) },
      { expiresInSeconds: options.seconds },
    );
  }

  async head(key: string): Promise<{ size: number; contentType: string } | null> {
    const response = await this.fetchFn(await this.presigner.headUrl(key), { method: 'HEAD' });
    if (response.status === 404 || response.status === 403) return null;
    if (!response.ok) throw s3Failure(`HEAD of a media object in S3 failed with HTTP ${response.status}`, response);
    return { size: Number(response.headers.get('content-length') ?? 0), contentType: response.headers.get('content-type') ?? 'application/octet-stream' };
  }

  delete(key: string): Promise<void> {
    return this.files.delete(key);
  }
}
