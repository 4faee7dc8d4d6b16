/**
 * A fake WhatsApp Cloud API (Meta Graph API) on loopback: the tests' and the local runtime's
 * Graph API (WHATSAPP_GRAPH_URL = <url>/v21.0), so WhatsApp works offline. It answers in Meta's
 * shapes, including its error body {error: {message, type, code, error_subcode, fbtrace_id}}.
 *
 *   GET  /{phoneId}              {id, display_phone_number, verified_name}; a phone id that is not
 *                                all digits → 400 code 100 subcode 33 (Meta's "does not exist")
 *   POST /{phoneId}/messages     Bearer required; → {messaging_product, contacts[{input, wa_id}],
 *                                messages[{id: 'wamid.…'}]}; the send is recorded
 *   /_test/...                   control API: fail the next sends, read recorded sends, reset
 *
 * Tokens: missing, or starting with "bad" → 401 code 190 (OAuthException); anything else works.
 * A version prefix (/v21.0) is optional. See README.md.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeOnce, createWaits, listen, readJsonObject, sendJson } from '../fake-http.js';

export const FAKE_GRAPH_VERSION = 'v21.0';
const MAX_BODY = 1024 * 1024;
const MAX_RECORDED = 10_000;

export interface RecordedSend {
  phoneId: string;
  /** The `to` field as sent (number or wa_id). */
  to: string;
  /** text.body for text messages, '' for other types. */
  text: string;
  type: string;
  /** The wamid answered ('' when the send failed). */
  id: string;
  /** HTTP status answered. */
  status: number;
  at: string;
  /** The request body as received. */
  payload: Record<string, unknown>;
}

/** A scripted failure of the next sends of one phone id. */
export interface FailRule {
  /** How many sends fail (default 1). */
  count: number;
  /** HTTP status (default 500); 0 = drop the connection (a network error). */
  status: number;
  /** Meta error code (default 131000 "Something went wrong"; 190 = token, 131047 = window closed). */
  code: number;
  message: string;
  /** Answer after this delay (ms), e.g. to exercise the client's timeout. */
  delayMs?: number;
  /** 'sends' (default): only POST /{phoneId}/messages fails; 'all': GET /{phoneId} too. */
  scope?: 'sends' | 'all';
}

export interface FakeWhatsAppOptions {
  /** 0 or missing: any free port. */
  port?: number;
  host?: string;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface FakeWhatsApp {
  /** http://127.0.0.1:<port>: control API at /_test; the Graph API also at `${url}/v21.0`. */
  url: string;
  /** What WHATSAPP_GRAPH_URL is set to: `${url}/v21.0`. */
  graphUrl: string;
  port: number;
  sent: RecordedSend[];
  fail(phoneId: string, rule: Partial<FailRule>): void;
  reset(phoneId?: string): void;
  close(): Promise<void>;
  /** Same as close (the local stack's service shape). */
  stop(): Promise<void>;
}

class GraphApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly type = 'OAuthException',
    readonly subcode?: number,
  ) {
    super(message);
  }
}

const fbtraceId = () => randomBytes(8).toString('base64url');

function send(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, body, { 'x-fb-trace-id': fbtraceId() });
}

function sendError(res: ServerResponse, error: GraphApiError): void {
  send(res, error.status, {
    error: {
      message: error.message,
      type: error.type,
      code: error.code,
      ...(error.subcode !== undefined ? { error_subcode: error.subcode } : {}),
      fbtrace_id: fbtraceId(),
    },
  });
}

const readJson = (req: IncomingMessage) =>
  readJsonObject(req, MAX_BODY, {
    tooLarge: () => new GraphApiError(413, 100, 'Request body too large', 'GraphMethodException'),
    invalid: () => new GraphApiError(400, 100, '(#100) The parameter messaging_product is required.', 'OAuthException'),
  });

function checkToken(req: IncomingMessage): string {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  const token = match?.[1]?.trim() ?? '';
  if (!token) throw new GraphApiError(401, 190, 'An active access token must be used to query information about the current user.');
  if (token.startsWith('bad')) throw new GraphApiError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
  return token;
}

const phoneNotFound = (phoneId: string) =>
  new GraphApiError(
    400,
    100,
    `Unsupported get request. Object with ID '${phoneId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    'GraphMethodException',
    33,
  );

/** Stable display number for a phone id: +1 555-01xx style, from its last digits. */
const displayNumber = (phoneId: string) => `+1 555-${phoneId.slice(-3, -1).padStart(2, '0')}${phoneId.slice(-2).padStart(2, '0')}`;

export async function startFakeWhatsApp(options: FakeWhatsAppOptions = {}): Promise<FakeWhatsApp> {
  const host = options.host ?? '127.0.0.1';
  const sent: RecordedSend[] = [];
  const rules = new Map<string, FailRule>();
  const waits = createWaits();

  const record = (entry: RecordedSend) => {
    sent.push(entry);
    if (sent.length > MAX_RECORDED) sent.splice(0, sent.length - MAX_RECORDED);
  };
  const fail = (phoneId: string, rule: Partial<FailRule>) => {
    rules.set(phoneId, {
      count: rule.count ?? 1,
      status: rule.status ?? 500,
      code: rule.code ?? 131000,
      message: rule.message ?? 'Something went wrong',
      ...(rule.delayMs ? { delayMs: rule.delayMs } : {}),
      scope: rule.scope === 'all' ? 'all' : 'sends',
    });
  };
  const reset = (phoneId?: string) => {
    if (phoneId === undefined) {
      rules.clear();
      sent.length = 0;
      return;
    }
    rules.delete(phoneId);
    for (let i = sent.length - 1; i >= 0; i--) if (sent[i]!.phoneId === phoneId) sent.splice(i, 1);
  };

  /**
   * Applies the phone id's failure rule, if any: throws its Graph error, or answers nothing
   * (returns 0 when the connection was dropped, 499 when the client gave up while waiting).
   */
  async function applyFailure(phoneId: string, call: 'sends' | 'reads', res: ServerResponse): Promise<number | undefined> {
    const rule = rules.get(phoneId);
    if (!rule || rule.count <= 0 || (call === 'reads' && rule.scope !== 'all')) return undefined;
    rule.count -= 1;
    if (rule.count === 0) rules.delete(phoneId);
    if (rule.delayMs && !(await waits.wait(rule.delayMs, res))) return 499;
    if (rule.status === 0) {
      res.destroy();
      return 0;
    }
    throw new GraphApiError(rule.status, rule.code, rule.message);
  }

  async function sendMessage(req: IncomingMessage, res: ServerResponse, phoneId: string): Promise<void> {
    const at = new Date().toISOString();
    let payload: Record<string, unknown> = {};
    let to = '';
    let text = '';
    let type = '';
    try {
      payload = await readJson(req);
      checkToken(req);
      if (!/^\d+$/.test(phoneId)) throw phoneNotFound(phoneId);
      to = typeof payload.to === 'string' ? payload.to : '';
      type = typeof payload.type === 'string' ? payload.type : 'text';
      const textBody = (payload.text as { body?: unknown } | undefined)?.body;
      text = type === 'text' && typeof textBody === 'string' ? textBody : '';
      if (payload.messaging_product !== 'whatsapp') throw new GraphApiError(400, 100, '(#100) The parameter messaging_product is required.');
      if (!to) throw new GraphApiError(400, 100, '(#100) The parameter to is required.');
      if (type === 'text' && !text) throw new GraphApiError(400, 100, '(#100) The parameter text[\'body\'] is required.');
      const failed = await applyFailure(phoneId, 'sends', res);
      if (failed !== undefined) {
        record({ phoneId, to, text, type, id: '', status: failed, at, payload });
        return;
      }
      const id = `wamid.${randomBytes(24).toString('base64url')}`;
      record({ phoneId, to, text, type, id, status: 200, at, payload });
      send(res, 200, { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to.replace(/\D/g, '') }], messages: [{ id }] });
    } catch (error) {
      if (!(error instanceof GraphApiError)) throw error;
      record({ phoneId, to, text, type, id: '', status: error.status, at, payload });
      sendError(res, error);
    }
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> {
    try {
      const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
      if (method === 'POST' && parts.length === 2 && parts[1] === 'messages') return await sendMessage(req, res, parts[0]!);
      if (method === 'GET' && parts.length === 1) {
        checkToken(req);
        const phoneId = parts[0]!;
        if (!/^\d+$/.test(phoneId)) throw phoneNotFound(phoneId);
        if ((await applyFailure(phoneId, 'reads', res)) !== undefined) return;
        return send(res, 200, { id: phoneId, display_phone_number: displayNumber(phoneId), verified_name: 'AgentDesk Test Business' });
      }
      throw new GraphApiError(400, 2500, `Unknown path components: ${path}`);
    } catch (error) {
      if (!(error instanceof GraphApiError)) throw error;
      sendError(res, error);
    }
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    const action = url.pathname.slice('/_test/'.length);
    if (method === 'POST' && action === 'fail') {
      const body = await readJson(req);
      if (typeof body.phoneId !== 'string' || !body.phoneId) return send(res, 400, { error: { message: 'phoneId is required' } });
      const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
      fail(body.phoneId, {
        count: num(body.count),
        status: num(body.status),
        code: num(body.code),
        message: typeof body.message === 'string' ? body.message : undefined,
        delayMs: num(body.delayMs),
        scope: body.scope === 'all' ? 'all' : 'sends',
      });
      return send(res, 200, { ok: true });
    }
    if (method === 'GET' && action === 'sent') {
      const phoneId = url.searchParams.get('phoneId');
      return send(res, 200, { sent: sent.filter((s) => phoneId === null || s.phoneId === phoneId) });
    }
    if (method === 'POST' && action === 'reset') {
      const body = await readJson(req).catch(() => ({}) as Record<string, unknown>);
      reset(typeof body.phoneId === 'string' ? body.phoneId : undefined);
      return send(res, 200, { ok: true });
    }
    send(res, 404, { error: { message: `Unknown control call ${method} ${url.pathname}` } });
  }

  const server: Server = createServer((req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://fake-whatsapp');
    const handled = url.pathname.startsWith('/_test/')
      ? handleControl(req, res, method, url)
      : url.pathname === '/' && method === 'GET'
        ? Promise.resolve(send(res, 200, { service: 'fake WhatsApp Cloud API (AgentDesk local runtime)', graphUrl: `/${FAKE_GRAPH_VERSION}` }))
        : handleApi(req, res, method, url.pathname.replace(/^\/v\d+\.\d+(?=\/)/, '').replace(/\/+$/, ''));
    handled.catch((error: unknown) => {
      options.log?.('error', `[whatsapp] ${(error as Error).message}`);
      send(res, 500, { error: { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, fbtrace_id: fbtraceId() } });
    });
  });

  const port = await listen(server, options.port ?? 0, host);
  const url = `http://${host}:${port}`;
  options.log?.('info', `[whatsapp] fake WhatsApp Graph API at ${url}/${FAKE_GRAPH_VERSION}`);

  const close = closeOnce(server, waits);

  return { url, graphUrl: `${url}/${FAKE_GRAPH_VERSION}`, port, sent, fail, reset, close, stop: close };
}
