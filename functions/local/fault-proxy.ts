/**
 * A switchable HTTP proxy the local stack can put in front of s3rver, the SES mailbox and
 * DynamoDB Local (startLocalStack's `faultProxies`), so the handlers and workers reach those
 * services through it while the tests' own seeding and reads keep the direct endpoints (issue 34).
 * Normally it passes every request through untouched (the Host header too, so SigV4 and presigned
 * URLs stay valid); switched, it makes the service look down:
 *
 *   pass     forward everything (clears every fault)
 *   refuse   stop listening and drop open connections: new connections get ECONNREFUSED,
 *            as from a stopped DynamoDB Local (time-based only, every request)
 *   error    answer the service's own error: S3's XML <Error><Code>, DynamoDB's
 *            {__type, message}, SESv2's x-amzn-ErrorType + {message}; 500 by default
 *   hang     hold requests unanswered until the fault ends (then forward them) or the client gives up
 *   drop     destroy the connection of each request (a reset mid-request)
 *
 * Switched with the gateway's /_local/faults/{s3|ses|dynamodb} (POST {state, forMs?, times?,
 * match?, status?, code?, message?, retryAfter?, headers?}; GET; DELETE): the same fault registry
 * as the fakes' failure switches (faults.ts), so `forMs` / `times` / `match` mean the same,
 * and match.bodyIncludes lets a test fault only the requests that carry its own ids while other
 * tests share the stack.
 */
import { randomBytes } from 'node:crypto';
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { IDLE_KEEP_ALIVE_MS, readBody, sendJson } from './fake-http.js';
import { FaultInputError, FaultRegistry, faultHeaders, handleFaultControl, type FaultAnswer, type FaultState } from './faults.js';

export type ProxiedService = 's3' | 'ses' | 'dynamodb';
export const PROXIED_SERVICES: readonly ProxiedService[] = ['s3', 'ses', 'dynamodb'];
export type ProxyFaultKind = 'refuse' | 'error' | 'hang' | 'drop';
const KINDS: readonly ProxyFaultKind[] = ['refuse', 'error', 'hang', 'drop'];

/** An error answer as the service writes it. */
export interface ServiceError {
  status: number;
  body: string;
  headers: Record<string, string>;
}

const requestId = () => randomBytes(16).toString('hex').toUpperCase();
const xmlEscape = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** AWS's common errors by status: InternalFailure 500, ServiceUnavailable 503, ThrottlingException 400/429. */
const AWS_COMMON: Record<number, { code: string; message: string }> = {
  500: { code: 'InternalFailure', message: 'The request processing has failed because of an unknown error, exception or failure.' },
  503: { code: 'ServiceUnavailable', message: 'The request has failed due to a temporary failure of the server.' },
  429: { code: 'TooManyRequestsException', message: 'Too many requests have been made to the operation.' },
  400: { code: 'ThrottlingException', message: 'Rate exceeded' },
};

/** The error body and headers each proxied service answers with. */
export function serviceFaultError(service: ProxiedService, spec: FaultAnswer): ServiceError {
  const status = spec.status ?? 500;
  const id = requestId();
  if (service === 's3') {
    const s3: Record<number, { code: string; message: string }> = {
      500: { code: 'InternalError', message: 'We encountered an internal error. Please try again.' },
      503: { code: 'SlowDown', message: 'Please reduce your request rate.' },
      403: { code: 'AccessDenied', message: 'Access Denied' },
    };
    const known = s3[status] ?? { code: status >= 500 ? 'ServiceUnavailable' : 'InvalidRequest', message: 'Fault injected by the test' };
    const code = spec.code !== undefined ? String(spec.code) : known.code;
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${xmlEscape(code)}</Code><Message>${xmlEscape(spec.message ?? known.message)}</Message><RequestId>${id.slice(0, 16)}</RequestId><HostId>${randomBytes(32).toString('base64')}</HostId></Error>`;
    return { status, body, headers: { 'content-type': 'application/xml', 'x-amz-request-id': id.slice(0, 16) } };
  }
  if (service === 'dynamodb') {
    const dynamo: Record<number, { code: string; message: string }> = {
      500: { code: 'InternalServerError', message: 'Internal server error' },
      503: { code: 'ServiceUnavailable', message: 'The service is currently unavailable or busy.' },
      400: { code: 'ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.' },
    };
    const known = dynamo[status] ?? AWS_COMMON[status] ?? { code: 'InternalServerError', message: 'Fault injected by the test' };
    const code = spec.code !== undefined ? String(spec.code) : known.code;
    return {
      status,
      body: JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${code}`, message: spec.message ?? known.message }),
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': id },
    };
  }
  // SESv2 (REST-JSON): the code in x-amzn-ErrorType, the text in the body.
  const known = AWS_COMMON[status] ?? { code: status >= 500 ? 'InternalFailure' : 'BadRequestException', message: 'Fault injected by the test' };
  const code = spec.code !== undefined ? String(spec.code) : known.code;
  return {
    status,
    body: JSON.stringify({ message: spec.message ?? known.message }),
    headers: { 'content-type': 'application/json', 'x-amzn-errortype': code, 'x-amzn-requestid': id },
  };
}

export interface FaultProxyOptions {
  service: ProxiedService;
  host?: string;
  /** 0 or missing: any free port. */
  port?: number;
  upstream: { host: string; port: number };
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface FaultProxyStatus {
  service: ProxiedService;
  /** 'pass', or the kind of the first active fault. */
  state: 'pass' | ProxyFaultKind;
  /** Whether the proxy accepts connections right now ('refuse' closes it). */
  listening: boolean;
  faults: FaultState<ProxyFaultKind>[];
}

export interface FaultProxy {
  service: ProxiedService;
  /** http://127.0.0.1:<port>: the endpoint the app is given instead of the service's. */
  endpoint: string;
  port: number;
  registry: FaultRegistry<ProxyFaultKind>;
  status(): FaultProxyStatus;
  /** The control API: GET status, POST {state, …}, DELETE (all) or DELETE /{id}; `rest` is the path after the proxy's name. */
  control(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void>;
  stop(): Promise<void>;
}

const MAX_CONTROL_BODY = 64 * 1024;

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const host = options.host ?? '127.0.0.1';
  const { service } = options;
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  let stopped = false;
  let listening = false;
  // Listening changes one at a time, in the order asked.
  let switching: Promise<void> = Promise.resolve();

  const registry: FaultRegistry<ProxyFaultKind> = new FaultRegistry<ProxyFaultKind>({
    kinds: KINDS,
    answering: ['error'],
    whole: ['refuse'],
    onChange: () => {
      switching = switching.then(applyListening, applyListening);
    },
  });
  const refusing = () => registry.active().some((f) => f.kind === 'refuse');

  function forward(req: IncomingMessage, res: ServerResponse, body?: Buffer): void {
    const headers = { ...req.headers };
    // Node already answered "100 Continue" to the client.
    delete headers.expect;
    if (body) {
      delete headers['transfer-encoding'];
      headers['content-length'] = String(body.length);
    }
    const upstream = request({ host: options.upstream.host, port: options.upstream.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    // The service itself is unreachable: the client sees a failed connection, as without the proxy.
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Read whole only when a fault looks into bodies (match.bodyIncludes); else streamed through.
    const body = registry.needsBody() ? await readAll(req) : undefined;
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    for (;;) {
      const taken = registry.take({ method: req.method ?? 'GET', paths: [path], key: '', ...(body ? { body: body.toString('utf8') } : {}) });
      if (!taken) return forward(req, res, body);
      const { spec } = taken;
      if (spec.kind === 'error') {
        taken.release();
        const error = serviceFaultError(service, spec);
        if (!body) req.resume();
        const text = spec.body !== undefined ? (typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body)) : error.body;
        const head = req.method === 'HEAD';
        res.writeHead(error.status, { ...faultHeaders(spec, error.headers), 'content-length': String(head ? 0 : Buffer.byteLength(text)) });
        res.end(head ? undefined : text);
        return;
      }
      if (spec.kind === 'drop' || spec.kind === 'refuse') {
        // 'refuse' here: a request that arrived just before the listener closed.
        taken.release();
        req.socket.destroy();
        return;
      }
      const left = new Promise<'left'>((resolve) => res.once('close', () => resolve('left')));
      const outcome = await Promise.race([taken.over.then(() => 'over' as const), left]);
      taken.release();
      if (outcome === 'left' || res.destroyed) return;
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log?.('error', `[faults] ${service} proxy: ${(error as Error).message}`);
      res.destroy();
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS; // longer than any client keeps an idle socket (fake-http.ts)
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const port = await listen(options.port ?? 0);
  listening = true;

  async function applyListening(): Promise<void> {
    if (stopped) return;
    const refuse = refusing();
    if (refuse && listening) {
      listening = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      options.log?.('info', `[faults] ${service} proxy refusing connections`);
    } else if (!refuse && !listening) {
      // Back on the same port: the app's endpoint does not change. Someone may have taken the
      // port meanwhile (unlikely on loopback); retry for a while rather than give up.
      for (let attempt = 0; ; attempt++) {
        try {
          await listen(port);
          listening = true;
          options.log?.('info', `[faults] ${service} proxy accepting connections again`);
          return;
        } catch (error) {
          if (attempt >= 50 || stopped) {
            options.log?.('error', `[faults] ${service} proxy cannot listen on ${port} again: ${(error as Error).message}`);
            return;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
  }

  const status = (): FaultProxyStatus => {
    const active = registry.active();
    return { service, state: active[0]?.kind ?? 'pass', listening, faults: registry.list() };
  };

  async function control(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const id = rest.replace(/^\/+|\/+$/g, '');
    if (method === 'GET' && !id) return sendJson(res, 200, status());
    if (method === 'DELETE') {
      await handleFaultControl(registry, req, res, rest);
      await switching;
      return;
    }
    if (method !== 'POST' || id) return sendJson(res, 405, { error: { message: `${method} is not a fault proxy control call (GET, POST {state, …}, DELETE, DELETE /{id})` } });
    try {
      const text = await readBody(req, MAX_CONTROL_BODY, () => new FaultInputError('the body is too large'));
      let input: unknown;
      try {
        input = JSON.parse(text || 'null');
      } catch {
        throw new FaultInputError('the body is not JSON');
      }
      if (!input || typeof input !== 'object' || Array.isArray(input)) throw new FaultInputError('the body is a JSON object {state, forMs?, times?, match?, status?, …}');
      const { state, ...fault } = input as Record<string, unknown>;
      if (state === 'pass') {
        if (Object.keys(fault).length) throw new FaultInputError("'pass' takes no other field: it clears every fault");
        registry.clear();
      } else {
        if (typeof state !== 'string' || !KINDS.includes(state as ProxyFaultKind)) throw new FaultInputError(`state must be one of pass, ${KINDS.join(', ')}`);
        registry.arm({ ...fault, kind: state });
      }
      // Answer once a 'refuse' has really closed the port (or a 'pass' reopened it).
      await switching;
      sendJson(res, 200, status());
    } catch (error) {
      if (!(error instanceof FaultInputError)) throw error;
      sendJson(res, 400, { error: { message: error.message } });
    }
  }

  return {
    service,
    endpoint: `http://${host}:${port}`,
    port,
    registry,
    status,
    control,
    async stop() {
      if (stopped) return;
      stopped = true;
      registry.close();
      await switching;
      for (const socket of sockets) socket.destroy();
      if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
