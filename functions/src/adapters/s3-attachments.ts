/**
 * Owners' attachments in the uploads bucket (issue 31), through presigned requests only: the
 * browser's signed form upload to the staging key (the file name kept as the object's
 * x-amz-meta-filename, URI-encoded: header values are ASCII), its HEAD, and our copies through
 * the media objects (s3-media.ts: encrypted, tagged for retention like customers' media).
 */
import type { AttachmentStore, StagedAttachment } from '../domain/conversations/attachments.js';
import type { PresignedPost } from '../domain/agents/repository.js';
import { MediaTooLargeError, type MediaObjects } from '../domain/whatsapp/media/ports.js';
import { UPLOAD_URL_SECONDS } from './s3-agent-files.js';
import { s3Failure } from './s3-failure.js';
import type { S3Presigner } from './s3-presigner.js';

const FILE_NAME_META = 'filename';

/** The stored file name back from its metadata header ('' when absent or not ours). */
function decodedName(header: string | null): string {
  if (!header) return '';
  try {
    return decodeURIComponent(header);
  } catch {
    return '';
  }
}

export class S3Attachments implements AttachmentStore {
  constructor(
    private readonly presigner: S3Presigner,
    private readonly media: Pick<MediaObjects, 'get' | 'putStream' | 'delete'>,
    private readonly fetchFn: typeof fetch = fetch,
    private readonly now: () => number = Date.now,
  ) {}

  async uploadRequest(key: string, options: { contentType: string; maxBytes: number; fileName: string }): Promise<PresignedPost> {
    const post = await this.presigner.postPolicy(key, {
      contentType: options.contentType,
      minBytes: 1,
      maxBytes: options.maxBytes,
      expiresInSeconds: UPLOAD_URL_SECONDS,
      metadata: { [FILE_NAME_META]: encodeURIComponent(options.fileName) },
    });
    return { ...post, expiresAt: new Date(this.now() + UPLOAD_URL_SECONDS * 1000).toISOString() };
  }

  async staged(key: string): Promise<StagedAttachment | null> {
    const response = await this.fetchFn(await this.presigner.headUrl(key), { method: 'HEAD' });
    // Without s3:ListBucket (not granted), S3 answers a missing object with 403 instead of 404.
    if (response.status === 404 || response.status === 403) return null;
    if (!response.ok) throw s3Failure(`HEAD of an attachment in S3 failed with HTTP ${response.status}`, response);
    return {
      size: Number(response.headers.get('content-length') ?? 0),
      contentType: response.headers.get('content-type') ?? '',
      fileName: decodedName(response.headers.get(`x-amz-meta-${FILE_NAME_META}`)),
    };
  }

  async read(key: string, maxBytes: number): Promise<Uint8Array | 'too_large' | null> {
    try {
      return await this.media.get(key, maxBytes);
    } catch (error) {
      if (error instanceof MediaTooLargeError) return 'too_large';
      throw error;
    }
  }

  async keep(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    // The bytes already read, handed on without a copy.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    await this.media.putStream(key, body, { contentType, contentLength: bytes.byteLength, maxBytes: bytes.byteLength });
  }

  delete(key: string): Promise<void> {
    return this.media.delete(key);
  }
}
