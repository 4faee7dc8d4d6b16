/**
 * The outbound guard: every HTTP call to a URL a user supplied (custom tools, web pages to
 * scrape, an OpenAI-compatible base URL) goes through guardedFetch.
 *
 * - http and https only.
 * - The address is checked where it is used: a custom `lookup` resolves the host when the
 *   socket connects and refuses any address that is not public unicast (address-policy.ts),
 *   so a DNS answer that changes between a check and the connect (DNS rebinding) cannot slip
 *   through. IP-literal hosts never reach `lookup`; they are checked before connecting.
 * - Redirects are followed by hand (default at most 3); every hop is checked again.
 * - One timer covers the whole exchange (all hops and the body); the body is capped (truncated,
 *   or OutboundTooLargeError with failOnTooLarge), counted after decompression.
 * - config().OUTBOUND_ALLOW_HOSTS lists exact host:port pairs that may additionally reach a
 *   LOOPBACK address (the local fakes, test servers); nothing else is ever let through.
 * - guardedStream: the same request with the body handed over as it arrives (a model's streamed
 *   answer): its own timeout for the response head, an overall one, a byte cap, abort by signal,
 *   and the connection closed as soon as the reader stops (a caller's barge-in).
 *
 * Built on node:http/https rather than global fetch, which cannot take a custom lookup.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { config } from '../../config.js';
import { once } from '../../lib/once.js';
import { blockedReason, ipLiteral } from './address-policy.js';
import {
  BLOCKED_ADDRESS_MESSAGE,
  blockedAddressError,
  OutboundBlockedError,
  OutboundError,
  OutboundNetworkError,
  OutboundTimeoutError,
  OutboundTooLargeError,
} from './errors.js';

export { BLOCKED_ADDRESS_MESSAGE, OutboundBlockedError, OutboundError, OutboundNetworkError, OutboundTimeoutError, OutboundTooLargeError };

export interface GuardedRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole exchange, redirects and body included. Default 10 000 ms. */
  timeoutMs?: number;
  /** Body cap in bytes (after decompression). Default 100 KB. */
  maxBytes?: number;
  /** Throw OutboundTooLargeError instead of truncating (truncated=true) at maxBytes. */
  failOnTooLarge?: boolean;
  /** Default 3; one more redirect fails with OutboundNetworkError. */
  maxRedirects?: number;
  /** The caller's cancellation; an abort rejects with the signal's reason (an AbortError). */
  signal?: AbortSignal;
  /** More header names (any case) dropped when a redirect leaves the origin, e.g. a custom tool's API-key header. */
  originBoundHeaders?: readonly string[];
}

/** A streamed request: the same policy as GuardedRequest, the body read by the caller as it arrives. */
export interface GuardedStreamRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Until the response head arrives (every redirect hop included). Default 10 000 ms. */
  headTimeoutMs?: number;
  /** The whole exchange, reading the body included; then reading fails with OutboundTimeoutError. Default 60 000 ms. */
  timeoutMs?: number;
  /** Body cap in bytes (after decompression); reading past it fails with OutboundTooLargeError. Default 1 MB. */
  maxBytes?: number;
  /** Default 3; one more redirect fails with OutboundNetworkError. */
  maxRedirects?: number;
  /** The caller's cancellation, also while the body is read; rejects with the signal's reason (an AbortError). */
  signal?: AbortSignal;
  originBoundHeaders?: readonly string[];
}

export interface GuardedStreamResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The final URL, after redirects. */
  url: string;
  /**
   * The (decompressed) body as it arrives; read once. Leaving the loop early (break, return, a
   * throw) closes the connection. Errors: OutboundTimeoutError, OutboundTooLargeError,
   * OutboundNetworkError (cut before the end), or the signal's reason.
   */
  body: AsyncIterable<Uint8Array>;
  /** Closes the connection without reading (the rest of) the body. Safe to call more than once. */
  close(): void;
}

export interface GuardedResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The final URL, after redirects. */
  url: string;
  truncated: boolean;
}

/** Resolves a host name to all of its addresses (family 0 = both). Tests inject their own. */
export type Resolver = (hostname: string, family: number) => Promise<LookupAddress[]>;

export interface GuardOptions {
  /** host:port pairs that may reach loopback addresses; default none. */
  allowHosts?: readonly string[];
  resolve?: Resolver;
  /** PEM certificates trusted besides the system's (the local fake push service's; never in AWS). */
  extraCa?: string;
}

export interface Guard {
  fetch(url: string, req?: GuardedRequest): Promise<GuardedResponse>;
  /** The request with the body streamed to the caller (see GuardedStreamRequest). */
  stream(url: string, req?: GuardedStreamRequest): Promise<GuardedStreamResponse>;
  /** Scheme and address check without a request (e.g. to validate a URL when it is saved). */
  check(url: string): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 100 * 1024;
export const DEFAULT_MAX_REDIRECTS = 3;
export const DEFAULT_STREAM_TIMEOUT_MS = 60_000;
export const DEFAULT_STREAM_MAX_BYTES = 1024 * 1024;
const USER_AGENT = 'AgentDesk/1.0';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect leaves the origin (as fetch does): they were meant for the first host. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

const systemResolver: Resolver = (hostname, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, family, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

function parseTarget(raw: string | URL): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundBlockedError('Blocked: not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundBlockedError(`Blocked: only http and https URLs are allowed (got ${url.protocol.replace(/:$/, '')})`);
  }
  return url;
}

const hostPort = (url: URL) => `${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;

const normaliseHostPort = (entry: string) => {
  try {
    const u = new URL(`http://${entry.trim()}`);
    return u.port ? `${u.hostname.toLowerCase()}:${u.port}` : undefined;
  } catch {
    return undefined;
  }
};

function flattenHeaders(raw: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The decompressor for the response's content-encoding, if any. */
function decoderFor(res: IncomingMessage) {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  return encoding === 'gzip' || encoding === 'x-gzip'
    ? createGunzip()
    : encoding === 'deflate'
      ? createInflate()
      : encoding === 'br'
        ? createBrotliDecompress()
        : undefined;
}

function networkError(error: unknown, url: URL): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const host = url.hostname;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new OutboundNetworkError(`Could not resolve ${host}`, { cause: error });
  if (code === 'ECONNREFUSED') return new OutboundNetworkError(`Connection to ${host} was refused`, { cause: error });
  if (code === 'ECONNRESET' || code === 'EPIPE') return new OutboundNetworkError(`Connection to ${host} was reset`, { cause: error });
  if (typeof code === 'string' && (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL'))) {
    return new OutboundNetworkError(`TLS error talking to ${host}`, { cause: error });
  }
  return new OutboundNetworkError(`Could not reach ${host}${code ? ` (${code})` : ''}`, { cause: error });
}

export function createGuard(options: GuardOptions = {}): Guard {
  const allowed = new Set((options.allowHosts ?? []).map(normaliseHostPort).filter((x): x is string => !!x));
  const resolve = options.resolve ?? systemResolver;
  // Per guard: a kept-alive socket is only ever reused by the guard (and allow-list) that checked it.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: 4_000 }),
    'https:': new https.Agent({ keepAlive: true, timeout: 4_000, ...(options.extraCa ? { ca: [...tls.rootCertificates, options.extraCa] } : {}) }),
  };

  /** Resolve, refuse the whole answer if any address is not allowed, hand Node what it asked for. */
  const guardedLookup = (allowLoopback: boolean): LookupFunction =>
    ((hostname: string, opts: { family?: number | string; all?: boolean }, callback: (...args: unknown[]) => void) => {
      const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family ?? 0) || 0;
      resolve(hostname, family).then(
        (addresses) => {
          if (addresses.length === 0) {
            callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
            return;
          }
          for (const { address } of addresses) {
            const why = blockedReason(address, allowLoopback);
            if (why) {
              callback(blockedAddressError(`${hostname} resolves to ${address}, ${why}`));
              return;
            }
          }
          if (opts.all) callback(null, addresses);
          else callback(null, addresses[0]!.address, addresses[0]!.family);
        },
        (error: unknown) => callback(error),
      );
    }) as unknown as LookupFunction;

  /** Literal addresses are checked here; names are checked by the lookup at connect time. */
  function literalCheck(url: URL): void {
    const literal = ipLiteral(url.hostname);
    if (!literal) return;
    const why = blockedReason(literal, allowed.has(hostPort(url)));
    if (why) throw blockedAddressError(`${literal} is ${why}`);
  }

  function send(url: URL, method: string, headers: Record<string, string>, body: Buffer | undefined, signal: AbortSignal) {
    literalCheck(url);
    const literal = ipLiteral(url.hostname);
    return new Promise<IncomingMessage>((resolvePromise, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request({
        protocol: url.protocol,
        hostname: literal ?? url.hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup: guardedLookup(allowed.has(hostPort(url))),
        signal,
      });
      request.once('response', resolvePromise);
      // `on`: a streamed response outlives the promise, and its socket may still fail (or be aborted) later.
      request.on('error', reject);
      request.end(body);
    });
  }

  async function readBody(res: IncomingMessage, host: string, maxBytes: number, failOnTooLarge: boolean) {
    const decoder = decoderFor(res);
    const tooLarge = () => new OutboundTooLargeError(`The response from ${host} is larger than ${maxBytes} bytes`);
    const declared = Number(res.headers['content-length']);
    if (!decoder && failOnTooLarge && Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      throw tooLarge();
    }
    const stream: Readable = decoder ? pipeline(res, decoder, () => undefined) : res;
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    try {
      for await (const chunk of stream) {
        const buf = chunk as Buffer;
        if (size + buf.length > maxBytes) {
          if (failOnTooLarge) throw tooLarge();
          chunks.push(buf.subarray(0, maxBytes - size));
          size = maxBytes;
          truncated = true;
          break;
        }
        chunks.push(buf);
        size += buf.length;
      }
    } finally {
      if (truncated || !res.complete) res.destroy();
    }
    return { body: Buffer.concat(chunks, size), truncated, decoded: !!decoder };
  }

  /**
   * Sends the request and follows redirects (each hop checked again); `hop.url` is the current
   * URL, for the caller's error texts. Resolves with the final response, its body unread.
   */
  async function openFollowingRedirects(hop: { url: URL }, req: GuardedRequest | GuardedStreamRequest, signal: AbortSignal): Promise<IncomingMessage> {
    const maxRedirects = req.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    let method = (req.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
    headers['user-agent'] ??= USER_AGENT;
    headers['accept-encoding'] ??= 'gzip, deflate, br';
    let body = req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body) : Buffer.from(req.body);

    for (let redirects = 0; ; redirects++) {
      const res = await send(hop.url, method, headers, body, signal);
      const location = res.headers.location;
      if (!(REDIRECTS.has(res.statusCode ?? 0) && location)) return res;
      res.destroy();
      if (redirects >= maxRedirects) throw new OutboundNetworkError(`Too many redirects (more than ${maxRedirects})`);
      const next = parseTarget(new URL(location, hop.url));
      const status = res.statusCode ?? 0;
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        delete headers['content-type'];
        delete headers['content-length'];
      }
      if (next.origin !== hop.url.origin) {
        for (const h of [...ORIGIN_BOUND_HEADERS, ...(req.originBoundHeaders ?? [])]) delete headers[h.toLowerCase()];
      }
      hop.url = next;
    }
  }

  async function guardedFetchImpl(target: string, req: GuardedRequest = {}): Promise<GuardedResponse> {
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = req.maxBytes ?? DEFAULT_MAX_BYTES;
    const hop = { url: parseTarget(target) };

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const external = req.signal;
    const onExternalAbort = () => controller.abort();
    if (external?.aborted) controller.abort();
    else external?.addEventListener('abort', onExternalAbort, { once: true });
    const abortError = (): Error =>
      timedOut
        ? new OutboundTimeoutError(`The request to ${hop.url.hostname} timed out after ${timeoutMs} ms`)
        : ((external?.reason as Error | undefined) ?? new DOMException('This operation was aborted', 'AbortError'));

    try {
      const res = await openFollowingRedirects(hop, req, controller.signal);
      const read = await readBody(res, hop.url.hostname, maxBytes, req.failOnTooLarge ?? false);
      const outHeaders = flattenHeaders(res.headers);
      if (read.decoded) {
        delete outHeaders['content-encoding'];
        delete outHeaders['content-length'];
      }
      return { status: res.statusCode ?? 0, headers: outHeaders, body: read.body, url: hop.url.href, truncated: read.truncated };
    } catch (error) {
      if (controller.signal.aborted) throw abortError();
      throw networkError(error, hop.url);
    } finally {
      clearTimeout(timer);
      external?.removeEventListener('abort', onExternalAbort);
    }
  }

  async function guardedStreamImpl(target: string, req: GuardedStreamRequest = {}): Promise<GuardedStreamResponse> {
    const headTimeoutMs = req.headTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeoutMs = req.timeoutMs ?? DEFAULT_STREAM_TIMEOUT_MS;
    const maxBytes = req.maxBytes ?? DEFAULT_STREAM_MAX_BYTES;
    const hop = { url: parseTarget(target) };

    const controller = new AbortController();
    let timedOut: 'head' | 'overall' | undefined;
    const timeout = (which: 'head' | 'overall', ms: number) =>
      setTimeout(() => {
        timedOut ??= which;
        controller.abort();
      }, ms);
    const overallTimer = timeout('overall', timeoutMs);
    const headTimer = timeout('head', headTimeoutMs);
    const external = req.signal;
    const onExternalAbort = () => controller.abort();
    if (external?.aborted) controller.abort();
    else external?.addEventListener('abort', onExternalAbort, { once: true });
    const abortError = (): Error =>
      timedOut === 'head'
        ? new OutboundTimeoutError(`${hop.url.hostname} did not answer within ${headTimeoutMs} ms`)
        : timedOut === 'overall'
          ? new OutboundTimeoutError(`The request to ${hop.url.hostname} timed out after ${timeoutMs} ms`)
          : ((external?.reason as Error | undefined) ?? new DOMException('This operation was aborted', 'AbortError'));
    const stopTimers = () => {
      clearTimeout(overallTimer);
      clearTimeout(headTimer);
      external?.removeEventListener('abort', onExternalAbort);
    };

    let res: IncomingMessage;
    try {
      res = await openFollowingRedirects(hop, req, controller.signal);
    } catch (error) {
      stopTimers();
      if (controller.signal.aborted) throw abortError();
      throw networkError(error, hop.url);
    } finally {
      clearTimeout(headTimer);
    }

    const host = hop.url.hostname;
    const decoder = decoderFor(res);
    const tooLarge = () => new OutboundTooLargeError(`The response from ${host} is larger than ${maxBytes} bytes`);
    const declared = Number(res.headers['content-length']);
    if (!decoder && Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      stopTimers();
      throw tooLarge();
    }
    const stream: Readable = decoder ? pipeline(res, decoder, () => undefined) : res;
    // Destroying the response ends a pending read at once; a half-read socket is never reused.
    const close = () => {
      stopTimers();
      controller.signal.removeEventListener('abort', close);
      if (!res.complete || !res.readableEnded) res.destroy();
      if (decoder && !decoder.destroyed) decoder.destroy();
    };
    if (controller.signal.aborted) close();
    else controller.signal.addEventListener('abort', close, { once: true });

    let taken = false;
    async function* read(): AsyncGenerator<Uint8Array> {
      if (taken) throw new OutboundError('The response body was already read');
      taken = true;
      let size = 0;
      try {
        for await (const chunk of stream) {
          const bytes = chunk as Buffer;
          size += bytes.length;
          if (size > maxBytes) throw tooLarge();
          yield bytes;
        }
        if (controller.signal.aborted) throw abortError();
        if (!res.complete) throw new OutboundNetworkError(`The connection to ${host} closed before the response ended`);
      } catch (error) {
        if (controller.signal.aborted) throw abortError();
        if (error instanceof OutboundError) throw error;
        throw networkError(error, hop.url);
      } finally {
        close();
      }
    }

    const outHeaders = flattenHeaders(res.headers);
    if (decoder) {
      delete outHeaders['content-encoding'];
      delete outHeaders['content-length'];
    }
    return { status: res.statusCode ?? 0, headers: outHeaders, url: hop.url.href, body: { [Symbol.asyncIterator]: read }, close };
  }

  async function check(target: string): Promise<void> {
    const url = parseTarget(target);
    if (ipLiteral(url.hostname)) return literalCheck(url);
    let addresses: LookupAddress[];
    try {
      addresses = await resolve(url.hostname, 0);
    } catch (error) {
      throw networkError(error, url);
    }
    const allowLoopback = allowed.has(hostPort(url));
    for (const { address } of addresses) {
      const why = blockedReason(address, allowLoopback);
      if (why) throw blockedAddressError(`${url.hostname} resolves to ${address}, ${why}`);
    }
  }

  return { fetch: guardedFetchImpl, stream: guardedStreamImpl, check };
}

/** The process-wide guard with the configured allow-list. */
const defaultGuard = once(() => createGuard({ allowHosts: config().OUTBOUND_ALLOW_HOSTS, ...(config().OUTBOUND_EXTRA_CA ? { extraCa: config().OUTBOUND_EXTRA_CA } : {}) }));

export function guardedFetch(url: string, req?: GuardedRequest): Promise<GuardedResponse> {
  return defaultGuard().fetch(url, req);
}

/** The process-wide guard's streamed request (see GuardedStreamRequest). */
export function guardedStream(url: string, req?: GuardedStreamRequest): Promise<GuardedStreamResponse> {
  return defaultGuard().stream(url, req);
}

/** Refuses a URL the guard would refuse (scheme, literal or resolved address) without calling it. */
export function checkOutboundUrl(url: string): Promise<void> {
  return defaultGuard().check(url);
}
