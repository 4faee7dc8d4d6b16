/**
 * The outbound guard's streamed request against real loopback servers: the same address policy
 * and redirect checks as the buffered one, the body handed over as it arrives, a timeout for the
 * response head and one overall, abort by signal, a byte cap, and the connection closed as soon as
 * the reader stops (a caller's barge-in must not leave the model talking into a socket).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuard,
  OutboundBlockedError,
  OutboundNetworkError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  type Resolver,
} from '../../../src/adapters/outbound/guarded-fetch.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What the server saw of each streamed response: pieces written, and whether the client hung up first. */
interface Exchange {
  path: string;
  written: number;
  clientLeftAt?: number;
}

let server: Server;
let origin: string;
let port: number;
const exchanges: Exchange[] = [];

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const exchange: Exchange = { path: url.pathname + url.search, written: 0 };
  exchanges.push(exchange);
  res.on('close', () => {
    if (!res.writableFinished) exchange.clientLeftAt = Date.now();
  });
  const n = Number(url.searchParams.get('n') ?? 3);
  const ms = Number(url.searchParams.get('ms') ?? 0);
  switch (url.pathname) {
    case '/pieces': {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < n; i++) {
        if (i > 0 || ms) await sleep(ms);
        if (exchange.clientLeftAt) return;
        res.write(`piece ${i}\n`);
        exchange.written++;
      }
      return void res.end();
    }
    case '/slow-head':
      await sleep(ms);
      if (exchange.clientLeftAt) return;
      res.writeHead(200);
      return void res.end('late');
    case '/redirect':
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/pieces' });
      return void res.end();
    case '/declared-big':
      res.writeHead(200, { 'content-length': '5000' });
      return void res.end('x'.repeat(5000));
    case '/gzip': {
      const text = 'compressed '.repeat(200);
      res.writeHead(200, { 'content-encoding': 'gzip' });
      return void res.end(gzipSync(text));
    }
    case '/cut':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('half an answer');
      await sleep(20);
      return void res.socket?.destroy();
    case '/echo': {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      res.writeHead(200, { 'content-type': 'application/json', 'x-test': 'yes' });
      return void res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString(), auth: req.headers.authorization ?? null }));
    }
    default:
      res.writeHead(404);
      res.end();
  }
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const fakeDns =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const allowed = () => createGuard({ allowHosts: [`127.0.0.1:${port}`, `site.test:${port}`], resolve: fakeDns({ 'site.test': ['127.0.0.1'], 'lan.test': ['10.0.0.8'] }) });
const exchangeOf = (path: string) => exchanges.filter((e) => e.path === path).at(-1);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const failureOf = async (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

async function readAll(body: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const bytes of body) out += text(bytes);
  return out;
}

/** Polls until `check` holds (the server side of a hang-up is seen asynchronously). */
async function eventually(check: () => boolean, ms = 2_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(10);
  }
}

describe('guard.stream: policy', () => {
  it('refuses a loopback server that is not allow-listed and a name resolving to a private address, before any request', async () => {
    const before = exchanges.length;

    const loopback = await failureOf(createGuard().stream(`${origin}/pieces`));
    const lan = await failureOf(allowed().stream(`http://lan.test:${port}/pieces`));
    const scheme = await failureOf(allowed().stream('ftp://site.test/pieces'));

    expect(loopback).toBeInstanceOf(OutboundBlockedError);
    expect(lan).toBeInstanceOf(OutboundBlockedError);
    expect(scheme).toBeInstanceOf(OutboundBlockedError);
    expect(exchanges.length).toBe(before);
  });

  it('follows a redirect to an allowed address, and refuses one to a private address', async () => {
    const ok = await allowed().stream(`${origin}/redirect?to=${encodeURIComponent(`http://site.test:${port}/pieces?n=2&r=1`)}`);
    expect(ok.url).toBe(`http://site.test:${port}/pieces?n=2&r=1`);
    expect(await readAll(ok.body)).toBe('piece 0\npiece 1\n');

    const refused = await failureOf(allowed().stream(`${origin}/redirect?to=${encodeURIComponent(`http://lan.test:${port}/pieces`)}`));
    expect(refused).toBeInstanceOf(OutboundBlockedError);
  });

  it('sends method, headers and body, and returns status and headers before the body is read', async () => {
    const res = await allowed().stream(`${origin}/echo`, { method: 'POST', headers: { Authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"a":1}' });

    expect(res.status).toBe(200);
    expect(res.headers['x-test']).toBe('yes');
    expect(JSON.parse(await readAll(res.body))).toEqual({ method: 'POST', body: '{"a":1}', auth: 'Bearer k' });
  });
});

describe('guard.stream: the body as it arrives', () => {
  it('hands each piece over while the server is still writing', async () => {
    const started = Date.now();
    const res = await allowed().stream(`${origin}/pieces?n=4&ms=80&t=arrive`);
    const arrivals: number[] = [];
    let body = '';

    for await (const bytes of res.body) {
      arrivals.push(Date.now() - started);
      body += text(bytes);
    }

    expect(body).toBe('piece 0\npiece 1\npiece 2\npiece 3\n');
    expect(arrivals.length).toBeGreaterThanOrEqual(3);
    expect(arrivals[0]!).toBeLessThan(arrivals.at(-1)! - 100);
  });

  it('decompresses gzip as it reads', async () => {
    const res = await allowed().stream(`${origin}/gzip`);

    expect(await readAll(res.body)).toBe('compressed '.repeat(200));
    expect(res.headers).not.toHaveProperty('content-encoding');
  });

  it('a reader that stops early closes the connection: the server stops writing', async () => {
    const res = await allowed().stream(`${origin}/pieces?n=50&ms=20&t=break`);

    for await (const bytes of res.body) {
      expect(text(bytes)).toBe('piece 0\n');
      break;
    }

    await eventually(() => exchangeOf('/pieces?n=50&ms=20&t=break')?.clientLeftAt !== undefined);
    await sleep(60);
    expect(exchangeOf('/pieces?n=50&ms=20&t=break')!.written).toBeLessThan(5);
  });

  it('close() without reading closes the connection too', async () => {
    const res = await allowed().stream(`${origin}/pieces?n=50&ms=20&t=close`);

    res.close();
    res.close();

    await eventually(() => exchangeOf('/pieces?n=50&ms=20&t=close')?.clientLeftAt !== undefined);
  });

  it('a body cut before its end is a network error, not a short answer', async () => {
    const res = await allowed().stream(`${origin}/cut`);

    const error = await failureOf(readAll(res.body));

    expect(error).toBeInstanceOf(OutboundNetworkError);
  });
});

describe('guard.stream: limits and cancellation', () => {
  it('times out a response head that does not come, without waiting for the overall timeout', async () => {
    const started = Date.now();

    const error = await failureOf(allowed().stream(`${origin}/slow-head?ms=3000`, { headTimeoutMs: 150, timeoutMs: 10_000 }));

    expect(error).toBeInstanceOf(OutboundTimeoutError);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('the overall timeout also bounds reading the body, and closes the connection', async () => {
    const res = await allowed().stream(`${origin}/pieces?n=100&ms=30&t=overall`, { timeoutMs: 200 });
    const started = Date.now();

    const error = await failureOf(readAll(res.body));

    expect(error).toBeInstanceOf(OutboundTimeoutError);
    expect(Date.now() - started).toBeLessThan(1_000);
    await eventually(() => exchangeOf('/pieces?n=100&ms=30&t=overall')?.clientLeftAt !== undefined);
  });

  it('an abort mid-body rejects the read with the signal’s reason and closes the connection at once', async () => {
    const controller = new AbortController();
    const res = await allowed().stream(`${origin}/pieces?n=100&ms=30&t=abort`, { signal: controller.signal });
    const got: string[] = [];

    const error = await failureOf(
      (async () => {
        for await (const bytes of res.body) {
          got.push(text(bytes));
          if (got.length === 2) controller.abort(new Error('caller barged in'));
        }
      })(),
    );

    expect((error as Error).message).toBe('caller barged in');
    await eventually(() => exchangeOf('/pieces?n=100&ms=30&t=abort')?.clientLeftAt !== undefined, 500);
    expect(exchangeOf('/pieces?n=100&ms=30&t=abort')!.written).toBeLessThan(6);
  });

  it('an abort before the head arrives rejects the request itself', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    const error = await failureOf(allowed().stream(`${origin}/slow-head?ms=2000&t=abort`, { signal: controller.signal }));

    expect((error as Error).name).toBe('AbortError');
  });

  it('caps the body: past maxBytes reading fails; a larger declared length fails before reading', async () => {
    const res = await allowed().stream(`${origin}/pieces?n=20&t=cap`, { maxBytes: 30 });
    const capped = await failureOf(readAll(res.body));
    expect(capped).toBeInstanceOf(OutboundTooLargeError);

    const declared = await failureOf(allowed().stream(`${origin}/declared-big`, { maxBytes: 1000 }));
    expect(declared).toBeInstanceOf(OutboundTooLargeError);
  });

  it('the body can be read only once', async () => {
    const res = await allowed().stream(`${origin}/pieces?n=1&t=once`);
    await readAll(res.body);

    await expect(readAll(res.body)).rejects.toThrow(/already read/);
  });
});
