/**
 * A fake WhatsApp Cloud API (Meta Graph API) on loopback: the tests' and the local runtime's
 * Graph API (WHATSAPP_GRAPH_URL = <url>/v21.0), so WhatsApp works offline. It answers in Meta's
 * shapes, including its error body {error: {message, type, code, error_subcode, fbtrace_id}}.
 *
 *   GET  /{phoneId}              {id, display_phone_number, verified_name}; a phone id that is not
 *                                all digits → 400 code 100 subcode 33 (Meta's "does not exist")
 *   POST /{phoneId}/messages     Bearer required; → {messaging_product, contacts[{input, wa_id}],
 *                                messages[{id: 'wamid.…'}]}; the send is recorded. `to` (a phone
 *                                number) or `recipient` (a business-scoped user id); type text or
 *                                template (checked against the business's templates: Meta's
 *                                132001 / 132000 / 132015 / 132016 errors)
 *   GET  /{wabaId}/message_templates  the business's templates, paginated with Meta's cursors
 *   /_test/...                   control API: fail the next sends, read recorded sends, seed
 *                                templates, reset
 *   /_test/faults                failure switches (../faults.ts): any status with Meta's error
 *                                object (131047, 190, 131026, 130429…), Retry-After, hang, dropped
 *                                connections; per path (a phone id's /{phoneId}/messages), count- or time-based
 *
 * Tokens: missing, or starting with "bad" → 401 code 190 (OAuthException); anything else works.
 * A version prefix (/v21.0) is optional. See README.md.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeOnce, createWaits, listen, readJsonObject, sendJson } from '../fake-http.js';
import { fakeFaults, type FaultAnswer, type ProviderError } from '../faults.js';
import { checkContent } from './content-checks.js';
import { createFakeMedia } from './media.js';

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
  /** A template send: its name, language code and body parameters' texts. */
  template?: { name: string; language: string; parameters: string[] };
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

/** A message template as Meta lists it. */
export interface FakeTemplate {
  id?: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: Record<string, unknown>[];
}

const body = (text: string, example: string[]) => ({ type: 'BODY', text, ...(example.length ? { example: { body_text: [example] } } : {}) });

/**
 * What a business account that was never seeded has: a few Spanish and English templates, two of
 * them not approved (the app must not offer those).
 */
export const DEFAULT_TEMPLATES: FakeTemplate[] = [
  {
    name: 'recordatorio_cita',
    language: 'es',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      body('Hola {{1}}, te recordamos tu cita del {{2}}. Si no puedes venir, respóndenos a este mensaje.', ['Lucía', 'lunes 3 a las 10:00']),
      { type: 'FOOTER', text: 'Clínica Sonrisa' },
    ],
  },
  {
    name: 'retomar_conversacion',
    language: 'es',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [body('Hola {{1}}, ¿seguimos con tu consulta? Responde a este mensaje y te atendemos.', ['Lucía'])],
  },
  {
    name: 'appointment_reminder',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [body('Hi {{1}}, this is a reminder of your appointment on {{2}}. Reply to this message if you cannot make it.', ['Ana', 'Monday 3 at 10:00'])],
  },
  { name: 'oferta_verano', language: 'es', status: 'PENDING', category: 'MARKETING', components: [body('¡Oferta de verano, {{1}}!', ['Lucía'])] },
  { name: 'old_promo', language: 'en_US', status: 'REJECTED', category: 'MARKETING', components: [body('Last chance, {{1}}!', ['Ana'])] },
];

/** Meta's template page size when `limit` is not given. */
const TEMPLATE_PAGE_DEFAULT = 25;

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
  /** Replaces a business account's templates (phoneId: the number whose template sends check them). */
  seedTemplates(wabaId: string, templates: FakeTemplate[], phoneId?: string): void;
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
    /** error_data.details (Meta's explanation of a send error). */
    readonly details?: string,
  ) {
    super(message);
  }
}

/**
 * Meta's errors for the fault switches, by code: HTTP status, message (with Meta's "(#code) title"),
 * type, and error_data.details (Cloud API error codes; Graph API error handling for 1, 2, 4, 190).
 */
const GRAPH_FAULT_CODES: Record<number, { status: number; message: string; type?: string; subcode?: number; details?: string; transient?: boolean }> = {
  1: { status: 500, message: 'An unknown error occurred', transient: true },
  2: { status: 503, message: 'An unexpected error has occurred. Please retry your request later.', transient: true },
  4: { status: 429, message: '(#4) Application request limit reached', details: 'The app has reached its API call rate limit.' },
  190: { status: 401, message: 'Error validating access token: Session has expired on Tuesday, 02-Jan-24 10:00:00 PST. The current time is Wednesday, 03-Jan-24 10:00:00 PST.', subcode: 463 },
  130429: { status: 400, message: '(#130429) Rate limit hit', details: 'Cloud API message throughput has been reached.' },
  131000: { status: 500, message: '(#131000) Something went wrong', details: 'Something went wrong' },
  131016: { status: 503, message: '(#131016) Service unavailable', details: 'A service is temporarily unavailable.' },
  131026: { status: 400, message: '(#131026) Message Undeliverable', details: 'Message Undeliverable.' },
  131047: {
    status: 400,
    message: '(#131047) Re-engagement message',
    details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  131056: { status: 400, message: '(#131056) (Business Account, Consumer Account) pair rate limit hit', details: 'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.' },
};

/** The Graph error object for a fault: a known code's status and texts, else code 131000 (500) or code 2 (503). */
export function graphFaultError(spec: FaultAnswer): ProviderError {
  const byStatus = spec.status === 503 ? 2 : spec.status === 401 ? 190 : spec.status === 429 ? 4 : 131000;
  const code = typeof spec.code === 'number' ? spec.code : typeof spec.code === 'string' && /^\d+$/.test(spec.code) ? Number(spec.code) : byStatus;
  const known = GRAPH_FAULT_CODES[code];
  const status = spec.status ?? known?.status ?? 400;
  const subcode = spec.subcode ?? known?.subcode;
  return {
    status,
    body: {
      error: {
        message: spec.message ?? known?.message ?? `(#${code}) Fault injected by the test`,
        type: spec.type ?? 'OAuthException',
        code,
        ...(subcode !== undefined ? { error_subcode: subcode } : {}),
        ...(known?.details ? { error_data: { messaging_product: 'whatsapp', details: known.details } } : {}),
        ...(known?.transient ? { is_transient: true } : {}),
        fbtrace_id: fbtraceId(),
      },
    },
    headers: { 'x-fb-trace-id': fbtraceId() },
  };
}

/** A business-scoped user id (US.13491208655302741918, or a parent one with an extra segment). */
const BSUID_RE = /^[A-Z]{2}\.(?:[A-Z]{2,4}\.)?[A-Za-z0-9]+$/;

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
      ...(error.details !== undefined ? { error_data: { messaging_product: 'whatsapp', details: error.details } } : {}),
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
  const faults = fakeFaults({ errorFor: graphFaultError });
  const templatesByWaba = new Map<string, FakeTemplate[]>();
  const wabaOfPhone = new Map<string, string>();
  // The media endpoints and their control API (issue 31, media.ts).
  const media = createFakeMedia({
    baseUrl: () => url,
    checkToken,
    sendError: (res, e) => sendError(res, new GraphApiError(e.status, e.code, e.message, e.type, e.subcode, e.details)),
  });
  const templatesOf = (wabaId: string | undefined) => (wabaId !== undefined && templatesByWaba.get(wabaId)) || DEFAULT_TEMPLATES;
  const seedTemplates = (wabaId: string, templates: FakeTemplate[], phoneId?: string) => {
    templatesByWaba.set(
      wabaId,
      templates.map((t, i) => ({ ...t, id: t.id ?? `${wabaId.slice(-6)}${String(i).padStart(4, '0')}` })),
    );
    if (phoneId) wabaOfPhone.set(phoneId, wabaId);
  };

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
      templatesByWaba.clear();
      wabaOfPhone.clear();
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
    let template: RecordedSend['template'];
    try {
      payload = await readJson(req);
      checkToken(req);
      if (!/^\d+$/.test(phoneId)) throw phoneNotFound(phoneId);
      const recipient = typeof payload.recipient === 'string' ? payload.recipient : '';
      to = typeof payload.to === 'string' ? payload.to : recipient;
      type = typeof payload.type === 'string' ? payload.type : 'text';
      const textBody = (payload.text as { body?: unknown } | undefined)?.body;
      text = type === 'text' && typeof textBody === 'string' ? textBody : '';
      if (type === 'template') template = templateOf(payload);
      if (payload.messaging_product !== 'whatsapp') throw new GraphApiError(400, 100, '(#100) The parameter messaging_product is required.');
      if (!to) throw new GraphApiError(400, 100, '(#100) The parameter to is required.');
      // A business-scoped user id is not a phone number: Meta takes it in `recipient` only.
      if (typeof payload.to === 'string' && BSUID_RE.test(payload.to)) {
        throw new GraphApiError(400, 100, '(#100) Invalid parameter', 'OAuthException', undefined, 'to must be a phone number; send a business-scoped user id in recipient');
      }
      if (type === 'text' && !text) throw new GraphApiError(400, 100, '(#100) The parameter text[\'body\'] is required.');
      if (template) checkTemplate(phoneId, template);
      // Media, location and interactive sends in Meta's shapes and limits (issue 31, content-checks.ts).
      const refusal = checkContent(type, payload, { isUploaded: (id) => media.knows(id) });
      if (refusal) throw new GraphApiError(400, refusal.code, refusal.message, 'OAuthException', undefined, refusal.details);
      const failed = await applyFailure(phoneId, 'sends', res);
      if (failed !== undefined) {
        record({ phoneId, to, text, type, id: '', status: failed, at, payload, ...(template ? { template } : {}) });
        return;
      }
      const id = `wamid.${randomBytes(24).toString('base64url')}`;
      record({ phoneId, to, text, type, id, status: 200, at, payload, ...(template ? { template } : {}) });
      const contact = recipient && !payload.to ? { input: recipient, user_id: recipient } : { input: to, wa_id: to.replace(/\D/g, '') };
      send(res, 200, { messaging_product: 'whatsapp', contacts: [contact], messages: [{ id }] });
    } catch (error) {
      if (!(error instanceof GraphApiError)) throw error;
      record({ phoneId, to, text, type, id: '', status: error.status, at, payload, ...(template ? { template } : {}) });
      sendError(res, error);
    }
  }

  /** The template part of a send (name, language code, body parameters' texts); 400 code 100 when absent. */
  function templateOf(payload: Record<string, unknown>): NonNullable<RecordedSend['template']> {
    const t = payload.template as { name?: unknown; language?: { code?: unknown }; components?: unknown } | undefined;
    if (!t || typeof t.name !== 'string' || !t.name) throw new GraphApiError(400, 100, "(#100) The parameter template['name'] is required.");
    const language = typeof t.language?.code === 'string' ? t.language.code : '';
    if (!language) throw new GraphApiError(400, 100, "(#100) The parameter template['language'] is required.");
    const components = Array.isArray(t.components) ? (t.components as { type?: unknown; parameters?: unknown }[]) : [];
    const bodyParams = components.find((c) => typeof c?.type === 'string' && c.type.toLowerCase() === 'body')?.parameters;
    const parameters = (Array.isArray(bodyParams) ? bodyParams : []).map((p) => String((p as { text?: unknown })?.text ?? ''));
    return { name: t.name, language, parameters };
  }

  /** Meta's answers for a template it does not have, or cannot send, or with the wrong parameter count. */
  function checkTemplate(phoneId: string, sent: NonNullable<RecordedSend['template']>): void {
    const found = templatesOf(wabaOfPhone.get(phoneId)).find((t) => t.name === sent.name && t.language === sent.language);
    if (!found || found.status === 'PENDING' || found.status === 'REJECTED') {
      throw new GraphApiError(404, 132001, '(#132001) Template name does not exist in the translation', 'OAuthException', undefined,
        `template name (${sent.name}) does not exist in ${sent.language}`);
    }
    if (found.status === 'PAUSED') throw new GraphApiError(400, 132015, '(#132015) Template is Paused', 'OAuthException', undefined, `Template ${sent.name} is paused due to low quality`);
    if (found.status === 'DISABLED') throw new GraphApiError(400, 132016, '(#132016) Template is disabled', 'OAuthException', undefined, `Template ${sent.name} was disabled due to low quality`);
    const bodyText = found.components.find((c) => String(c.type).toUpperCase() === 'BODY')?.text;
    const expected = new Set(typeof bodyText === 'string' ? [...bodyText.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((m) => m[1]) : []).size;
    if (expected !== sent.parameters.length) {
      throw new GraphApiError(400, 132000, '(#132000) Number of parameters does not match the expected number of params', 'OAuthException', undefined,
        `body: number of localizable_params (${sent.parameters.length}) does not match the expected number of params (${expected})`);
    }
  }

  /** GET /{wabaId}/message_templates?fields&limit&after: Meta's list with cursor paging. */
  function listTemplates(req: IncomingMessage, res: ServerResponse, wabaId: string, query: URLSearchParams): void {
    checkToken(req);
    if (!/^\d+$/.test(wabaId)) throw phoneNotFound(wabaId);
    const all = templatesOf(wabaId);
    const limit = Math.min(Math.max(Number(query.get('limit')) || TEMPLATE_PAGE_DEFAULT, 1), 1000);
    const after = query.get('after');
    const start = after ? Number(Buffer.from(after, 'base64url').toString()) || 0 : 0;
    const page = all.slice(start, start + limit);
    const cursor = (i: number) => Buffer.from(String(i)).toString('base64url');
    const fields = (query.get('fields') ?? 'name,language,status,category,id').split(',').map((f) => f.trim());
    const data = page.map((t) => Object.fromEntries(Object.entries(t).filter(([k]) => fields.includes(k) || k === 'id')));
    const nextQuery = new URLSearchParams(query);
    nextQuery.set('after', cursor(start + page.length));
    send(res, 200, {
      data,
      paging: {
        cursors: { before: cursor(start), after: cursor(start + page.length) },
        ...(start + page.length < all.length ? { next: `https://graph.facebook.com/${FAKE_GRAPH_VERSION}/${wabaId}/message_templates?${nextQuery.toString()}` } : {}),
      },
    });
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, method: string, path: string, query: URLSearchParams): Promise<void> {
    try {
      if (await media.handle(req, res, method, path, query)) return;
      const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
      if (method === 'POST' && parts.length === 2 && parts[1] === 'messages') return await sendMessage(req, res, parts[0]!);
      if (method === 'GET' && parts.length === 2 && parts[1] === 'message_templates') return listTemplates(req, res, parts[0]!, query);
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
    if (method === 'POST' && action === 'templates') {
      const body = await readJson(req);
      if (typeof body.wabaId !== 'string' || !body.wabaId || !Array.isArray(body.templates)) {
        return send(res, 400, { error: { message: 'wabaId and templates[] are required' } });
      }
      const templates = (body.templates as Partial<FakeTemplate>[]).map((t) => ({
        name: String(t.name ?? ''),
        language: String(t.language ?? 'es'),
        status: String(t.status ?? 'APPROVED'),
        category: String(t.category ?? 'UTILITY'),
        components: Array.isArray(t.components) ? t.components : [],
        ...(t.id ? { id: String(t.id) } : {}),
      }));
      seedTemplates(body.wabaId, templates, typeof body.phoneId === 'string' && body.phoneId ? body.phoneId : undefined);
      return send(res, 200, { ok: true, count: templates.length });
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

  async function handle(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    if (await faults.control(req, res, url.pathname)) return;
    if (await media.control(req, res, method, url)) return;
    if (url.pathname.startsWith('/_test/')) return handleControl(req, res, method, url);
    if (url.pathname === '/' && method === 'GET') {
      return send(res, 200, { service: 'fake WhatsApp Cloud API (AgentDesk local runtime)', graphUrl: `/${FAKE_GRAPH_VERSION}` });
    }
    const path = url.pathname.replace(/^\/v\d+\.\d+(?=\/)/, '').replace(/\/+$/, '');
    if (await faults.intercept(req, res, [url.pathname, path])) return;
    return handleApi(req, res, method, path, url.searchParams);
  }

  const server: Server = createServer((req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://fake-whatsapp');
    handle(req, res, method, url).catch((error: unknown) => {
      options.log?.('error', `[whatsapp] ${(error as Error).message}`);
      send(res, 500, { error: { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, fbtrace_id: fbtraceId() } });
    });
  });

  const port = await listen(server, options.port ?? 0, host);
  const url = `http://${host}:${port}`;
  options.log?.('info', `[whatsapp] fake WhatsApp Graph API at ${url}/${FAKE_GRAPH_VERSION}`);

  const close = closeOnce(server, { cancel: () => (waits.cancel(), faults.close()) });

  return { url, graphUrl: `${url}/${FAKE_GRAPH_VERSION}`, port, sent, fail, seedTemplates, reset, close, stop: close };
}
