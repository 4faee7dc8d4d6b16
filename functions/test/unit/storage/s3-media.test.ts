/**
 * S3MediaObjects (issue 31) against a loopback HTTP server standing in for S3's presigned
 * endpoints: the body streams to the PUT with its declared length, server-side encryption and the
 * retention tag as signed headers; past the declared length or maxBytes the upload is aborted and
 * the key deleted; a body shorter than declared is refused; an unknown length is read first up to
 * maxBytes; get/head/viewUrl/delete over presigned links.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MEDIA_RETENTION_TAG, S3MediaObjects } from '../../../src/adapters/s3-media.js';
import { S3Presigner } from '../../../src/adapters/s3-presigner.js';
import { MediaIncompleteError, MediaTooLargeError } from '../../../src/domain/whatsapp/media/ports.js';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  bytes: number;
  aborted: boolean;
}

let server: Server;
let objects: S3MediaObjects;
let presigner: S3Presigner;
const seen: Seen[] = [];
const stored = new Map<string, Buffer>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const entry: Seen = { method: req.method ?? '', path: decodeURIComponent(url.pathname), query: url.searchParams, headers: req.headers, bytes: 0, aborted: false };
    seen.push(entry);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      entry.bytes += c.length;
      chunks.push(c);
    });
    req.on('aborted', () => (entry.aborted = true));
    req.on('end', () => {
      const key = entry.path.replace(/^\/bucket\//, '');
      if (req.method === 'PUT') {
        stored.set(key, Buffer.concat(chunks));
        res.writeHead(200).end();
      } else if (req.method === 'DELETE') {
        stored.delete(key);
        res.writeHead(204).end();
      } else if (!stored.has(key)) {
        res.writeHead(404).end();
      } else {
        const body = stored.get(key)!;
        res.writeHead(200, { 'content-type': 'audio/ogg', 'content-length': String(body.length) });
        res.end(req.method === 'HEAD' ? undefined : body);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  presigner = new S3Presigner({ bucket: 'bucket', region: 'eu-west-1', endpoint: `http://127.0.0.1:${port}`, expiresInSeconds: 60, credentials: async () => ({ accessKeyId: 'AKID', secretAccessKey: 'secret' }) });
  objects = new S3MediaObjects(presigner);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  stored.clear();
});

const stream = (...sizes: number[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const size of sizes) controller.enqueue(new Uint8Array(size).fill(7));
      controller.close();
    },
  });
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('S3MediaObjects.putStream', () => {
  it('streams the body with its length, hashed and counted, tagged by a signed header and left to the bucket default encryption (the data key, issue 33)', async () => {
    const result = await objects.putStream('whatsapp-media/u/c/m', stream(1000, 2000), { contentType: 'audio/ogg', contentLength: 3000, maxBytes: 16 * 1024 * 1024 });
    expect(result).toEqual({ size: 3000, sha256: createHash('sha256').update(Buffer.alloc(3000, 7)).digest('hex') });
    const put = seen.find((s) => s.method === 'PUT')!;
    expect(put.path).toBe('/bucket/whatsapp-media/u/c/m');
    expect(put.headers).toMatchObject({ 'content-length': '3000', 'content-type': 'audio/ogg', 'x-amz-tagging': 'retention=default' });
    // No encryption header: one (AES256, or aws:kms without the key id) would override the bucket's SSE-KMS default.
    expect(put.headers['x-amz-server-side-encryption']).toBeUndefined();
    // Signed as a header (S3 reads it only there), not hoisted into the query.
    expect(put.query.get('X-Amz-SignedHeaders')).toBe('host;x-amz-tagging');
    expect(MEDIA_RETENTION_TAG).toEqual({ key: 'retention', value: 'default' });
  });

  it('past the declared length: MediaTooLargeError, the upload never completes and the key is deleted', async () => {
    await expect(objects.putStream('k', stream(1000, 2000, 1), { contentType: 'audio/ogg', contentLength: 3000, maxBytes: 5000 })).rejects.toBeInstanceOf(MediaTooLargeError);
    await settle();
    expect(seen.some((s) => s.method === 'PUT' && !s.aborted && s.bytes === 3000 && stored.has('k'))).toBe(false);
    expect(seen.some((s) => s.method === 'DELETE')).toBe(true);
    expect(stored.has('k')).toBe(false);
  });

  it('a declared length over maxBytes is refused before anything is sent', async () => {
    await expect(objects.putStream('k', stream(10), { contentType: 'audio/ogg', contentLength: 6000, maxBytes: 5000 })).rejects.toBeInstanceOf(MediaTooLargeError);
    expect(seen).toHaveLength(0);
  });

  it('a body shorter than declared: MediaIncompleteError, nothing kept', async () => {
    await expect(objects.putStream('k', stream(1000), { contentType: 'audio/ogg', contentLength: 3000, maxBytes: 5000 })).rejects.toBeInstanceOf(MediaIncompleteError);
    await settle();
    expect(stored.has('k')).toBe(false);
  });

  it('an unknown length is read first, up to maxBytes', async () => {
    expect((await objects.putStream('k', stream(10, 20), { contentType: 'audio/ogg', maxBytes: 100 })).size).toBe(30);
    expect(seen.find((s) => s.method === 'PUT')!.headers['content-length']).toBe('30');
    await expect(objects.putStream('k2', stream(60, 60), { contentType: 'audio/ogg', maxBytes: 100 })).rejects.toBeInstanceOf(MediaTooLargeError);
    expect(seen.filter((s) => s.method === 'PUT')).toHaveLength(1);
  });
});

describe('S3MediaObjects: get, head, viewUrl, delete', () => {
  it('reads a small object whole, refuses one over maxBytes, null when missing', async () => {
    await objects.putStream('k', stream(500), { contentType: 'audio/ogg', contentLength: 500, maxBytes: 1000 });
    expect((await objects.get('k', 1000))?.byteLength).toBe(500);
    await expect(objects.get('k', 100)).rejects.toBeInstanceOf(MediaTooLargeError);
    expect(await objects.get('missing', 1000)).toBeNull();
    expect(await objects.head('k')).toEqual({ size: 500, contentType: 'audio/ogg' });
    expect(await objects.head('missing')).toBeNull();
    await objects.delete('k');
    expect(await objects.head('k')).toBeNull();
  });

  it('viewUrl: a presigned GET inline, or as a download with its file name, with the content type', async () => {
    const inline = new URL(await objects.viewUrl('whatsapp-media/u/c/m', { seconds: 3600, contentType: 'audio/ogg' }));
    expect(inline.searchParams.get('response-content-disposition')).toBe('inline');
    expect(inline.searchParams.get('response-content-type')).toBe('audio/ogg');
    expect(inline.searchParams.get('X-Amz-Expires')).toBe('3600');
    const download = new URL(await objects.viewUrl('k', { seconds: 60, fileName: 'receta Pérez.pdf' }));
    expect(download.searchParams.get('response-content-disposition')).toContain("filename*=UTF-8''receta%20P%C3%A9rez.pdf");
  });
});
