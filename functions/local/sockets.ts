/**
 * The local API Gateway WebSocket APIs (routes.ts `socketApis`), served by the local gateway on
 * its own origin:
 *
 *   ws://<gateway>/_ws/<name>?…                        the API's endpoint (the query string reaches $connect)
 *   POST|GET|DELETE <gateway>/_ws/<name>/@connections/{connectionId}
 *                                                      the connection-posting API (what
 *                                                      @aws-sdk/client-apigatewaymanagementapi calls with
 *                                                      endpoint = http://<gateway>/_ws/<name>)
 *
 * As in AWS: the upgrade request runs the function's $connect route first and a non-2xx result
 * refuses the handshake with that status; every frame is one $default invocation, run
 * concurrently (a slow frame does not hold the next one back); a close runs $disconnect. The
 * events follow API Gateway's WebSocket format (original header case, multiValueHeaders, query
 * parameters, requestContext with connectionId, eventType, messageId…). Limits: 128 KB per
 * message (close 1009), 10 min idle and 2 h per connection (close 1001), 29 s for $connect.
 * When a function invocation throws, the client gets API Gateway's "Internal server error" frame.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { apiGatewayTime, writeJson } from './api-event.js';
import { HandlerNotFoundError, type AnyHandler } from './handlers.js';
import { lambdaContext } from './sqs-dispatcher.js';

export const SOCKET_PATH_PREFIX = '/_ws/';
/** API Gateway's WebSocket message payload limit. */
export const MAX_MESSAGE_BYTES = 128 * 1024;
export const IDLE_TIMEOUT_MS = 10 * 60 * 1000;
export const MAX_CONNECTION_MS = 2 * 60 * 60 * 1000;
/** API Gateway's integration timeout: $connect must answer within it. */
export const CONNECT_TIMEOUT_MS = 29 * 1000;

export interface SocketLimits {
  idleTimeoutMs?: number;
  maxConnectionMs?: number;
  connectTimeoutMs?: number;
}

export interface SocketGatewayOptions {
  /** The WebSocket APIs served: name → the function's timeout (seconds). */
  apis: Record<string, { timeout: number }>;
  load: (name: string) => Promise<AnyHandler>;
  limits?: SocketLimits;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface SocketGateway {
  /** Takes an upgrade request for /_ws/<name>; false when the path is not a served API. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Serves /_ws/<name>/@connections/{id}; false when the path is not one. */
  handleHttp(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
  /** Open connections (all APIs). */
  connectionCount(): number;
  /** Drops every connection without running $disconnect (the stack is stopping). */
  close(): void;
}

interface Connection {
  id: string;
  api: string;
  ws: WebSocket;
  connectedAt: number;
  lastActiveAt: number;
  sourceIp: string;
  userAgent: string;
  domainName: string;
  idleTimer?: NodeJS.Timeout;
  lifeTimer?: NodeJS.Timeout;
}

/** API Gateway connection ids look like 'L0SM9cOFvHcCIhw=': 10 random bytes, base64. */
const newConnectionId = () => randomBytes(10).toString('base64');
const newMessageId = () => randomBytes(10).toString('base64');
const newExtendedRequestId = () => randomBytes(10).toString('base64').replace(/[+/=]/g, 'A');

function sourceIpOf(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
}

/** Headers as the WebSocket API passes them: the client's case kept, repeats comma-joined and listed. */
function connectHeaders(req: IncomingMessage): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } {
  const multiValueHeaders: Record<string, string[]> = {};
  const names = new Map<string, string>();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const raw = req.rawHeaders[i] ?? '';
    const name = names.get(raw.toLowerCase()) ?? raw;
    names.set(raw.toLowerCase(), name);
    (multiValueHeaders[name] ??= []).push(req.rawHeaders[i + 1] ?? '');
  }
  const add = (name: string, value: string) => {
    if (!names.has(name.toLowerCase())) {
      names.set(name.toLowerCase(), name);
      multiValueHeaders[name] = [value];
    }
  };
  add('X-Amzn-Trace-Id', `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`);
  add('X-Forwarded-For', sourceIpOf(req));
  add('X-Forwarded-Port', String(req.socket.localPort ?? ''));
  add('X-Forwarded-Proto', 'http');
  const headers = Object.fromEntries(Object.entries(multiValueHeaders).map(([k, v]) => [k, v.join(',')]));
  return { headers, multiValueHeaders };
}

/** Query parameters as the WebSocket API passes them: the last repeat wins, all repeats listed; absent when none. */
function connectQuery(url: URL): Record<string, unknown> {
  if ([...url.searchParams.keys()].length === 0) return {};
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) {
    single[key] = value;
    (multi[key] ??= []).push(value);
  }
  return { queryStringParameters: single, multiValueQueryStringParameters: multi };
}

function refuse(socket: Duplex, status: number, body = ''): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const text = typeof body === 'string' ? body : '';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Connection: close\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}

export function socketGateway(options: SocketGatewayOptions): SocketGateway {
  const { log } = options;
  const idleTimeoutMs = options.limits?.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const maxConnectionMs = options.limits?.maxConnectionMs ?? MAX_CONNECTION_MS;
  const connectTimeoutMs = options.limits?.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  // maxPayload: a bigger message closes the connection with 1009, as API Gateway does.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const connections = new Map<string, Connection>();
  let closing = false;

  const apiOf = (pathname: string): string | undefined => {
    const name = decodeURIComponent(pathname.slice(SOCKET_PATH_PREFIX.length));
    return Object.hasOwn(options.apis, name) ? name : undefined;
  };

  function requestContext(
    conn: Pick<Connection, 'id' | 'api' | 'connectedAt' | 'sourceIp' | 'userAgent' | 'domainName'>,
    routeKey: string,
    eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT',
  ) {
    const now = new Date();
    return {
      routeKey,
      ...(eventType === 'MESSAGE' ? { messageId: newMessageId() } : {}),
      eventType,
      extendedRequestId: newExtendedRequestId(),
      requestTime: apiGatewayTime(now),
      messageDirection: 'IN' as const,
      // The stage path of the API's URL: https://{domainName}/{stage} is the connection-posting
      // endpoint in AWS, http://{domainName}/{stage} here.
      stage: `_ws/${conn.api}`,
      connectedAt: conn.connectedAt,
      requestTimeEpoch: now.getTime(),
      identity: { sourceIp: conn.sourceIp, ...(conn.userAgent ? { userAgent: conn.userAgent } : {}) },
      requestId: randomUUID(),
      domainName: conn.domainName,
      connectionId: conn.id,
      apiId: conn.api,
    };
  }

  /** Runs the API's function once; resolves with its result, rejects with its error (or a load failure). */
  async function invoke(api: string, event: Record<string, unknown>): Promise<unknown> {
    const handler = await options.load(api);
    const timeout = options.apis[api]!.timeout;
    const routeKey = (event.requestContext as { routeKey: string }).routeKey;
    // Lambda would stop the function at its timeout; locally it runs on, but the log says so.
    const overrun = setTimeout(() => log('error', `[sockets] ${api} ${routeKey}: the function ran past its ${timeout} s timeout`), timeout * 1000);
    try {
      return await handler(event, lambdaContext(`agentdesk-${api}`, timeout));
    } finally {
      clearTimeout(overrun);
    }
  }

  function touch(conn: Connection): void {
    conn.lastActiveAt = Date.now();
    clearTimeout(conn.idleTimer);
    conn.idleTimer = setTimeout(() => conn.ws.close(1001, 'Going away'), idleTimeoutMs);
  }

  function onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    touch(conn);
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    const context = requestContext(conn, '$default', 'MESSAGE');
    const event = {
      requestContext: context,
      // Binary frames reach the function base64-encoded.
      body: isBinary ? bytes.toString('base64') : bytes.toString('utf8'),
      isBase64Encoded: isBinary,
    };
    // Not awaited: frames run side by side, each its own invocation.
    invoke(conn.api, event).catch((error: unknown) => {
      log('error', `[sockets] ${conn.api} $default (${conn.id}): ${(error as Error)?.stack ?? String(error)}`);
      if (conn.ws.readyState === conn.ws.OPEN) {
        conn.ws.send(JSON.stringify({ message: 'Internal server error', connectionId: conn.id, requestId: context.requestId }));
      }
    });
  }

  function onClose(conn: Connection, code: number, reason: Buffer): void {
    connections.delete(conn.id);
    clearTimeout(conn.idleTimer);
    clearTimeout(conn.lifeTimer);
    if (closing) return;
    const event = {
      headers: { Host: conn.domainName, 'X-Forwarded-For': conn.sourceIp, 'X-Forwarded-Proto': 'http' },
      multiValueHeaders: { Host: [conn.domainName], 'X-Forwarded-For': [conn.sourceIp], 'X-Forwarded-Proto': ['http'] },
      requestContext: { ...requestContext(conn, '$disconnect', 'DISCONNECT'), disconnectStatusCode: code, disconnectReason: reason.toString('utf8') },
      isBase64Encoded: false,
    };
    invoke(conn.api, event).catch((error: unknown) => {
      log('error', `[sockets] ${conn.api} $disconnect (${conn.id}): ${(error as Error)?.stack ?? String(error)}`);
    });
  }

  async function connect(api: string, req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> {
    const { headers, multiValueHeaders } = connectHeaders(req);
    const base = {
      id: newConnectionId(),
      api,
      connectedAt: Date.now(),
      sourceIp: sourceIpOf(req),
      userAgent: req.headers['user-agent'] ?? '',
      domainName: req.headers.host ?? 'localhost',
    };
    const event = { headers, multiValueHeaders, ...connectQuery(url), requestContext: requestContext(base, '$connect', 'CONNECT'), isBase64Encoded: false };

    let timer: NodeJS.Timeout | undefined;
    const timedOut = Symbol('timeout');
    let result: unknown;
    try {
      result = await Promise.race([
        invoke(api, event),
        new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => resolve(timedOut), connectTimeoutMs))),
      ]);
    } catch (error) {
      const missing = error instanceof HandlerNotFoundError;
      log('error', `[sockets] ${api} $connect: ${missing ? (error as Error).message : ((error as Error)?.stack ?? String(error))}`);
      return refuse(socket, 502, JSON.stringify({ message: 'Internal server error' }));
    } finally {
      clearTimeout(timer);
    }
    if (result === timedOut) {
      log('error', `[sockets] ${api} $connect: integration timed out after ${connectTimeoutMs} ms`);
      return refuse(socket, 504, JSON.stringify({ message: 'Endpoint request timed out' }));
    }
    const r = (result ?? {}) as { statusCode?: unknown; body?: unknown };
    const status = typeof r.statusCode === 'number' ? r.statusCode : 200;
    if (status < 200 || status > 299) return refuse(socket, status, typeof r.body === 'string' ? r.body : '');
    // The caller may have given up while $connect ran.
    if (socket.destroyed) return;

    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn: Connection = { ...base, ws, lastActiveAt: Date.now() };
      connections.set(conn.id, conn);
      touch(conn);
      conn.lifeTimer = setTimeout(() => ws.close(1001, 'Going away'), maxConnectionMs);
      ws.on('message', (data, isBinary) => onMessage(conn, data, isBinary));
      ws.on('close', (code, reason) => onClose(conn, code, reason));
      ws.on('error', (error) => log('warn', `[sockets] ${api} connection ${conn.id}: ${error.message}`));
    });
  }

  async function readBody(req: IncomingMessage): Promise<Buffer | null> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size <= MAX_MESSAGE_BYTES) chunks.push(chunk as Buffer);
    }
    return size > MAX_MESSAGE_BYTES ? null : Buffer.concat(chunks);
  }

  const awsError = (res: ServerResponse, status: number, type: string, message: string | null) =>
    writeJson(res, status, { message }, { 'x-amzn-errortype': type, 'x-amzn-requestid': randomUUID() });

  /**
   * The connection-posting API. The SDK signs its requests with SigV4; they are accepted without
   * checking the signature (there are no real credentials locally; IAM is tested in infra/).
   */
  async function handleHttp(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const m = /^\/_ws\/([^/]+)\/@connections\/([^/]+)$/.exec(url.pathname);
    if (!m) return false;
    const api = apiOf(`${SOCKET_PATH_PREFIX}${m[1]}`);
    if (!api) return false;
    let id: string;
    try {
      id = decodeURIComponent(m[2]!);
    } catch {
      id = m[2]!;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const body = await readBody(req);
    const conn = connections.get(id);
    const open = conn && conn.api === api && conn.ws.readyState === conn.ws.OPEN ? conn : undefined;
    if (method === 'POST') {
      if (body === null) {
        awsError(res, 413, 'PayloadTooLargeException', 'Message too long');
        return true;
      }
      if (!open) {
        awsError(res, 410, 'GoneException', null);
        return true;
      }
      open.ws.send(body.toString('utf8'));
      touch(open);
      res.writeHead(200, { 'content-length': '0', 'x-amzn-requestid': randomUUID() });
      res.end();
      return true;
    }
    if (method === 'DELETE') {
      if (!open) {
        awsError(res, 410, 'GoneException', null);
        return true;
      }
      open.ws.close(1000);
      res.writeHead(204, { 'x-amzn-requestid': randomUUID() });
      res.end();
      return true;
    }
    if (method === 'GET') {
      if (!open) {
        awsError(res, 410, 'GoneException', null);
        return true;
      }
      writeJson(res, 200, {
        connectedAt: new Date(open.connectedAt).toISOString(),
        identity: { sourceIp: open.sourceIp, userAgent: open.userAgent },
        lastActiveAt: new Date(open.lastActiveAt).toISOString(),
      });
      return true;
    }
    writeJson(res, 405, { message: 'Method Not Allowed' });
    return true;
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://local');
    if (!url.pathname.startsWith(SOCKET_PATH_PREFIX)) return false;
    const api = apiOf(url.pathname);
    if (!api || closing) return false;
    socket.on('error', () => undefined);
    connect(api, req, socket, head, url).catch((error: unknown) => {
      log('error', `[sockets] ${api} $connect: ${(error as Error)?.stack ?? String(error)}`);
      refuse(socket, 500);
    });
    return true;
  }

  return {
    handleUpgrade,
    handleHttp,
    connectionCount: () => connections.size,
    close: () => {
      closing = true;
      for (const conn of connections.values()) {
        clearTimeout(conn.idleTimer);
        clearTimeout(conn.lifeTimer);
        conn.ws.terminate();
      }
      connections.clear();
      wss.close();
    },
  };
}
