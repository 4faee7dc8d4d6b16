/**
 * The fault proxy in front of S3 / SES / DynamoDB (local/fault-proxy.ts, issue 34): passes
 * requests through untouched, and switched it refuses connections, answers each service's own
 * error, hangs or drops — for a while or a number of requests — then passes again on the same port.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy, type FaultProxyStatus, type ProxiedService } from '../../../local/fault-proxy.js';

interface Seen {
  method: string;
  url: string;
  host: string;
  body: Buffer;
}

let upstream: Server;
let upstreamPort: number;
const seen: Seen[] = [];
const proxies: FaultProxy[] = [];
let controlServer: Server;
let controlUrl: string;

async function read(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    void read(req).then((body) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '', body });
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      res.end(JSON.stringify({ ok: true, bytes: body.length }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
  for (const service of ['s3', 'ses', 'dynamodb'] as const) {
    proxies.push(await startFaultProxy({ service, upstream: { host: '127.0.0.1', port: upstreamPort } }));
  }
  // The gateway's /_local/faults/{service}[/{id}] in small.
  controlServer = createServer((req, res) => {
    const [, service, ...rest] = new URL(req.url ?? '/', 'http://x').pathname.split('/');
    void proxy(service as ProxiedService).control(req, res, rest.length ? `/${rest.join('/')}` : '');
  });
  await new Promise<void>((resolve) => controlServer.listen(0, '127.0.0.1', resolve));
  controlUrl = `http://127.0.0.1:${(controlServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const p of proxies) await p.stop();
  upstream.closeAllConnections();
  controlServer.closeAllConnections();
  await new Promise((r) => upstream.close(r));
  await new Promise((r) => controlServer.close(r));
});
afterEach(async () => {
  for (const p of proxies) await control(p.service, 'DELETE');
  seen.length = 0;
});

const proxy = (service: ProxiedService) => proxies.find((p) => p.service === service)!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function control(service: ProxiedService, method: string, body?: unknown, rest = ''): Promise<{ status: number; json: FaultProxyStatus & { error?: { message: string } } }> {
  const res = await fetch(`${controlUrl}/${service}${rest}`, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as FaultProxyStatus & { error?: { message: string } } };
}

const call = (service: ProxiedService, init: RequestInit & { path?: string } = {}) =>
  fetch(`${proxy(service).endpoint}${init.path ?? '/agentdesk-uploads/key.txt'}`, { method: 'POST', body: 'hello', ...init });

describe('fault proxy', () => {
  it('passes requests through untouched: method, path, Host, body bytes, status and headers', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const res = await call('s3', { method: 'PUT', path: '/bucket/a%20b?x-id=PutObject', body: bytes });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(await res.json()).toEqual({ ok: true, bytes: 256 });
    expect(seen).toEqual([{ method: 'PUT', url: '/bucket/a%20b?x-id=PutObject', host: new URL(proxy('s3').endpoint).host, body: bytes }]);
    expect((await control('s3', 'GET')).json).toMatchObject({ service: 's3', state: 'pass', listening: true, faults: [] });
  });

  it("'error' answers each service's own error shape, for `times` requests, then passes", async () => {
    await control('s3', 'POST', { state: 'error', times: 1 });
    let res = await call('s3');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/xml');
    expect(await res.text()).toMatch(/<Error><Code>InternalError<\/Code><Message>We encountered an internal error. Please try again.<\/Message><RequestId>/);
    expect((await call('s3')).status).toBe(201);

    await control('dynamodb', 'POST', { state: 'error', status: 503, times: 1 });
    res = await call('dynamodb', { path: '/' });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ __type: 'com.amazonaws.dynamodb.v20120810#ServiceUnavailable', message: 'The service is currently unavailable or busy.' });

    await control('ses', 'POST', { state: 'error', status: 429, retryAfter: 3, times: 1 });
    res = await call('ses', { path: '/v2/email/outbound-emails' });
    expect(res.status).toBe(429);
    expect(res.headers.get('x-amzn-errortype')).toBe('TooManyRequestsException');
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toEqual({ message: 'Too many requests have been made to the operation.' });

    await control('s3', 'POST', { state: 'error', status: 503, times: 1 });
    const head = await call('s3', { method: 'HEAD', body: null });
    expect(head.status).toBe(503);
    expect(await head.text()).toBe('');
    expect(seen).toHaveLength(1);
  });

  it("'refuse' closes the port (ECONNREFUSED) for its time, then listens again on the same port", async () => {
    const { json } = await control('dynamodb', 'POST', { state: 'refuse', forMs: 400 });
    expect(json).toMatchObject({ state: 'refuse', listening: false });
    const failure = await call('dynamodb').catch((error: Error & { cause?: { code?: string } }) => error.cause?.code);
    expect(failure).toBe('ECONNREFUSED');
    await sleep(500);
    expect((await control('dynamodb', 'GET')).json).toMatchObject({ state: 'pass', listening: true });
    expect((await call('dynamodb')).status).toBe(201);
  });

  it("'refuse' also drops open keep-alive connections, and 'pass' ends it at once", async () => {
    // A keep-alive connection made before the switch.
    expect((await call('ses')).status).toBe(201);
    await control('ses', 'POST', { state: 'refuse' });
    await expect(call('ses')).rejects.toThrow();
    const { json } = await control('ses', 'POST', { state: 'pass' });
    expect(json).toMatchObject({ state: 'pass', listening: true, faults: [] });
    expect((await call('ses')).status).toBe(201);
  });

  it("'hang' holds requests until cleared, then forwards them; 'drop' resets each request", async () => {
    const { json } = await control('s3', 'POST', { state: 'hang', id: 'stall' });
    expect(json.faults[0]).toMatchObject({ id: 'stall', kind: 'hang', active: true });
    let settled = false;
    const pending = call('s3').then((r) => ((settled = true), r));
    await sleep(250);
    expect(settled).toBe(false);
    expect(seen).toEqual([]);
    expect((await control('s3', 'GET')).json.faults[0]).toMatchObject({ hits: 1, held: 1 });
    expect((await control('s3', 'DELETE', undefined, '/stall')).status).toBe(200);
    expect((await pending).status).toBe(201);
    expect(seen).toHaveLength(1);

    await control('s3', 'POST', { state: 'drop', times: 1 });
    await expect(call('s3')).rejects.toThrow(/fetch failed/);
    expect((await call('s3')).status).toBe(201);
  });

  it('match.bodyIncludes faults only the requests that carry a test\'s ids, and forwards the others whole', async () => {
    await control('dynamodb', 'POST', { state: 'error', match: { bodyIncludes: 'USER#abc' } });
    expect((await call('dynamodb', { body: JSON.stringify({ Key: { pk: { S: 'USER#abc' } } }) })).status).toBe(500);
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x41]);
    const other = await call('dynamodb', { body: binary });
    expect(other.status).toBe(201);
    expect(seen.map((s) => s.body)).toEqual([binary]);
    expect((await control('dynamodb', 'GET')).json.faults[0]).toMatchObject({ hits: 1, active: true });
  });

  it('refuses a malformed switch with a 400 and changes nothing', async () => {
    for (const body of [
      { state: 'down' },
      { state: 'refuse', times: 2 },
      { state: 'refuse', match: { path: '/x' } },
      { state: 'pass', forMs: 10 },
      { state: 'hang', status: 500 },
      { state: 'error', forMs: 0 },
      [],
    ]) {
      const { status, json } = await control('s3', 'POST', body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(json.error?.message).toBeTruthy();
    }
    expect((await control('s3', 'GET')).json).toMatchObject({ state: 'pass', listening: true, faults: [] });
  });
});
