/**
 * A small web server for integration tests: the pages URL scraping fetches and the endpoints
 * custom tools call. The global setup starts ONE on a free loopback port and allow-lists it for
 * the handlers' outbound guard (OUTBOUND_ALLOW_HOSTS), so the app reaches it exactly as it would
 * reach a public site; tests in any worker register their own routes under a random prefix.
 *
 *   const site = webFixtures();
 *   const url = await site.route({ path: '/page', body: '<html>…</html>', headers: { 'content-type': 'text/html' } });
 *   const slow = await site.route({ path: '/slow', delayMs: 15_000 });
 *   const hop = await site.route({ path: '/hop', redirectTo: 'http://10.0.0.5/' });  // 302
 *   ... the app calls `url` ...
 *   const seen = await site.requests('/page');  // [{ method, url: '/<prefix>/page?q=1', path, query, headers, body }]
 *
 * Control API (JSON): POST /_fixtures/routes {path, status?, headers?, body?, bodyBase64?,
 * delayMs?, redirectTo?, sequence?: [{status, body?}] answered first, in order};
 * GET /_fixtures/requests?prefix=/<prefix>[&path=/<prefix>/page].
 * Unknown paths answer 404.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { provided } from './api.js';

export interface FixtureRoute {
  /** Path under the site's prefix ('/page'); query strings are ignored when matching. */
  path: string;
  /** Default 200, or 302 with redirectTo. */
  status?: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Wait before answering (timeouts). */
  delayMs?: number;
  /** Location of a redirect: an absolute URL as is, or a path ('/next') under the same prefix. */
  redirectTo?: string;
  /** Answers for the first requests, in order (e.g. two 500s before the route's own answer). */
  sequence?: Array<{ status: number; body?: string }>;
}

export interface RecordedFixtureRequest {
  method: string;
  /** Path and query as received (prefix included). */
  url: string;
  /** Path without the site prefix. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string;
  at: string;
}

interface StoredRoute {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  delayMs: number;
  location?: string;
  sequence: Array<{ status: number; body?: string }>;
}

// ------------------------------------------------------------------ the server (global setup)

export async function startWebFixtures(options: { port?: number } = {}) {
  const routes = new Map<string, StoredRoute>();
  const recorded: (RecordedFixtureRequest & { fullPath: string })[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const sendJson = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fixtures');
      const body = await readBody(req);
      if (url.pathname === '/_fixtures/routes' && req.method === 'POST') {
        const def = JSON.parse(body.toString('utf8')) as FixtureRoute & { bodyBase64?: string };
        const { path } = def;
        if (typeof path !== 'string' || !path.startsWith('/')) return sendJson(res, 400, { error: 'path must start with /' });
        routes.set(path, {
          status: def.status ?? (def.redirectTo ? 302 : 200),
          headers: def.headers ?? {},
          body: def.bodyBase64 !== undefined ? Buffer.from(def.bodyBase64, 'base64') : Buffer.from(String(def.body ?? '')),
          delayMs: def.delayMs ?? 0,
          sequence: Array.isArray(def.sequence) ? [...def.sequence] : [],
          ...(def.redirectTo ? { location: def.redirectTo } : {}),
        });
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname === '/_fixtures/requests' && req.method === 'GET') {
        const prefix = url.searchParams.get('prefix') ?? '/';
        const path = url.searchParams.get('path');
        return sendJson(res, 200, {
          requests: recorded
            .filter((r) => r.fullPath.startsWith(prefix) && (!path || r.fullPath === path))
            .map(({ fullPath: _full, ...r }) => r),
        });
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const prefix = /^\/[^/]+/.exec(url.pathname)?.[0] ?? '';
      recorded.push({
        method: req.method ?? 'GET',
        url: `${url.pathname}${url.search}`,
        fullPath: url.pathname,
        path: url.pathname.slice(prefix.length) || '/',
        query: Object.fromEntries(url.searchParams),
        headers,
        body: body.toString('utf8'),
        at: new Date().toISOString(),
      });
      const route = routes.get(url.pathname);
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('Not found');
        return;
      }
      if (route.delayMs > 0) {
        const gone = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            resolve(false);
          }, route.delayMs);
          timers.add(timer);
          res.once('close', () => {
            clearTimeout(timer);
            timers.delete(timer);
            resolve(true);
          });
        });
        if (gone) return;
      }
      const next = route.sequence.shift();
      if (next) {
        res.writeHead(next.status, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(next.body ?? '');
        return;
      }
      const out: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', ...route.headers };
      if (route.location) out.location = route.location.startsWith('/') ? `${prefix}${route.location}` : route.location;
      res.writeHead(route.status, out);
      res.end(req.method === 'HEAD' ? undefined : route.body);
    })().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: (error as Error).message });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    /** For OUTBOUND_ALLOW_HOSTS. */
    hosts: [`127.0.0.1:${port}`, `localhost:${port}`],
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ------------------------------------------------------------------ the client (tests)

export interface WebFixtureSite {
  /** http://127.0.0.1:<port>/<prefix> */
  origin: string;
  /** The full URL of a path under this site. */
  url(path: string): string;
  /** Registers (or replaces) a route and returns its full URL. */
  route(route: FixtureRoute): Promise<string>;
  /** Requests received under this site (optionally for one path), oldest first. */
  requests(path?: string): Promise<RecordedFixtureRequest[]>;
}

/** A fresh site under a random prefix on the shared fixture server (webFixturesUrl). */
export function webFixtures(): WebFixtureSite {
  const base = provided('webFixturesUrl');
  const prefix = `/s${randomBytes(6).toString('hex')}`;
  const url = (path: string) => `${base}${prefix}${path.startsWith('/') ? path : `/${path}`}`;
  return {
    origin: `${base}${prefix}`,
    url,
    async route(route) {
      const { body, ...rest } = route;
      const payload = {
        ...rest,
        path: `${prefix}${route.path}`,
        ...(body === undefined ? {} : typeof body === 'string' ? { body } : { bodyBase64: Buffer.from(body).toString('base64') }),
      };
      const res = await fetch(`${base}/_fixtures/routes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      if (!res.ok) throw new Error(`web fixtures: could not register ${route.path}: ${await res.text()}`);
      return url(route.path);
    },
    async requests(path) {
      const query = new URLSearchParams({ prefix, ...(path ? { path: `${prefix}${path}` } : {}) });
      const res = await fetch(`${base}/_fixtures/requests?${query}`);
      return ((await res.json()) as { requests: RecordedFixtureRequest[] }).requests;
    },
  };
}
