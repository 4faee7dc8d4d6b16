/**
 * A fake Web Push service on loopback (issue 29 item 6), so the whole push flow runs offline: it
 * mints subscriptions as a browser's push service would, takes pushes as RFC 8030 describes,
 * checks their VAPID authorization (RFC 8292), decrypts their aes128gcm payload (RFC 8291 over
 * RFC 8188) with the subscription's private key, and keeps the decrypted messages for tests.
 * It serves https (push endpoints are https URLs) with a certificate it makes at start
 * (tls.ts); the handlers trust it through OUTBOUND_EXTRA_CA.
 *
 *   POST   /push/{id}                 a push: TTL required; Content-Encoding aes128gcm;
 *                                     Authorization "vapid t=<JWT>, k=<P-256 public key>": the
 *                                     JWT is ES256, signed by k, aud = this origin, exp within
 *                                     24 h, sub mailto:/https: → 201 + Location; 400 / 401 / 403
 *                                     as a push service answers; 404 never minted; 410 unsubscribed;
 *                                     413 over 4096 bytes
 *   POST   /_test/subscriptions       mints one → {id, subscription: {endpoint, expirationTime, keys: {p256dh, auth}}}
 *   DELETE /_test/subscriptions/{id}  the browser unsubscribed: later pushes answer 410
 *   GET    /_test/messages[?subscription=id]  {messages: [{id, subscriptionId, payload, json, ttl, urgency, topic, vapid, at}]}
 *   POST   /_test/reset               forgets subscriptions and messages
 *   /_test/faults                     failure switches (../faults.ts): 429/5xx with the push
 *                                     service's error body, Retry-After, hang, drop; match a
 *                                     subscription with {path: '/push/{id}'}
 */
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, randomUUID, verify, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { closeOnce, createWaits, listen, sendJson } from '../fake-http.js';
import { fakeFaults, type FaultAnswer, type ProviderError } from '../faults.js';
import { selfSignedCert } from './tls.js';

const MAX_PAYLOAD = 4096;
const MAX_RECORDED = 10_000;

export interface FakePushMessage {
  id: string;
  subscriptionId: string;
  /** The decrypted payload as text. */
  payload: string;
  /** The payload parsed as JSON, when it is. */
  json: unknown;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  /** The VAPID JWT's claims and the key that signed it. */
  vapid: { aud: string; sub: string; exp: number; k: string };
  at: string;
}

interface Minted {
  id: string;
  ecdh: ReturnType<typeof createECDH>;
  publicKey: Buffer;
  auth: Buffer;
  gone: boolean;
}

export interface FakePushOptions {
  port?: number;
  host?: string;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface FakePush {
  /** https://127.0.0.1:<port> */
  url: string;
  port: number;
  /** The service's certificate (PEM): what OUTBOUND_EXTRA_CA carries. */
  ca: string;
  messages: FakePushMessage[];
  mint(): { id: string; subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } } };
  close(): Promise<void>;
  stop(): Promise<void>;
}

class PushError extends Error {
  constructor(
    readonly status: number,
    readonly errno: number,
    message: string,
  ) {
    super(message);
  }
}

/** The push service's error body (Mozilla autopush's shape: code, errno, error, message). */
const reasons: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 410: 'Gone', 413: 'Payload Too Large', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' };
const errorBody = (status: number, errno: number, message: string) => ({ code: status, errno, error: reasons[status] ?? 'Error', message, more_info: 'http://autopush.readthedocs.io/en/latest/http.html#error-codes' });

export function pushFaultError(spec: FaultAnswer): ProviderError {
  const status = spec.status ?? 503;
  return { status, body: errorBody(status, typeof spec.code === 'number' ? spec.code : status === 429 ? 114 : 999, spec.message ?? 'Fault injected by the test') };
}

const b64url = (b: Buffer) => b.toString('base64url');

/** The body as bytes (an encrypted push is binary); 413 past `maxBytes`. */
async function readRaw(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new PushError(413, 104, 'Payload too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The raw uncompressed P-256 point (65 bytes) as a public KeyObject. */
function p256Key(raw: Buffer): KeyObject {
  if (raw.length !== 65 || raw[0] !== 4) throw new PushError(401, 109, 'k is not an uncompressed P-256 public key');
  return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) }, format: 'jwk' });
}

/** RFC 8292: "vapid t=<JWT>, k=<key>"; the JWT signed by k (ES256), for this origin, not expired, at most 24 h ahead, with a contact. */
function checkVapid(header: string | undefined, origin: string, now: number): FakePushMessage['vapid'] {
  const match = /^vapid\s+(.+)$/i.exec(header ?? '');
  if (!match) throw new PushError(401, 109, 'Missing or non-VAPID Authorization header');
  const params = Object.fromEntries(
    match[1]!.split(',').map((part) => {
      const [name, ...value] = part.trim().split('=');
      return [name!.trim().toLowerCase(), value.join('=').trim()];
    }),
  );
  const t = params.t ?? '';
  const k = params.k ?? '';
  const [h, p, s] = t.split('.');
  if (!h || !p || !s || !k) throw new PushError(401, 109, 'The VAPID header needs t and k');
  let head: { alg?: string; typ?: string };
  let claims: { aud?: string; exp?: number; sub?: string };
  try {
    head = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as typeof head;
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    throw new PushError(401, 109, 'The VAPID JWT is not readable');
  }
  if (head.alg !== 'ES256') throw new PushError(401, 109, 'The VAPID JWT must be ES256');
  const signed = verify('sha256', Buffer.from(`${h}.${p}`), { key: p256Key(Buffer.from(k, 'base64url')), dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!signed) throw new PushError(401, 109, 'The VAPID JWT signature does not match k');
  if (claims.aud !== origin) throw new PushError(401, 109, `The VAPID JWT audience must be ${origin}`);
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now || claims.exp * 1000 > now + 24 * 3600_000 + 60_000) throw new PushError(401, 109, 'The VAPID JWT is expired or expires more than 24 hours ahead');
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) throw new PushError(401, 109, 'The VAPID JWT needs a mailto: or https: sub');
  return { aud: claims.aud, sub: claims.sub, exp: claims.exp, k };
}

/** RFC 8291 §3.4 + RFC 8188: one aes128gcm record, decrypted with the subscription's private key and auth secret. */
export function decryptAes128gcm(body: Buffer, sub: Pick<Minted, 'ecdh' | 'publicKey' | 'auth'>): Buffer {
  if (body.length < 21 + 65 + 17) throw new PushError(400, 110, 'The body is too short for an aes128gcm record');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  if (idlen !== 65) throw new PushError(400, 110, 'The keyid must be the sender public key (65 bytes)');
  const senderKey = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (ciphertext.length > rs) throw new PushError(400, 110, 'A push is one record: it must fit the record size');
  let secret: Buffer;
  try {
    secret = sub.ecdh.computeSecret(senderKey);
  } catch {
    throw new PushError(400, 110, 'The sender public key is not a P-256 point');
  }
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0', 'ascii'), sub.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, sub.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0', 'ascii'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0', 'ascii'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  } catch {
    throw new PushError(400, 110, 'The payload does not decrypt with the subscription keys');
  }
  // Padding: the last record's delimiter 0x02, then zeros.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (end < 0 || plain[end] !== 2) throw new PushError(400, 110, 'The last record must end with the 0x02 delimiter');
  return plain.subarray(0, end);
}

export async function startFakePush(options: FakePushOptions = {}): Promise<FakePush> {
  const host = options.host ?? '127.0.0.1';
  const tls = selfSignedCert();
  const subscriptions = new Map<string, Minted>();
  const messages: FakePushMessage[] = [];
  const faults = fakeFaults({ errorFor: pushFaultError });
  const waits = createWaits();
  let origin = '';

  const mint = () => {
    const ecdh = createECDH('prime256v1');
    const publicKey = ecdh.generateKeys();
    const sub: Minted = { id: randomUUID(), ecdh, publicKey, auth: randomBytes(16), gone: false };
    subscriptions.set(sub.id, sub);
    return { id: sub.id, subscription: { endpoint: `${origin}/push/${sub.id}`, expirationTime: null, keys: { p256dh: b64url(sub.publicKey), auth: b64url(sub.auth) } } };
  };

  async function push(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const sub = subscriptions.get(id);
    const body = await readRaw(req, MAX_PAYLOAD + 1024);
    if (!sub) throw new PushError(404, 102, 'Subscription not found');
    if (sub.gone) throw new PushError(410, 103, 'Subscription expired or unsubscribed');
    const ttlHeader = req.headers.ttl;
    const ttl = Number(ttlHeader);
    if (ttlHeader === undefined || !Number.isInteger(ttl) || ttl < 0) throw new PushError(400, 111, 'Missing or invalid TTL header');
    const vapid = checkVapid(req.headers.authorization, origin, Date.now());
    if (body.length > MAX_PAYLOAD) throw new PushError(413, 104, 'Payload too large');
    if ((req.headers['content-encoding'] ?? '').toLowerCase() !== 'aes128gcm') throw new PushError(400, 110, 'Content-Encoding must be aes128gcm');
    const payload = decryptAes128gcm(body, sub).toString('utf8');
    let json: unknown = null;
    try {
      json = JSON.parse(payload);
    } catch {
      json = null;
    }
    const topic = typeof req.headers.topic === 'string' ? req.headers.topic : null;
    const message: FakePushMessage = {
      id: randomUUID(),
      subscriptionId: id,
      payload,
      json,
      ttl,
      urgency: typeof req.headers.urgency === 'string' ? req.headers.urgency : null,
      topic,
      vapid,
      at: new Date().toISOString(),
    };
    messages.push(message);
    if (messages.length > MAX_RECORDED) messages.splice(0, messages.length - MAX_RECORDED);
    res.writeHead(201, { location: `${origin}/m/${message.id}`, 'content-length': 0 });
    res.end();
  }

  async function control(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    const parts = url.pathname.split('/').filter(Boolean).slice(1);
    if (method === 'POST' && parts[0] === 'subscriptions' && parts.length === 1) return sendJson(res, 201, mint());
    if (method === 'DELETE' && parts[0] === 'subscriptions' && parts.length === 2) {
      const sub = subscriptions.get(decodeURIComponent(parts[1]!));
      if (!sub) return sendJson(res, 404, errorBody(404, 102, 'Subscription not found'));
      sub.gone = true;
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'GET' && parts[0] === 'messages' && parts.length === 1) {
      const only = url.searchParams.get('subscription');
      return sendJson(res, 200, { messages: messages.filter((m) => only === null || m.subscriptionId === only) });
    }
    if (method === 'POST' && parts[0] === 'reset' && parts.length === 1) {
      subscriptions.clear();
      messages.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    sendJson(res, 404, { error: { message: `Unknown control call ${method} ${url.pathname}` } });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', origin);
    if (await faults.control(req, res, url.pathname)) return;
    if (url.pathname.startsWith('/_test/')) return control(req, res, method, url);
    const match = /^\/push\/([^/]+)$/.exec(url.pathname);
    if (!match) return sendJson(res, 404, errorBody(404, 102, 'Not a push endpoint'));
    if (method !== 'POST') return sendJson(res, 405, errorBody(405 as number, 101, 'Pushes are POSTed'));
    if (await faults.intercept(req, res, [url.pathname])) return;
    try {
      await push(req, res, decodeURIComponent(match[1]!));
    } catch (error) {
      if (!(error instanceof PushError)) throw error;
      req.resume();
      sendJson(res, error.status, errorBody(error.status, error.errno, error.message));
    }
  }

  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log?.('error', `[push] ${(error as Error).message}`);
      sendJson(res, 500, errorBody(500, 999, 'Internal error'));
    });
  });
  const port = await listen(server as unknown as HttpServer, options.port ?? 0, host);
  origin = `https://${host}:${port}`;
  options.log?.('info', `[push] fake Web Push service at ${origin}`);
  const close = closeOnce(server as unknown as HttpServer, { cancel: () => (waits.cancel(), faults.close()) });
  return { url: origin, port, ca: tls.cert, messages, mint, close, stop: close };
}
