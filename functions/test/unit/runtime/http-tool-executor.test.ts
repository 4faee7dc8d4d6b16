/**
 * The HTTP tool executor over the real outbound guard and a real loopback server (allow-listed for
 * this guard only): request shape, header, errors as texts for the model, timeout, size cap.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpToolExecutor, secondsText } from '../../../src/adapters/http-tools/executor.js';
import { OutboundBlockedError } from '../../../src/adapters/outbound/errors.js';
import { createGuard } from '../../../src/adapters/outbound/guarded-fetch.js';
import type { SecretBox } from '../../../src/domain/secrets/ports.js';
import { tool } from './fakes.js';

interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: string;
}

const seen: Seen[] = [];
let origin = '';
let otherOrigin = '';
let closedPort = 0;
const otherSeen: IncomingMessage['headers'][] = [];
const other = createServer((req, res) => {
  otherSeen.push(req.headers);
  res.end('landed');
});
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    if (url.pathname === '/slow') {
      setTimeout(() => res.end('late'), 2_000).unref();
      return;
    }
    if (url.pathname === '/big') {
      res.setHeader('content-type', 'text/plain');
      res.end('y'.repeat(300 * 1024));
      return;
    }
    if (url.pathname === '/fail') {
      res.statusCode = 503;
      res.setHeader('content-type', 'application/json');
      res.end('{"error":"down for maintenance"}');
      return;
    }
    if (url.pathname === '/image') {
      res.setHeader('content-type', 'image/png');
      res.end(Buffer.alloc(64));
      return;
    }
    if (url.pathname === '/to-other-origin') {
      // Same host, another port: another origin.
      res.statusCode = 302;
      res.setHeader('location', `${otherOrigin}/landing`);
      res.end();
      return;
    }
    if (url.pathname === '/to-same-origin') {
      res.statusCode = 307;
      res.setHeader('location', '/orders');
      res.end();
      return;
    }
    if (url.pathname === '/to-private') {
      res.statusCode = 302;
      res.setHeader('location', 'http://10.0.0.5/admin');
      res.end();
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'shipped', eta: '2026-03-04' }));
  });
});

/** Sealed values are "sealed:<plain>"; anything else fails to open. */
const secrets: SecretBox = {
  seal: async (p) => `sealed:${p}`,
  open: async (s) => {
    if (!s.startsWith('sealed:')) throw new Error('bad seal');
    return s.slice('sealed:'.length);
  },
};

let executor: HttpToolExecutor;
const errors: string[] = [];

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  // A port nothing listens on (allow-listed too, so the refusal is a network error, not a block).
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  const otherPort = (other.address() as AddressInfo).port;
  otherOrigin = `http://127.0.0.1:${otherPort}`;
  const guard = createGuard({ allowHosts: [`127.0.0.1:${port}`, `127.0.0.1:${closedPort}`, `127.0.0.1:${otherPort}`] });
  executor = new HttpToolExecutor({ fetch: guard.fetch, secrets, timeoutMs: 300, onError: (m) => errors.push(m) });
});

afterAll(async () => {
  server.closeAllConnections();
  other.closeAllConnections();
  await Promise.all([new Promise<void>((r) => server.close(() => r())), new Promise<void>((r) => other.close(() => r()))]);
});

const last = () => seen.at(-1)!;

/** A refused address, whichever it is: the text never names it (nor what a name resolved to). */
const BLOCKED = 'The tool could not be called: the address points to a private or local network and cannot be reached';

describe('HttpToolExecutor', () => {
  it('GET: arguments in the query string, the header value opened and attached; "HTTP <status>\\n<body>" for the model', async () => {
    const t = tool({ endpoint: `${origin}/orders`, headerKey: 'X-Api-Key', sealedHeaderValue: 'sealed:k-123' });

    const outcome = await executor.execute(t, { order_id: 'A-100' });

    expect(outcome).toEqual({ ok: true, status: 200, result: 'HTTP 200\n{"status":"shipped","eta":"2026-03-04"}' });
    expect(last()).toMatchObject({ method: 'GET', path: '/orders', query: { order_id: 'A-100' }, body: '' });
    expect(last().headers['x-api-key']).toBe('k-123');
  });

  it('POST: arguments as a JSON body', async () => {
    const t = tool({
      endpoint: `${origin}/book`,
      method: 'POST',
      properties: { date: { type: 'string', description: 'd' }, guests: { type: 'number', description: 'n' } },
      required: ['date'],
    });

    const outcome = await executor.execute(t, { date: '2026-05-01', guests: 2 });

    expect(outcome.ok).toBe(true);
    expect(last()).toMatchObject({ method: 'POST', path: '/book', query: {} });
    expect(last().headers['content-type']).toBe('application/json');
    expect(JSON.parse(last().body)).toEqual({ date: '2026-05-01', guests: 2 });
  });

  it('missing required arguments: not called, the model is told which', async () => {
    const before = seen.length;
    const outcome = await executor.execute(tool({ endpoint: `${origin}/orders` }), {});
    expect(outcome).toEqual({ ok: false, result: expect.stringMatching(/^The tool was not called\. Missing required parameter: order_id/) as string });
    expect(seen.length).toBe(before);
  });

  it.each([
    ['http://10.0.0.5/orders', BLOCKED],
    ['http://169.254.169.254/latest/meta-data/', BLOCKED],
    ['http://127.0.0.1:1/orders', BLOCKED],
  ])('%s is refused with a clear text, not thrown', async (endpoint, text) => {
    const outcome = await executor.execute(tool({ endpoint }), { order_id: 'A' });
    expect(outcome).toEqual({ ok: false, result: text });
  });

  it('a redirect to a private address is refused', async () => {
    const outcome = await executor.execute(tool({ endpoint: `${origin}/to-private` }), { order_id: 'A' });
    expect(outcome).toEqual({ ok: false, result: BLOCKED });
  });

  it('the secret header follows a redirect on the same origin, never one to another origin', async () => {
    const withHeader = (path: string) => tool({ endpoint: `${origin}${path}`, headerKey: 'X-Api-Key', sealedHeaderValue: 'sealed:k-123' });

    const same = await executor.execute(withHeader('/to-same-origin'), { order_id: 'A' });
    expect(same.ok).toBe(true);
    expect(last().path).toBe('/orders');
    expect(last().headers['x-api-key']).toBe('k-123');

    const away = await executor.execute(withHeader('/to-other-origin'), { order_id: 'A' });
    expect(away).toEqual({ ok: true, status: 200, result: 'HTTP 200\nlanded' });
    expect(otherSeen).toHaveLength(1);
    expect(otherSeen[0]!['x-api-key']).toBeUndefined();
  });

  it('a tool that does not answer in time: a timeout text (the configured timeout, or a lower bound the runtime asks for)', async () => {
    const t = tool({ endpoint: `${origin}/slow` });
    const started = Date.now();

    const outcome = await executor.execute(t, { order_id: 'A' });

    expect(outcome).toEqual({ ok: false, result: 'The tool did not answer within 0.3 seconds' });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await executor.execute(t, { order_id: 'A' }, { timeoutMs: 100 })).toEqual({ ok: false, result: 'The tool did not answer within 0.1 seconds' });
    // A higher bound from the runtime never raises the configured timeout.
    expect(await executor.execute(t, { order_id: 'A' }, { timeoutMs: 60_000 })).toEqual({ ok: false, result: 'The tool did not answer within 0.3 seconds' });
  });

  it('caps the response at 100 KB with a note', async () => {
    const outcome = await executor.execute(tool({ endpoint: `${origin}/big` }), { order_id: 'A' });
    expect(outcome.ok).toBe(true);
    expect(outcome.result.startsWith(`HTTP 200\n${'y'.repeat(1000)}`)).toBe(true);
    expect(outcome.result.endsWith('\n[The response was cut at 100 KB]')).toBe(true);
    expect(outcome.result.length).toBeLessThan(100 * 1024 + 100);
  });

  it('an error status is passed on to the model with ok:false', async () => {
    const outcome = await executor.execute(tool({ endpoint: `${origin}/fail` }), { order_id: 'A' });
    expect(outcome).toEqual({ ok: false, status: 503, result: 'HTTP 503\n{"error":"down for maintenance"}' });
  });

  it('binary responses are described, not dumped', async () => {
    const outcome = await executor.execute(tool({ endpoint: `${origin}/image` }), { order_id: 'A' });
    expect(outcome.result).toBe('HTTP 200\n[64 bytes of image/png content, not shown]');
  });

  it('a refused connection is a clear text', async () => {
    const outcome = await executor.execute(tool({ endpoint: `http://127.0.0.1:${closedPort}/x` }), { order_id: 'A' });
    expect(outcome).toEqual({ ok: false, result: 'The tool could not be reached: Connection to 127.0.0.1 was refused' });
  });

  it('a header value that cannot be opened: not called, a clear text, the failure logged', async () => {
    const before = seen.length;
    const outcome = await executor.execute(tool({ endpoint: `${origin}/orders`, headerKey: 'X-Api-Key', sealedHeaderValue: 'garbage' }), { order_id: 'A' });
    expect(outcome.ok).toBe(false);
    expect(outcome.result).toMatch(/header value could not be read/);
    expect(seen.length).toBe(before);
    expect(errors).toContain('Opening a tool header value failed');
  });
});

describe('texts', () => {
  it.each([
    [10_000, '10 seconds'],
    [1_000, '1 second'],
    [1_500, '1.5 seconds'],
  ])('secondsText(%i) = %s', (ms, text) => expect(secondsText(ms)).toBe(text));

  it.each([
    ['Blocked: the address points to a private or local network and cannot be reached', 'the address points to a private or local network and cannot be reached'],
    ['Blocked: only http and https URLs are allowed (got ftp)', 'only http and https URLs are allowed (got ftp)'],
  ])('OutboundBlockedError(%j).reason', (message, reason) => expect(new OutboundBlockedError(message).reason).toBe(reason));
});
