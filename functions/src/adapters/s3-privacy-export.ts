/**
 * A person's export (issue 33) as a ZIP streamed to the uploads bucket: yazl writes the archive as
 * entries are added, and its output goes up as an S3 multipart upload through presigned requests
 * (s3-presigner.ts: no S3 client in the worker), one PART_BYTES part at a time. Memory stays
 * bounded: a part buffer and the entry being written (each entry, a JSON file as a media object or
 * a recording, is piped and awaited until the archive has taken it); the ZIP is never held whole.
 *
 * CSV files are UTF-8 with a BOM and ';' (what Excel in Spain opens), cells quoted as the contacts
 * export quotes them (formula-safe).
 */
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { csvCell, csvDocument } from '../domain/contacts/csv.js';
import type { ExportFile } from '../domain/privacy/jobs.js';
import type { S3Presigner } from './s3-presigner.js';
import { s3Failure } from './s3-failure.js';

/** S3's smallest part (but the last) is 5 MiB. */
const PART_BYTES = 8 * 1024 * 1024;
const encoder = new TextEncoder();

const xmlText = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]+)</${tag}>`).exec(xml)?.[1] ?? null;

class MultipartUpload {
  private uploadId: string | null = null;
  private readonly etags: string[] = [];

  constructor(
    private readonly presigner: S3Presigner,
    private readonly key: string,
  ) {}

  async begin(): Promise<void> {
    const response = await fetch(await this.presigner.multipartUrl('POST', this.key, { uploads: '' }), {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
    });
    const body = await response.text();
    if (!response.ok) throw s3Failure(`Starting the export's upload failed with HTTP ${response.status}`, response);
    this.uploadId = xmlText(body, 'UploadId');
    if (!this.uploadId) throw new Error("Starting the export's upload answered no upload id");
  }

  async part(bytes: Uint8Array): Promise<void> {
    const partNumber = this.etags.length + 1;
    const url = await this.presigner.multipartUrl('PUT', this.key, { partNumber: String(partNumber), uploadId: this.uploadId! });
    const response = await fetch(url, { method: 'PUT', body: bytes });
    await response.arrayBuffer();
    if (!response.ok) throw s3Failure(`Part ${partNumber} of the export failed with HTTP ${response.status}`, response);
    this.etags.push(response.headers.get('etag') ?? '');
  }

  async complete(): Promise<void> {
    const parts = this.etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</ETag></Part>`).join('');
    const response = await fetch(await this.presigner.multipartUrl('POST', this.key, { uploadId: this.uploadId! }), {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`,
    });
    const body = await response.text();
    // A completion can fail after S3 answered 200: the error is then in the body.
    if (!response.ok || body.includes('<Error>')) throw s3Failure(`Completing the export's upload failed with HTTP ${response.status}`, response);
  }

  async abort(): Promise<void> {
    if (!this.uploadId) return;
    const response = await fetch(await this.presigner.multipartUrl('DELETE', this.key, { uploadId: this.uploadId }), { method: 'DELETE' });
    await response.arrayBuffer();
  }
}

/** Opens the ZIP at `key`; its upload has begun when this resolves. */
export async function openS3ZipExport(presigner: S3Presigner, key: string, options: { readObject(key: string): Promise<AsyncIterable<Uint8Array> | null> }): Promise<ExportFile> {
  const upload = new MultipartUpload(presigner, key);
  await upload.begin();
  const zip = new ZipFile();
  let bytes = 0;
  // Takes the archive's output as it is made: a part is sent each PART_BYTES (the for-await pauses the archive meanwhile).
  const uploaded = (async () => {
    let chunks: Buffer[] = [];
    let buffered = 0;
    for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      buffered += chunk.length;
      bytes += chunk.length;
      if (buffered >= PART_BYTES) {
        const part = Buffer.concat(chunks);
        chunks = [];
        buffered = 0;
        await upload.part(part);
      }
    }
    if (buffered > 0 || bytes === 0) await upload.part(Buffer.concat(chunks));
    await upload.complete();
  })();
  // Seen at once when the upload fails, so an entry being piped does not wait for ever.
  let failure: unknown = null;
  const failed = uploaded.then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => {
      failure = error;
      throw error;
    },
  );
  failed.catch(() => undefined);
  const check = () => {
    if (failure) throw failure;
  };
  const mtime = new Date();

  /**
   * Every entry is piped and awaited until the archive took it: its output flows to the upload
   * (which pauses the archive while a part is sent), so a part writing faster than S3 takes it
   * waits instead of queueing entries in memory.
   */
  const addStream = async (path: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, compress: boolean) => {
    check();
    const through = new PassThrough();
    zip.addReadStream(through, path, { mtime, compress });
    await Promise.race([pipeline(Readable.from(body, { objectMode: false }), through), failed]);
  };
  const addBytes = (path: string, data: Uint8Array) => addStream(path, [Buffer.from(data.buffer, data.byteOffset, data.byteLength)], true);

  return {
    json: (path, value) => addBytes(path, encoder.encode(`${JSON.stringify(value, null, 2)}\n`)),
    text: (path, text) => addBytes(path, encoder.encode(text)),
    csv: (path, rows) => addBytes(path, encoder.encode(csvDocument(rows.map((row) => row.map((cell) => csvCell(cell === null ? '' : String(cell)))), ';'))),
    async object(path, objectKey) {
      const body = await options.readObject(objectKey);
      // An object the lifecycle already deleted is not in the export (nothing to add).
      // Already-compressed media gain nothing from deflate: stored.
      if (body) await addStream(path, body, false);
    },
    stream: (path, body) => addStream(path, body, false),
    async close() {
      check();
      zip.end();
      await uploaded;
      return { bytes };
    },
    async abort() {
      zip.outputStream.removeAllListeners();
      (zip.outputStream as Readable).destroy?.();
      await upload.abort().catch(() => undefined);
    },
  };
}

/** An object of the uploads bucket as a stream (presigned GET), or null when it is gone. */
export function uploadsObjectReader(presigner: S3Presigner) {
  return async (key: string): Promise<AsyncIterable<Uint8Array> | null> => {
    const response = await fetch(await presigner.urlFor(key));
    // Without s3:ListBucket, S3 answers a missing object with 403 rather than 404.
    if (response.status === 404 || response.status === 403) {
      await response.arrayBuffer().catch(() => undefined);
      return null;
    }
    if (!response.ok || !response.body) throw s3Failure(`Reading an object for the export failed with HTTP ${response.status}`, response);
    return response.body as unknown as AsyncIterable<Uint8Array>;
  };
}
