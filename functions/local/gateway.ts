/**
 * The local API Gateway: one origin serving the API from the route manifest (through the
 * API Gateway routes of its route plan, as the stack creates them: src/route-plan.ts), the built
 * frontend, GET /config.json (deployed next to the SPA in AWS), local-only tools under
 * /_local/ and the manifest's WebSocket APIs under /_ws/<name> (sockets.ts). Limits follow HTTP
 * API: 10 MB request payload (413) and a 30 s integration timeout (503).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context } from 'aws-lambda';
import { apiKeyMessages } from '../src/contract/api-keys.js';
import { presentedApiKey } from '../src/domain/api-keys/secret.js';
import { decodePathSegment, pathSegments, templateRouter } from '../src/http/route-match.js';
import { routePlan } from '../src/route-plan.js';
import { apiAuthorizer, routeGroups, routes, socketApis, type AuthKind } from '../src/routes.js';
import { buildAuthorizerEvent, buildEvent, writeJson, writeResult, type EventAuth, type MatchedRoute } from './api-event.js';
import { authorize, type AuthorizerConfig } from './jwt-authorizer.js';
import type { ScheduleRunner } from './schedules.js';
import { lambdaContext, type SqsDispatcher } from './sqs-dispatcher.js';
import { MAX_ADVANCE_SECONDS, validClockStep, type SessionClock } from './session-clock.js';
import { serveStatic } from './static-site.js';
import type { ServiceStatus } from './supervisor.js';
import { apiSecurityHeaders, siteSecurityHeaders, type SiteCspSources } from '../src/http/security-headers.js';
import { loadEntry, loadSocketApi, type AnyHandler } from './handlers.js';
import type { FaultProxy } from './fault-proxy.js';
import { SOCKET_PATH_PREFIX, socketGateway, type SocketLimits } from './sockets.js';
import { IDLE_KEEP_ALIVE_MS } from './fake-http.js';

export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
const API_GATEWAY_TIMEOUT_S = 30;

export interface GatewayOptions {
  port: number;
  host?: string;
  authorizer: AuthorizerConfig;
  /** The API authorizer of 'userOrApiKey' routes; default: the manifest's apiAuthorizer entry. */
  loadApiAuthorizer?: () => Promise<AnyHandler>;
  loadGroup: (group: string) => Promise<AnyHandler>;
  dispatcher?: SqsDispatcher;
  /** GET /_local/services: the supervised services' states (supervisor.ts); without it that answers 404. */
  services?: () => ServiceStatus[];
  /** GET/POST /_local/clock read and move it forward (session-clock.ts); without it those answer 404. */
  sessionClock?: SessionClock;
  /** The fault proxies in front of S3 / SES / DynamoDB (stack option faultProxies): /_local/faults/{name} switches them. */
  faultProxies?: Record<string, Pick<FaultProxy, 'control' | 'status'>>;
  /** The manifest's schedules: POST /_local/schedules/{name}/run[?time=ISO] runs one now (for that scheduled time) and answers its result. */
  schedules?: Pick<ScheduleRunner, 'run' | 'names'>;
  frontendDir?: string;
  /** Served as GET /config.json. */
  publicConfig: Record<string, unknown>;
  /** What the site's CSP allows beyond the origin (the local S3 endpoint); default: nothing. */
  siteCspSources?: SiteCspSources;
  /** Integration timeout override for tests, in ms. */
  timeoutMs?: number;
  /** The WebSocket APIs served at /_ws/<name> (name → function timeout in s); default: the manifest's socketApis. */
  socketApis?: Record<string, { timeout: number }>;
  /** Default: the manifest entry's handler. */
  loadSocketApi?: (name: string) => Promise<AnyHandler>;
  /** WebSocket limit overrides for tests (idle, connection lifetime, $connect timeout). */
  socketLimits?: SocketLimits;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

type RouteLike = { method: string; path: string; group: string; auth: AuthKind };
export type RouteMatch = MatchedRoute & { group: string; auth: AuthKind };

/**
 * A matcher over a route list, choosing as API Gateway does (http/route-match.ts: a full match
 * before a greedy one, literal segments before {variables}, a named method before ANY), with
 * decoded path parameters; a greedy {proxy+} gets the rest of the path.
 */
export function routeMatcher(list: readonly RouteLike[]): (method: string, path: string) => RouteMatch | undefined {
  const route = templateRouter(list);
  return (method, path) => {
    const found = route(method, pathSegments(path), decodePathSegment);
    if (!found) return undefined;
    return { routeKey: `${found.route.method} ${found.route.path}`, pathParameters: found.params, group: found.route.group, auth: found.route.auth };
  };
}

/** The manifest's routes: what the API-key guard allows (as the CloudFront function does) and what `npm run invoke` runs. */
export const matchRoute = routeMatcher(routes);

/**
 * The API Gateway routes the stack creates (route-plan.ts: greedy and ANY routes serving several
 * manifest routes), so events carry the routeKey and pathParameters API Gateway sends and the
 * HTTP wrapper's resolution runs locally exactly as in AWS.
 */
export const matchApiRoute = routeMatcher(routePlan());

class PayloadTooLarge extends Error {}

function lowerHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  return out;
}

/**
 * Reads the body up to the payload cap. An oversized body is still read to its end (and
 * discarded) before the 413 goes out: answering mid-upload would reset the connection and
 * the client would see a network error instead of the status.
 */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  let tooLarge = Number(req.headers['content-length'] ?? 0) > MAX_PAYLOAD_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) tooLarge = true;
    if (!tooLarge) chunks.push(chunk as Buffer);
  }
  if (tooLarge) throw new PayloadTooLarge();
  return Buffer.concat(chunks);
}

export interface Gateway {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

export function startGateway(options: GatewayOptions): Promise<Gateway> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? ((level, message) => console[level](message));
  const timeoutMs = options.timeoutMs ?? API_GATEWAY_TIMEOUT_S * 1000;

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    // An API key anywhere but the public API: 403, before routing (in AWS the CloudFront function
    // on /api/* answers this, generated from the same manifest: infra/lib/api-key-guard.ts).
    if (matchRoute(method, path)?.auth !== 'userOrApiKey' && presentedApiKey(lowerHeaders(req)) !== null) {
      return writeJson(res, 403, { success: false, message: apiKeyMessages.routeNotAllowed });
    }
    const route = matchApiRoute(method, path);
    if (!route) return writeJson(res, 404, { message: 'Not Found' });

    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof PayloadTooLarge) {
        writeJson(res, 413, { message: 'Request Entity Too Large' }, { connection: 'close' });
        return;
      }
      throw error;
    }

    let auth: EventAuth = null;
    if (route.auth === 'user') {
      auth = await authorize(req.headers.authorization, options.authorizer);
      if (!auth) return writeJson(res, 401, { message: 'Unauthorized' }, { 'www-authenticate': 'Bearer' });
    }
    if (route.auth === 'userOrApiKey') {
      // As API Gateway with a Lambda REQUEST authorizer (payload 2.0, simple responses, no
      // identity source, no result cache): a deny is 403 Forbidden, a failure 500; the context
      // reaches the function as requestContext.authorizer.lambda.
      let result: { isAuthorized?: unknown; context?: Record<string, unknown> };
      try {
        const authorizerHandler = await (options.loadApiAuthorizer ?? (() => loadEntry(apiAuthorizer.entry)))();
        const probe = buildEvent(req, Buffer.alloc(0), route, null);
        result = ((await authorizerHandler(buildAuthorizerEvent(probe), lambdaContext('agentdesk-api-authorizer', 10))) ?? {}) as typeof result;
      } catch (error) {
        log('error', `[gateway] ${route.routeKey}: API authorizer failed: ${(error as Error)?.stack ?? String(error)}`);
        return writeJson(res, 500, { message: 'Internal Server Error' });
      }
      if (result.isAuthorized !== true) return writeJson(res, 403, { message: 'Forbidden' });
      auth = { lambda: result.context ?? {} };
    }

    let handler: AnyHandler;
    try {
      handler = await options.loadGroup(route.group);
    } catch (error) {
      log('error', `[gateway] ${route.routeKey}: cannot load route group '${route.group}': ${(error as Error).message}`);
      return writeJson(res, 500, { message: 'Internal Server Error' });
    }

    const event = buildEvent(req, body, route, auth);
    const groupTimeout = (routeGroups as Record<string, { timeout?: number }>)[route.group]?.timeout;
    const limitMs = Math.min(timeoutMs, (groupTimeout ?? API_GATEWAY_TIMEOUT_S) * 1000);
    const context: Context = lambdaContext(`agentdesk-${route.group}`, limitMs / 1000);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = Symbol('timeout');
    try {
      const result = await Promise.race([
        handler(event, context),
        new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => resolve(timedOut), limitMs))),
      ]);
      if (result === timedOut) {
        log('error', `[gateway] ${route.routeKey}: integration timed out after ${limitMs} ms`);
        return writeJson(res, 503, { message: 'Service Unavailable' });
      }
      writeResult(res, result);
    } catch (error) {
      // Like Lambda + API Gateway: an uncaught error is a bare 500, details only in the log.
      log('error', `[gateway] ${route.routeKey}: handler threw: ${(error as Error)?.stack ?? String(error)}`);
      writeJson(res, 500, { message: 'Internal Server Error' });
    } finally {
      clearTimeout(timer);
    }
  }

  /** GET: the session clock; POST {advanceSeconds}: moves it forward (tests let access tokens expire). */
  async function handleClock(req: IncomingMessage, res: ServerResponse, clock: SessionClock): Promise<void> {
    const state = () => ({ now: new Date(clock.now()).toISOString(), offsetSeconds: clock.offsetSeconds() });
    if (req.method === 'GET') return writeJson(res, 200, state());
    if (req.method !== 'POST') return writeJson(res, 405, { message: 'Method Not Allowed' }, { allow: 'GET, POST' });
    let advanceSeconds: unknown;
    try {
      advanceSeconds = (JSON.parse((await readBody(req)).toString('utf8')) as { advanceSeconds?: unknown } | null)?.advanceSeconds;
    } catch {
      advanceSeconds = undefined;
    }
    if (!validClockStep(advanceSeconds)) {
      return writeJson(res, 400, { message: `advanceSeconds must be a whole number from 1 to ${MAX_ADVANCE_SECONDS}` });
    }
    await clock.advance(advanceSeconds);
    writeJson(res, 200, state());
  }

  async function handleLocalTools(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname === '/_local/clock' && options.sessionClock) return handleClock(req, res, options.sessionClock);
    // GET /_local/faults: every proxy's state; /_local/faults/{s3|ses|dynamodb}[/{id}]: one proxy's switch (fault-proxy.ts).
    const proxies = options.faultProxies;
    if (proxies && url.pathname === '/_local/faults' && req.method === 'GET') {
      return writeJson(res, 200, Object.fromEntries(Object.entries(proxies).map(([name, proxy]) => [name, proxy.status()])));
    }
    const fault = /^\/_local\/faults\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (proxies && fault && Object.hasOwn(proxies, fault[1]!)) return proxies[fault[1]!]!.control(req, res, fault[2] ?? '');
    const schedule = /^\/_local\/schedules\/([^/]+)\/run$/.exec(url.pathname);
    if (req.method === 'POST' && schedule && options.schedules?.names().includes(schedule[1]!)) {
      // ?time=<ISO>: a run for that scheduled time (schedules.ts); a malformed one is a 400.
      const time = url.searchParams.get('time') ?? undefined;
      if (time !== undefined && Number.isNaN(Date.parse(time))) return writeJson(res, 400, { message: 'time must be an ISO date-time' });
      return writeJson(res, 200, (await options.schedules.run(schedule[1]!, time)) ?? null);
    }
    if (req.method === 'GET' && url.pathname === '/_local/services' && options.services) return writeJson(res, 200, options.services());
    const dispatcher = options.dispatcher;
    if (!dispatcher) return writeJson(res, 404, { message: 'Not Found' });
    if (req.method === 'GET' && url.pathname === '/_local/dead-letters') {
      return writeJson(res, 200, dispatcher.deadLetters(url.searchParams.get('queue') ?? undefined));
    }
    // Puts the dead letters (?queue= one queue's, ?messageId= only those) back on their queues, all tries again (issue 34).
    if (req.method === 'POST' && url.pathname === '/_local/dead-letters/redrive') {
      const queue = url.searchParams.get('queue') ?? undefined;
      if (queue !== undefined && !dispatcher.hasQueue(queue)) return writeJson(res, 400, { message: `Unknown queue: ${queue}. Queues: ${dispatcher.queueNames().join(', ')}` });
      const ids = url.searchParams.getAll('messageId');
      return writeJson(res, 200, { redriven: dispatcher.redrive(queue, ids.length > 0 ? ids : undefined) });
    }
    if (req.method === 'GET' && url.pathname === '/_local/queues') {
      return writeJson(res, 200, dispatcher.stats());
    }
    // The last messages sent to a queue (?queue= filters): tests check what a handler enqueued.
    if (req.method === 'GET' && url.pathname === '/_local/queues/sent') {
      return writeJson(res, 200, dispatcher.sent(url.searchParams.get('queue') ?? undefined));
    }
    // Tests call this to wait until every queued message has been processed.
    if (req.method === 'POST' && url.pathname === '/_local/queues/drain') {
      await dispatcher.drain();
      return writeJson(res, 200, dispatcher.stats());
    }
    writeJson(res, 404, { message: 'Not Found' });
  }

  // The security headers CloudFront adds in AWS (infra/lib/site.ts), from the same definitions.
  const siteHeaders = siteSecurityHeaders(options.siteCspSources ?? { uploads: [] });

  const sockets = socketGateway({
    apis: options.socketApis ?? socketApis,
    load: options.loadSocketApi ?? loadSocketApi,
    limits: options.socketLimits,
    log,
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://local');
    } catch {
      // A request target no URL can hold (e.g. '//host:99999/api'): the client's fault, not a 500.
      return writeJson(res, 400, { message: 'Bad Request' });
    }
    if (url.pathname.startsWith(SOCKET_PATH_PREFIX)) {
      for (const [name, value] of Object.entries(apiSecurityHeaders)) res.setHeader(name, value);
      if (await sockets.handleHttp(req, res, url)) return;
      return writeJson(res, 404, { message: 'Not Found' });
    }
    const isApi = url.pathname.startsWith('/api/') || url.pathname === '/api';
    for (const [name, value] of Object.entries(isApi ? apiSecurityHeaders : siteHeaders)) res.setHeader(name, value);
    if (isApi) return handleApi(req, res, url.pathname);
    if (url.pathname.startsWith('/_local/')) return handleLocalTools(req, res, url);
    if (url.pathname === '/config.json' && (req.method === 'GET' || req.method === 'HEAD')) {
      return writeJson(res, 200, options.publicConfig, { 'cache-control': 'no-cache' });
    }
    if (options.frontendDir) return serveStatic(req, res, options.frontendDir);
    writeJson(res, 404, { message: 'Not Found' });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log('error', `[gateway] ${req.method} ${req.url}: ${(error as Error)?.stack ?? String(error)}`);
      if (!res.headersSent) writeJson(res, 500, { message: 'Internal Server Error' });
      else res.destroy();
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (sockets.handleUpgrade(req, socket, head)) return;
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS; // longer than any client keeps an idle socket (fake-http.ts)
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolve({
        url: `http://${host}:${port}`,
        server,
        stop: () =>
          new Promise<void>((done) => {
            sockets.close();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
