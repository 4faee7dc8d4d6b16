import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeVector, encodeVector, chunkPk, chunkSk } from '../../../src/adapters/dynamo/knowledge-chunks.js';
import { PresignedObjectReader } from '../../../src/adapters/extract/upload-reader.js';
import { fetchWebPage, type Fetcher } from '../../../src/adapters/extract/web-page.js';
import {
  OutboundBlockedError,
  OutboundNetworkError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  type GuardedResponse,
} from '../../../src/adapters/outbound/guarded-fetch.js';
import { KnowledgeSourceError } from '../../../src/domain/knowledge/errors.js';

const page = (contentType: string | undefined, body: string | Buffer, status = 200): Fetcher =>
  async (url) =>
    ({
      status,
      headers: (contentType === undefined ? {} : { 'content-type': contentType }) as Record<string, string>,
      body: Buffer.isBuffer(body) ? body : Buffer.from(body),
      url,
      truncated: false,
    }) satisfies GuardedResponse;
const failing = (error: Error): Fetcher => async () => {
  throw error;
};
const reason = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(KnowledgeSourceError);
    return (error as Error).message;
  }
  throw new Error('expected a KnowledgeSourceError');
};

describe('fetchWebPage', () => {
  const html = '<html><head><title>Hours</title></head><body><article><p>We open at nine every weekday and close at five in the afternoon.</p></article></body></html>';

  it('asks the guard for a 15 s timeout and a 5 MB cap that fails rather than truncates', async () => {
    let seen: Parameters<Fetcher>[1];
    await fetchWebPage('https://x.example/', async (url, req) => {
      seen = req;
      return page('text/html', html)(url);
    });
    expect(seen).toMatchObject({ timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, failOnTooLarge: true });
  });

  it('extracts HTML with its title, text/plain with its structure, and sniffs HTML without a content type', async () => {
    expect(await fetchWebPage('https://x.example/', page('text/html; charset=utf-8', html))).toEqual({
      title: 'Hours',
      blocks: [{ kind: 'paragraph', text: 'We open at nine every weekday and close at five in the afternoon.' }],
    });
    expect(await fetchWebPage('https://x.example/a.txt', page('text/plain', 'Line one\nLine two'))).toEqual({ title: '', blocks: [{ kind: 'paragraph', text: 'Line one\nLine two' }] });
    expect((await fetchWebPage('https://x.example/a.txt', page('text/plain', 'Día;Horario\nViernes;9:00–15:00'))).blocks).toEqual([
      { kind: 'table', header: true, rows: [['Día', 'Horario'], ['Viernes', '9:00–15:00']] },
    ]);
    expect((await fetchWebPage('https://x.example/', page(undefined, `<!DOCTYPE html>${html}`))).title).toBe('Hours');
  });

  it('decodes the charset of the header or of a <meta> tag', async () => {
    const latin1 = Buffer.from('<html><head><meta charset="iso-8859-1"><title>Caf\xe9</title></head><body><p>Caf\xe9 con leche</p></body></html>', 'latin1');
    expect((await fetchWebPage('https://x.example/', page('text/html', latin1))).title).toBe('Café');
    expect((await fetchWebPage('https://x.example/', page('text/plain; charset=ISO-8859-1', Buffer.from('Caf\xe9 con leche', 'latin1')))).blocks).toEqual([
      { kind: 'paragraph', text: 'Café con leche' },
    ]);
  });

  it('refuses other content types and error statuses with the reason for the user', async () => {
    expect(await reason(fetchWebPage('https://x.example/a.png', page('image/png', 'x')))).toBe('Unsupported content type: image/png');
    expect(await reason(fetchWebPage('https://x.example/a', page('application/json', '{}')))).toBe('Unsupported content type: application/json');
    expect(await reason(fetchWebPage('https://x.example/a', page(undefined, 'plain bytes')))).toBe('Unsupported content type: unknown');
    expect(await reason(fetchWebPage('https://x.example/a', page('text/html', 'gone', 404)))).toBe('The page returned HTTP 404');
    expect(await reason(fetchWebPage('https://x.example/a', page('text/html', 'oops', 503)))).toBe('The page returned HTTP 503');
  });

  it('turns the guard’s refusals and failures into reasons', async () => {
    expect(await reason(fetchWebPage('http://10.0.0.5/', failing(new OutboundBlockedError('Blocked: 10.0.0.5 is a private address'))))).toBe(
      'Blocked: 10.0.0.5 is a private address',
    );
    expect(await reason(fetchWebPage('https://x.example/', failing(new OutboundTimeoutError('timed out'))))).toBe('The page did not answer within 15 seconds');
    expect(await reason(fetchWebPage('https://x.example/', failing(new OutboundTooLargeError('big'))))).toBe('The page is larger than 5 MB');
    expect(await reason(fetchWebPage('https://nope.invalid/', failing(new OutboundNetworkError('Could not resolve nope.invalid'))))).toBe(
      'Could not resolve nope.invalid',
    );
  });

  it('marks what a site recovers from as passing (retried on the schedule first), and the rest as final (issue 34)', async () => {
    const passing = async (result: Promise<unknown>) => ((await result.catch((e: unknown) => e)) as KnowledgeSourceError).passing;
    const socket = (code: string) => new OutboundNetworkError(`Connection to x.example failed`, { cause: Object.assign(new Error(code), { code }) });
    for (const status of [408, 429, 500, 502, 503]) expect(await passing(fetchWebPage('https://x.example/a', page('text/html', 'busy', status))), String(status)).toBe(true);
    expect(await passing(fetchWebPage('https://x.example/', failing(new OutboundTimeoutError('timed out'))))).toBe(true);
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EAI_AGAIN']) expect(await passing(fetchWebPage('https://x.example/', failing(socket(code)))), code).toBe(true);

    for (const status of [400, 401, 403, 404, 410]) expect(await passing(fetchWebPage('https://x.example/a', page('text/html', 'no', status))), String(status)).toBe(false);
    expect(await passing(fetchWebPage('https://nope.invalid/', failing(socket('ENOTFOUND'))))).toBe(false);
    expect(await passing(fetchWebPage('https://x.example/', failing(new OutboundNetworkError('Too many redirects (more than 5)'))))).toBe(false);
    expect(await passing(fetchWebPage('https://x.example/', failing(new OutboundTooLargeError('big'))))).toBe(false);
    expect(await passing(fetchWebPage('http://10.0.0.5/', failing(new OutboundBlockedError('Blocked: 10.0.0.5 is a private address'))))).toBe(false);
  });

  it('lets unexpected errors through (the queue retries them)', async () => {
    await expect(fetchWebPage('https://x.example/', failing(new TypeError('bug')))).rejects.toThrow(TypeError);
  });
});

describe('PresignedObjectReader (real HTTP)', () => {
  let server: Server;
  let base: string;
  const objects: Record<string, { body: Buffer; chunked?: boolean }> = {
    'small.txt': { body: Buffer.from('hello') },
    'big.bin': { body: Buffer.alloc(2048, 1) },
    'streamed.bin': { body: Buffer.alloc(2048, 2), chunked: true },
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const key = decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1));
      const obj = objects[key];
      if (key === 'denied') return void res.writeHead(403).end('AccessDenied');
      if (!obj) return void res.writeHead(404).end('NoSuchKey');
      if (obj.chunked) {
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        for (let i = 0; i < obj.body.length; i += 256) res.write(obj.body.subarray(i, i + 256));
        return void res.end();
      }
      res.writeHead(200, { 'content-length': String(obj.body.length) }).end(obj.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const reader = (max: number) => new PresignedObjectReader({ urlFor: async (key) => `${base}/${encodeURIComponent(key)}` }, max);

  it('reads the object', async () => {
    expect(new TextDecoder().decode(await reader(1024).read('small.txt'))).toBe('hello');
  });

  it('refuses an object over the cap, announced or streamed', async () => {
    expect(await reason(reader(1024).read('big.bin'))).toBe('The file is larger than 50 MB');
    expect(await reason(reader(1024).read('streamed.bin'))).toBe('The file is larger than 50 MB');
    expect((await reader(4096).read('streamed.bin')).byteLength).toBe(2048);
  });

  it('reports a missing object to the user and other failures as errors to retry', async () => {
    expect(await reason(reader(1024).read('missing'))).toBe('The uploaded file was not found; upload it again');
    await expect(reader(1024).read('denied')).rejects.not.toBeInstanceOf(KnowledgeSourceError);
  });
});

describe('chunk keys and vector encoding', () => {
  it('lays out keys as ACCESS-PATTERNS.md says', () => {
    expect(chunkPk('u1', 'a1')).toBe('USER#u1#KB#a1');
    expect(chunkSk('file', 'F01', 7)).toBe('file#F01#00007');
    expect(chunkSk('url', 'U01', 1999)).toBe('url#U01#01999');
  });

  it('stores float32 little-endian and reads back the same numbers', () => {
    const v = Float32Array.from([1, -0.5, 0.1, 3.4028234663852886e38, 0]);
    const bytes = encodeVector(v);
    expect(bytes.byteLength).toBe(20);
    expect([...bytes.subarray(0, 4)]).toEqual([0x00, 0x00, 0x80, 0x3f]); // 1.0f LE
    expect([...decodeVector(bytes)]).toEqual([...v]);
    // An unaligned view (as a response buffer may give) still decodes.
    const shifted = new Uint8Array(bytes.byteLength + 1);
    shifted.set(bytes, 1);
    expect([...decodeVector(shifted.subarray(1))]).toEqual([...v]);
  });

  it('encodes only the view of a subarray, not its whole buffer', () => {
    const matrix = Float32Array.from([1, 2, 3, 4, 5, 6]);
    expect([...decodeVector(encodeVector(matrix.subarray(2, 4)))]).toEqual([3, 4]);
  });
});
