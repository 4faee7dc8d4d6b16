/**
 * The outbound guard against real loopback servers: refused addresses (literal and resolved,
 * at connect time), redirects re-checked on every hop, the allow-list, timeout and size cap.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BLOCKED_ADDRESS_MESSAGE,
  createGuard,
  guardedFetch,
  OutboundBlockedError,
  OutboundNetworkError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  type Resolver,
} from '../../../src/adapters/outbound/guarded-fetch.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function startServer(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handle(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

type TestServer = Awaited<ReturnType<typeof startServer>>;

/** A resolver for made-up names; anything else is an unknown host. */
const fakeDns =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

let site: TestServer;
let other: TestServer;

beforeAll(async () => {
  site = await startServer((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain', ...headers });
      res.end(text);
    };
    switch (url.pathname) {
      case '/hello':
        return send(200, 'hello world', { 'x-test': 'yes' });
      case '/echo':
        return send(200, JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null, query: url.search }));
      case '/redirect':
        return send(Number(url.searchParams.get('status') ?? 302), '', { location: url.searchParams.get('to') ?? '/hello' });
      case '/chain': {
        const n = Number(url.searchParams.get('n') ?? 0);
        return send(302, '', { location: n > 0 ? `/chain?n=${n - 1}` : '/hello' });
      }
      case '/slow':
        setTimeout(() => send(200, 'late'), 2_000).unref();
        return;
      case '/slow-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('start');
        setTimeout(() => res.end('end'), 2_000).unref();
        return;
      case '/big':
        return send(200, 'x'.repeat(Number(url.searchParams.get('size') ?? 1000)));
      case '/big-gzip':
        return send(200, gzipSync(Buffer.from('y'.repeat(Number(url.searchParams.get('size') ?? 1000)))) as unknown as string, {
          'content-encoding': 'gzip',
        });
      default:
        return send(404, 'not found');
    }
  });
  other = await startServer((_req, res) => {
    res.writeHead(200);
    res.end('other');
  });
});

afterAll(async () => {
  await site.close();
  await other.close();
});

/** A guard that lets the test site's loopback host:port through (and resolves made-up names). */
const allowSite = (dns: Record<string, string[]> = {}) =>
  createGuard({ allowHosts: [`127.0.0.1:${site.port}`, `site.test:${site.port}`], resolve: fakeDns({ 'site.test': ['127.0.0.1'], ...dns }) });

describe('guardedFetch: refused addresses', () => {
  const guard = createGuard({ resolve: fakeDns({}) });

  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://10.0.0.5/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fd00::1]/', 'unique-local'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://[::ffff:a00:5]/', 'private'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[2002:7f00:1::1]/', '6to4'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Teredo'],
  ])('refuses the literal address of %s (%s)', async (url, reason) => {
    const error = await guard.fetch(url).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OutboundBlockedError);
    expect((error as Error).message).toBe(BLOCKED_ADDRESS_MESSAGE);
    expect((error as OutboundBlockedError).detail).toContain(reason);
  });

  it('refuses a name that resolves to a private, loopback, link-local or v4-mapped address', async () => {
    const dns = createGuard({
      resolve: fakeDns({
        'internal.test': ['10.0.0.5'],
        'rebind.test': ['127.0.0.1'],
        'metadata.test': ['169.254.169.254'],
        'mapped.test': ['::ffff:192.168.0.10'],
        'mixed.test': ['93.184.216.34', '10.1.2.3'],
      }),
    });

    for (const [host, reason] of [
      ['internal.test', '10.0.0.5, a private address'],
      ['rebind.test', '127.0.0.1, a loopback address'],
      ['metadata.test', '169.254.169.254, a link-local address'],
      ['mapped.test', 'a private address'],
      ['mixed.test', '10.1.2.3, a private address'],
    ] as const) {
      const error = await dns.fetch(`http://${host}/`).catch((e: unknown) => e);
      expect(error, host).toBeInstanceOf(OutboundBlockedError);
      expect((error as Error).message, host).toBe(BLOCKED_ADDRESS_MESSAGE);
      expect((error as OutboundBlockedError).detail).toContain(`${host} resolves to`);
      expect((error as OutboundBlockedError).detail).toContain(reason);
    }
  });

  it('never names the address a name resolved to in the message (only in the detail kept for logs)', async () => {
    const dns = createGuard({ resolve: fakeDns({ 'intranet.test': ['10.20.30.40'], 'six.test': ['fd12:3456::7'] }) });

    const byFetch = await dns.fetch('http://intranet.test/').catch((e: unknown) => e);
    const byCheck = await dns.check('https://six.test/hook').catch((e: unknown) => e);
    const byRedirect = await allowSite({ 'hop.test': ['192.168.77.1'] })
      .fetch(`${site.origin}/redirect?to=${encodeURIComponent('http://hop.test/')}`)
      .catch((e: unknown) => e);

    for (const error of [byFetch, byCheck, byRedirect]) {
      expect(error).toBeInstanceOf(OutboundBlockedError);
      expect((error as Error).message).toBe('Blocked: the address points to a private or local network and cannot be reached');
      expect((error as Error).message).not.toMatch(/\d+\.\d+|::/);
    }
    expect((byFetch as OutboundBlockedError).detail).toBe('intranet.test resolves to 10.20.30.40, a private address');
    expect((byCheck as OutboundBlockedError).detail).toContain('fd12:3456::7');
    expect((byRedirect as OutboundBlockedError).detail).toContain('192.168.77.1');
  });

  it('refuses localhost through the real resolver', async () => {
    const error = await createGuard().fetch(`http://localhost:${site.port}/hello`).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OutboundBlockedError);
    expect((error as OutboundBlockedError).detail).toContain('a loopback address');
    expect(site.seen.some((s) => s.url === '/hello' && s.headers.host === `localhost:${site.port}`)).toBe(false);
  });

  it('checks the address at connect time, not only in an earlier check (DNS rebinding)', async () => {
    let calls = 0;
    const rebinding: Resolver = async () => {
      calls++;
      return [{ address: calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const guard2 = createGuard({ resolve: rebinding });

    await expect(guard2.check(`http://rebind.test:${site.port}/hello`)).resolves.toBeUndefined();
    const error = await guard2.fetch(`http://rebind.test:${site.port}/hello`).catch((e: unknown) => e);

    expect(calls).toBe(2);
    expect(error).toBeInstanceOf(OutboundBlockedError);
    expect((error as OutboundBlockedError).detail).toContain('127.0.0.1, a loopback address');
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/x', 'gopher://example.com/', 'data:text/plain,hi', 'javascript:alert(1)'])(
    'refuses the non-http scheme of %s',
    async (url) => {
      const error = await guard.fetch(url).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(OutboundBlockedError);
      expect((error as Error).message).toContain('only http and https URLs are allowed');
    },
  );

  it('refuses a URL that does not parse', async () => {
    await expect(guard.fetch('not a url')).rejects.toBeInstanceOf(OutboundBlockedError);
  });
});

describe('guardedFetch: the allow-list', () => {
  it('lets an allow-listed loopback host:port through and returns status, headers and body', async () => {
    const res = await allowSite().fetch(`${site.origin}/hello`);

    expect(res.status).toBe(200);
    expect(res.headers['x-test']).toBe('yes');
    expect(res.body.toString()).toBe('hello world');
    expect(res.url).toBe(`${site.origin}/hello`);
    expect(res.truncated).toBe(false);
  });

  it('sends method, headers, query and body', async () => {
    const res = await allowSite().fetch(`http://site.test:${site.port}/echo?a=1`, {
      method: 'post',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body: '{"x":1}',
    });

    expect(JSON.parse(res.body.toString())).toEqual({ method: 'POST', body: '{"x":1}', auth: 'Bearer t', query: '?a=1' });
  });

  it('refuses a loopback server that is not allow-listed (the default has no allow-list)', async () => {
    const before = other.seen.length;

    const viaDefault = await guardedFetch(`${other.origin}/`).catch((e: unknown) => e);
    const viaSiteGuard = await allowSite().fetch(`${other.origin}/`).catch((e: unknown) => e);

    expect(viaDefault).toBeInstanceOf(OutboundBlockedError);
    expect(viaSiteGuard).toBeInstanceOf(OutboundBlockedError);
    expect((viaSiteGuard as Error).message).toBe(BLOCKED_ADDRESS_MESSAGE);
    expect((viaSiteGuard as OutboundBlockedError).detail).toBe('127.0.0.1 is a loopback address');
    expect(other.seen.length).toBe(before);
  });

  it('lets an allow-listed host:port reach loopback only, never a private address', async () => {
    const guard = createGuard({ allowHosts: ['lan.test:80'], resolve: fakeDns({ 'lan.test': ['192.168.1.20'] }) });

    const error = await guard.fetch('http://lan.test/').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OutboundBlockedError);
    expect((error as OutboundBlockedError).detail).toContain('a private address');
  });
});

describe('guardedFetch: redirects', () => {
  it('follows a redirect and reports the final URL', async () => {
    const res = await allowSite().fetch(`${site.origin}/redirect?to=/hello`);

    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('hello world');
    expect(res.url).toBe(`${site.origin}/hello`);
  });

  it.each([
    'http://10.0.0.5/admin',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
  ])('refuses a redirect to %s', async (to) => {
    const error = await allowSite()
      .fetch(`${site.origin}/redirect?to=${encodeURIComponent(to)}`)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OutboundBlockedError);
  });

  it('refuses a redirect to a name that resolves to a private address, and to a loopback server that is not allow-listed', async () => {
    const guard = allowSite({ 'evil.test': ['10.9.9.9'] });

    const toName = await guard.fetch(`${site.origin}/redirect?to=${encodeURIComponent('http://evil.test/')}`).catch((e: unknown) => e);
    const toOther = await guard.fetch(`${site.origin}/redirect?to=${encodeURIComponent(`${other.origin}/`)}`).catch((e: unknown) => e);

    expect(toName).toBeInstanceOf(OutboundBlockedError);
    expect((toName as OutboundBlockedError).detail).toContain('evil.test resolves to 10.9.9.9');
    expect(toOther).toBeInstanceOf(OutboundBlockedError);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const error = await allowSite()
      .fetch(`${site.origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OutboundBlockedError);
  });

  it('follows at most 3 redirects by default', async () => {
    const ok = await allowSite().fetch(`${site.origin}/chain?n=2`);
    const error = await allowSite().fetch(`${site.origin}/chain?n=3`).catch((e: unknown) => e);
    const none = await allowSite()
      .fetch(`${site.origin}/chain?n=0`, { maxRedirects: 0 })
      .catch((e: unknown) => e);

    expect(ok.body.toString()).toBe('hello world');
    expect(error).toBeInstanceOf(OutboundNetworkError);
    expect((error as Error).message).toBe('Too many redirects (more than 3)');
    expect(none).toBeInstanceOf(OutboundNetworkError);
  });

  it('turns a POST into a GET on 303 and drops the Authorization header when the origin changes', async () => {
    const guard = allowSite();
    const sameOrigin = await guard.fetch(`${site.origin}/redirect?status=307&to=/echo`, {
      method: 'POST',
      body: 'payload',
      headers: { authorization: 'Bearer t' },
    });
    const seeOther = await guard.fetch(`${site.origin}/redirect?status=303&to=/echo`, { method: 'POST', body: 'payload' });
    const crossOrigin = await guard.fetch(
      `${site.origin}/redirect?status=307&to=${encodeURIComponent(`http://site.test:${site.port}/echo`)}`,
      { method: 'POST', body: 'payload', headers: { authorization: 'Bearer t' } },
    );

    expect(JSON.parse(sameOrigin.body.toString())).toMatchObject({ method: 'POST', body: 'payload', auth: 'Bearer t' });
    expect(JSON.parse(seeOther.body.toString())).toMatchObject({ method: 'GET', body: '' });
    expect(JSON.parse(crossOrigin.body.toString())).toMatchObject({ method: 'POST', body: 'payload', auth: null });
  });
});

describe('guardedFetch: timeout and size cap', () => {
  it('times out a slow response, headers or body', async () => {
    const t0 = Date.now();
    const headers = await allowSite().fetch(`${site.origin}/slow`, { timeoutMs: 200 }).catch((e: unknown) => e);
    const body = await allowSite().fetch(`${site.origin}/slow-body`, { timeoutMs: 200 }).catch((e: unknown) => e);

    expect(headers).toBeInstanceOf(OutboundTimeoutError);
    expect((headers as Error).message).toBe('The request to 127.0.0.1 timed out after 200 ms');
    expect(body).toBeInstanceOf(OutboundTimeoutError);
    expect(Date.now() - t0).toBeLessThan(1_500);
  });

  it('passes the caller’s abort through as an AbortError', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    const error = await allowSite().fetch(`${site.origin}/slow`, { signal: controller.signal }).catch((e: unknown) => e);

    expect((error as Error).name).toBe('AbortError');
  });

  it('truncates a body over the cap, or fails when asked to', async () => {
    const guard = allowSite();

    const truncated = await guard.fetch(`${site.origin}/big?size=5000`, { maxBytes: 1000 });
    const exact = await guard.fetch(`${site.origin}/big?size=1000`, { maxBytes: 1000 });
    const failed = await guard.fetch(`${site.origin}/big?size=5000`, { maxBytes: 1000, failOnTooLarge: true }).catch((e: unknown) => e);
    const defaultCap = await guard.fetch(`${site.origin}/big?size=200000`);

    expect(truncated.truncated).toBe(true);
    expect(truncated.body.length).toBe(1000);
    expect(exact.truncated).toBe(false);
    expect(exact.body.length).toBe(1000);
    expect(failed).toBeInstanceOf(OutboundTooLargeError);
    expect(defaultCap.body.length).toBe(100 * 1024);
    expect(defaultCap.truncated).toBe(true);
  });

  it('decompresses gzip and applies the cap to the decompressed size', async () => {
    const guard = allowSite();

    const small = await guard.fetch(`${site.origin}/big-gzip?size=3000`);
    const bomb = await guard.fetch(`${site.origin}/big-gzip?size=5000000`, { maxBytes: 10_000, failOnTooLarge: true }).catch((e: unknown) => e);

    expect(small.body.toString()).toBe('y'.repeat(3000));
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(bomb).toBeInstanceOf(OutboundTooLargeError);
  });
});
