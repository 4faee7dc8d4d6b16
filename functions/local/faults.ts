/**
 * Failure switches (issue 34): the one implementation the loopback fakes (OpenAI, WhatsApp Graph,
 * Twilio, Stripe) and the fault proxy in front of s3rver / the SES mailbox / DynamoDB Local
 * (fault-proxy.ts) share, so a test can make any dependency answer an error, hang or drop the
 * connection, for a number of requests or for a while, and then recover. See README.md here.
 *
 * A fault is armed with a JSON object (POST /_test/faults on a fake):
 *
 *   { id?, kind, match?, times?, forMs?,                    // which requests, for how long
 *     status?, code?, subcode?, type?, message?, body?,     // kind 'status': the error answered
 *     retryAfter?, headers? }                               //   and its extra headers
 *
 * - kind 'status' answers `status` with the provider's own error body (each fake shapes it from
 *   status / code / subcode / type / message: Meta's {error: {message, type, code, error_subcode,
 *   error_data, fbtrace_id}}, OpenAI's {error: {message, type, param, code}}, Twilio's {code,
 *   message, more_info, status}); `body` replaces that body; `retryAfter` (seconds, or an HTTP
 *   date) is sent as Retry-After. 'hang' holds the request unanswered until the fault is cleared
 *   or its time is up (then the request is served as if nothing happened), or the client gives up.
 *   'drop' destroys the connection (the client sees a reset / "socket hang up").
 * - match: 'all' (default) or {method?, path?, key?, bodyIncludes?}: `path` is a glob on the URL
 *   path ('*' any characters but '/', '**' anything; the fakes also try it without their version
 *   prefix, so '/chat/completions' and '/v1/chat/completions' both work); `key` is the request's
 *   credential (Bearer token, api-key header, or basic auth's user: a Twilio account sid), so
 *   parallel tests can fault their own traffic only; `bodyIncludes` (the proxy only) a substring
 *   of the request body.
 * - times: the fault takes that many requests, then stops (count-based); forMs: it stops that
 *   long after it was armed (time-based); both: whichever comes first; neither: until cleared.
 *
 * The first active fault (in the order armed) that matches a request takes it. A fault that has
 * stopped stays listed (active: false, with its hits) until cleared.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from './fake-http.js';

export interface FaultMatch {
  /** HTTP method (any case); omitted or '*' = any. */
  method?: string;
  /** Glob on the URL path: '*' = any characters but '/', '**' = anything. */
  path?: string;
  /** The request's credential: Bearer token, api-key header, or basic auth's user name. */
  key?: string;
  /** A substring of the request body (the fault proxy only: the fakes read their own bodies). */
  bodyIncludes?: string;
}

/** What a kind 'status' (or the proxy's 'error') fault answers with, before the provider shapes it. */
export interface FaultAnswer {
  status?: number;
  /** The provider's error code: Meta 131047 / 190, OpenAI 'rate_limit_exceeded', Twilio 20003, AWS 'ServiceUnavailable'. */
  code?: number | string;
  subcode?: number;
  type?: string;
  message?: string;
  /** Replaces the provider-shaped body. */
  body?: unknown;
  /** Retry-After: whole or fractional seconds, or an HTTP date. */
  retryAfter?: number | string;
  headers?: Record<string, string>;
}

export interface FaultSpec<K extends string = string> extends FaultAnswer {
  id: string;
  kind: K;
  match: FaultMatch | 'all';
  times?: number;
  forMs?: number;
}

/** A fault as GET lists it. */
export interface FaultState<K extends string = string> extends FaultSpec<K> {
  armedAt: string;
  expiresAt?: string;
  /** Requests this fault took. */
  hits: number;
  /** Requests it is holding right now (kind 'hang'). */
  held: number;
  active: boolean;
  /** Why it stopped: 'used' (its times are spent) or 'expired' (its forMs is over). */
  ended?: 'used' | 'expired';
}

/** The request as a fault sees it. */
export interface FaultRequest {
  method: string;
  /** The raw path and any normalised forms (e.g. without the fake's version prefix). */
  paths: string[];
  key: string;
  body?: string;
}

/** A malformed fault: the control API answers it 400. */
export class FaultInputError extends Error {}

const MAX_FAULTS = 200;
const MAX_FOR_MS = 24 * 3600_000;
const ANSWER_FIELDS = ['status', 'code', 'subcode', 'type', 'message', 'body', 'retryAfter', 'headers'] as const;
const FIELDS = new Set(['id', 'kind', 'match', 'times', 'forMs', ...ANSWER_FIELDS]);
const MATCH_FIELDS = new Set(['method', 'path', 'key', 'bodyIncludes']);

/** '/v21.0/*\/messages' → ^/v21\.0/[^/]*\/messages$ */
function globRegExp(glob: string): RegExp {
  const source = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The credential a request carries: Bearer token, Azure-style api-key, or basic auth's user name. */
export function requestKey(req: IncomingMessage): string {
  const auth = req.headers.authorization ?? '';
  const bearer = /^Bearer\s+(.+)$/i.exec(auth);
  if (bearer?.[1]) return bearer[1].trim();
  const basic = /^Basic\s+(.+)$/i.exec(auth);
  if (basic?.[1]) return Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0] ?? '';
  const apiKey = req.headers['api-key'];
  return typeof apiKey === 'string' ? apiKey.trim() : '';
}

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

interface Armed<K extends string> {
  spec: FaultSpec<K>;
  armedAt: number;
  expiresAt?: number;
  hits: number;
  held: number;
  ended?: 'used' | 'expired' | 'cleared';
  path?: RegExp;
  timer?: NodeJS.Timeout;
  /** Resolves when the fault is cleared or its time is up (a held request is then let go). */
  over: Promise<void>;
  finish: () => void;
}

export interface FaultRegistryOptions<K extends string> {
  kinds: readonly K[];
  /** Kinds that answer an error (take the answer fields). */
  answering: readonly K[];
  /** Kinds that cannot be scoped to some requests or counted (the proxy's 'refuse'). */
  whole?: readonly K[];
  /** Called when the set of active faults changes (armed, cleared, used up, expired). */
  onChange?: () => void;
  now?: () => number;
}

/** The armed faults of one fake or proxy. */
export class FaultRegistry<K extends string = string> {
  private readonly faults: Armed<K>[] = [];
  private nextId = 1;
  private readonly now: () => number;

  constructor(private readonly options: FaultRegistryOptions<K>) {
    this.now = options.now ?? Date.now;
  }

  /** Validates and arms a fault (an id already armed is replaced); FaultInputError when malformed. */
  arm(input: unknown): FaultState<K> {
    const spec = this.parse(input);
    const existing = this.faults.findIndex((f) => f.spec.id === spec.id);
    if (existing >= 0) this.stop(this.faults.splice(existing, 1)[0]!, 'cleared');
    let finish!: () => void;
    const over = new Promise<void>((resolve) => (finish = resolve));
    const armedAt = this.now();
    const fault: Armed<K> = {
      spec,
      armedAt,
      ...(spec.forMs !== undefined ? { expiresAt: armedAt + spec.forMs } : {}),
      hits: 0,
      held: 0,
      ...(spec.match !== 'all' && spec.match.path ? { path: globRegExp(spec.match.path) } : {}),
      over,
      finish,
    };
    if (spec.forMs !== undefined) {
      fault.timer = setTimeout(() => this.stop(fault, 'expired'), spec.forMs);
      fault.timer.unref();
    }
    this.faults.push(fault);
    // Forget the oldest stopped faults past the cap.
    while (this.faults.length > MAX_FAULTS) {
      const old = this.faults.findIndex((f) => f.ended);
      if (old < 0) break;
      this.faults.splice(old, 1);
    }
    this.options.onChange?.();
    return this.view(fault);
  }

  /** Clears one fault (or all): held requests go on. Returns how many were cleared. */
  clear(id?: string): number {
    const gone = this.faults.filter((f) => id === undefined || f.spec.id === id);
    for (const fault of gone) {
      this.faults.splice(this.faults.indexOf(fault), 1);
      this.stop(fault, 'cleared');
    }
    if (gone.length) this.options.onChange?.();
    return gone.length;
  }

  list(): FaultState<K>[] {
    return this.faults.map((f) => this.view(f));
  }

  /** The active faults, oldest first. */
  active(): FaultSpec<K>[] {
    return this.faults.filter((f) => this.isActive(f)).map((f) => f.spec);
  }

  /** True when some active fault needs the request body to decide. */
  needsBody(): boolean {
    return this.faults.some((f) => this.isActive(f) && f.spec.match !== 'all' && f.spec.match.bodyIncludes !== undefined);
  }

  /**
   * The first active fault matching the request, which takes it (one of its `times`); for a
   * 'hang', `over` resolves when the request may go on.
   */
  take(request: FaultRequest): { spec: FaultSpec<K>; over: Promise<void>; release: () => void } | undefined {
    const fault = this.faults.find((f) => this.isActive(f) && this.matches(f, request));
    if (!fault) return undefined;
    fault.hits += 1;
    if (fault.spec.times !== undefined && fault.hits >= fault.spec.times) {
      // Takes no more requests; a used-up hang still holds what it took until it is cleared or its time is up.
      fault.ended = 'used';
      this.options.onChange?.();
    }
    fault.held += 1;
    let released = false;
    return {
      spec: fault.spec,
      over: fault.over,
      release: () => {
        if (released) return;
        released = true;
        fault.held -= 1;
      },
    };
  }

  /** Stops every timer and lets every held request go (the fake or proxy is closing). */
  close(): void {
    for (const fault of this.faults.splice(0)) this.stop(fault, 'cleared');
  }

  private isActive(fault: Armed<K>): boolean {
    if (fault.ended) return false;
    if (fault.expiresAt !== undefined && this.now() >= fault.expiresAt) {
      this.stop(fault, 'expired');
      return false;
    }
    return true;
  }

  /** Ends a fault for good: no more requests, and the requests it holds go on. */
  private stop(fault: Armed<K>, why: 'expired' | 'cleared'): void {
    clearTimeout(fault.timer);
    const wasActive = !fault.ended;
    // A fault used up before its time keeps saying so.
    if (fault.ended !== 'used') fault.ended = why;
    fault.finish();
    if (wasActive && why === 'expired') this.options.onChange?.();
  }

  private matches(fault: Armed<K>, request: FaultRequest): boolean {
    const { match } = fault.spec;
    if (match === 'all') return true;
    if (match.method && match.method !== '*' && match.method.toUpperCase() !== request.method.toUpperCase()) return false;
    if (fault.path && !request.paths.some((p) => fault.path!.test(p))) return false;
    if (match.key !== undefined && match.key !== request.key) return false;
    if (match.bodyIncludes !== undefined && !(request.body ?? '').includes(match.bodyIncludes)) return false;
    return true;
  }

  private view(fault: Armed<K>): FaultState<K> {
    const active = this.isActive(fault);
    return {
      ...fault.spec,
      armedAt: new Date(fault.armedAt).toISOString(),
      ...(fault.expiresAt !== undefined ? { expiresAt: new Date(fault.expiresAt).toISOString() } : {}),
      hits: fault.hits,
      held: fault.held,
      active,
      ...(fault.ended === 'used' || fault.ended === 'expired' ? { ended: fault.ended } : {}),
    };
  }

  private parse(input: unknown): FaultSpec<K> {
    const fail = (message: string): never => {
      throw new FaultInputError(message);
    };
    if (!input || typeof input !== 'object' || Array.isArray(input)) fail('a fault is a JSON object');
    const raw = input as Record<string, unknown>;
    const unknown = Object.keys(raw).filter((k) => !FIELDS.has(k));
    if (unknown.length) fail(`unknown fault field(s): ${unknown.join(', ')} (known: ${[...FIELDS].join(', ')})`);
    const kinds = this.options.kinds;
    if (typeof raw.kind !== 'string' || !kinds.includes(raw.kind as K)) fail(`kind must be one of ${kinds.join(', ')}`);
    const kind = raw.kind as K;
    const whole = this.options.whole?.includes(kind) ?? false;

    let match: FaultMatch | 'all' = 'all';
    if (raw.match !== undefined && raw.match !== 'all') {
      if (!raw.match || typeof raw.match !== 'object' || Array.isArray(raw.match)) fail("match must be 'all' or {method?, path?, key?, bodyIncludes?}");
      const m = raw.match as Record<string, unknown>;
      const extra = Object.keys(m).filter((k) => !MATCH_FIELDS.has(k));
      if (extra.length) fail(`unknown match field(s): ${extra.join(', ')}`);
      for (const k of MATCH_FIELDS) if (m[k] !== undefined && (typeof m[k] !== 'string' || m[k] === '')) fail(`match.${k} must be a non-empty string`);
      match = { ...(m as FaultMatch) };
      if (whole) fail(`a '${kind}' fault takes every request: it has no match`);
    }
    if (raw.id !== undefined && (typeof raw.id !== 'string' || !/^[\w.:-]{1,80}$/.test(raw.id))) fail('id must be 1-80 letters, digits or ._:-');
    if (raw.times !== undefined) {
      if (!isInt(raw.times, 1, 1_000_000)) fail('times must be a whole number from 1 to 1000000');
      if (whole) fail(`a '${kind}' fault is time-based only: use forMs, not times`);
    }
    if (raw.forMs !== undefined && !isInt(raw.forMs, 1, MAX_FOR_MS)) fail(`forMs must be a whole number of milliseconds from 1 to ${MAX_FOR_MS}`);
    const answering = this.options.answering.includes(kind);
    for (const field of ANSWER_FIELDS) {
      if (raw[field] !== undefined && !answering) fail(`${field} applies only to a fault of kind ${this.options.answering.join(' or ')}`);
    }
    if (raw.status !== undefined && !isInt(raw.status, 200, 599)) fail('status must be an HTTP status from 200 to 599');
    if (raw.code !== undefined && typeof raw.code !== 'number' && typeof raw.code !== 'string') fail('code must be a number or a string');
    if (raw.subcode !== undefined && !isInt(raw.subcode, 0, Number.MAX_SAFE_INTEGER)) fail('subcode must be a whole number');
    for (const k of ['type', 'message'] as const) if (raw[k] !== undefined && typeof raw[k] !== 'string') fail(`${k} must be a string`);
    if (raw.retryAfter !== undefined) {
      const ok = (typeof raw.retryAfter === 'number' && Number.isFinite(raw.retryAfter) && raw.retryAfter >= 0) || (typeof raw.retryAfter === 'string' && raw.retryAfter.trim() !== '');
      if (!ok) fail('retryAfter must be seconds (a number from 0) or an HTTP date');
    }
    if (raw.headers !== undefined) {
      const h = raw.headers;
      if (!h || typeof h !== 'object' || Array.isArray(h) || Object.values(h).some((v) => typeof v !== 'string')) fail('headers must be an object of strings');
    }
    const id = typeof raw.id === 'string' ? raw.id : `fault-${this.nextId++}`;
    const pick = Object.fromEntries(ANSWER_FIELDS.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]])) as FaultAnswer;
    return {
      id,
      kind,
      match,
      ...(raw.times !== undefined ? { times: raw.times as number } : {}),
      ...(raw.forMs !== undefined ? { forMs: raw.forMs as number } : {}),
      ...pick,
    };
  }
}

/** A provider's error for a fault: the fake shapes the body from the fault's status, code, etc. */
export interface ProviderError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The headers every 'status' answer carries on top of the provider's: Retry-After and the fault's own. */
export function faultHeaders(spec: FaultAnswer, provider: Record<string, string> = {}): Record<string, string> {
  return {
    ...provider,
    ...(spec.retryAfter !== undefined ? { 'retry-after': String(spec.retryAfter) } : {}),
    ...spec.headers,
  };
}

const CONTROL_PATH = '/_test/faults';
const CONTROL_MAX_BODY = 64 * 1024;

/**
 * The control API over a registry (a fake's /_test/faults, the gateway's /_local/faults/{name}):
 *   POST            arm a fault → 200 {fault}
 *   GET             {faults: [...]} (what is armed, each with its hits; stopped ones too)
 *   DELETE          clear all → {cleared}
 *   DELETE /{id}    clear one → {cleared} (404 when there is none)
 * `rest` is the path after the control prefix ('' or '/{id}').
 */
export async function handleFaultControl<K extends string>(
  registry: FaultRegistry<K>,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const id = rest.replace(/^\/+|\/+$/g, '');
  try {
    if (method === 'GET' && !id) return sendJson(res, 200, { faults: registry.list() });
    if (method === 'DELETE') {
      const cleared = registry.clear(id ? decodeURIComponent(id) : undefined);
      return sendJson(res, id && !cleared ? 404 : 200, id && !cleared ? { error: { message: `no fault ${id}` } } : { cleared });
    }
    if (method === 'POST' && !id) {
      const text = await readBody(req, CONTROL_MAX_BODY, () => new FaultInputError('the fault is too large'));
      let input: unknown;
      try {
        input = JSON.parse(text || 'null');
      } catch {
        throw new FaultInputError('the body is not JSON');
      }
      return sendJson(res, 200, { fault: registry.arm(input) });
    }
    sendJson(res, 405, { error: { message: `${method} ${CONTROL_PATH}${rest} is not a fault control call (POST, GET, DELETE, DELETE /{id})` } });
  } catch (error) {
    if (!(error instanceof FaultInputError)) throw error;
    sendJson(res, 400, { error: { message: error.message } });
  }
}

export type FakeFaultKind = 'status' | 'hang' | 'drop';

export interface FakeFaultsOptions {
  /** The provider's error for a 'status' fault (its body shape and headers). */
  errorFor: (spec: FaultAnswer) => ProviderError;
  /** How the fake writes JSON (its usual headers); default sendJson. */
  send?: (res: ServerResponse, status: number, body: unknown, headers: Record<string, string>) => void;
}

/** A fake's failure switches: its /_test/faults control API and the check before every API call. */
export interface FakeFaults {
  registry: FaultRegistry<FakeFaultKind>;
  /** Serves /_test/faults[/{id}]; false for any other path (the fake handles it). */
  control(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
  /**
   * Applies the first matching fault to an API call: true when the fault dealt with it (answered,
   * dropped, or held until the client left); false when the fake should serve it (no fault, or a
   * hang that was let go). `paths`: the path as received and the fake's normalised forms.
   */
  intercept(req: IncomingMessage, res: ServerResponse, paths: string[]): Promise<boolean>;
  close(): void;
}

export function fakeFaults(options: FakeFaultsOptions): FakeFaults {
  const registry = new FaultRegistry<FakeFaultKind>({ kinds: ['status', 'hang', 'drop'], answering: ['status'] });
  const send = options.send ?? ((res, status, body, headers) => sendJson(res, status, body, headers));
  return {
    registry,
    async control(req, res, pathname) {
      if (pathname !== CONTROL_PATH && !pathname.startsWith(`${CONTROL_PATH}/`)) return false;
      await handleFaultControl(registry, req, res, pathname.slice(CONTROL_PATH.length));
      return true;
    },
    async intercept(req, res, paths) {
      for (;;) {
        const taken = registry.take({ method: req.method ?? 'GET', paths, key: requestKey(req) });
        if (!taken) return false;
        const { spec } = taken;
        if (spec.kind === 'drop') {
          taken.release();
          req.socket.destroy();
          return true;
        }
        if (spec.kind === 'status') {
          taken.release();
          const error = options.errorFor(spec);
          // The body is not read: drain it so a keep-alive connection stays usable.
          req.resume();
          send(res, error.status, spec.body !== undefined ? spec.body : error.body, faultHeaders(spec, error.headers));
          return true;
        }
        // hang: until the fault is over (then the request is looked at again) or the client leaves.
        const left = new Promise<'left'>((resolve) => res.once('close', () => resolve('left')));
        const outcome = await Promise.race([taken.over.then(() => 'over' as const), left]);
        taken.release();
        if (outcome === 'left' || res.destroyed) return true;
      }
    },
    close: () => registry.close(),
  };
}
