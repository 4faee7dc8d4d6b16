/**
 * A fake Stripe API server on loopback: the tests' Stripe and the product's local billing
 * mode. The app talks to it through the official `stripe` SDK (STRIPE_API_URL → host, port,
 * protocol), so local mode and production share every line of app code.
 *
 *   /v1/...          the REST API subset AgentDesk uses, form-encoded in, Stripe JSON out:
 *                    what adapters/stripe/gateway.ts calls (POST customers, POST/GET
 *                    checkout/sessions, POST billing_portal/sessions, GET/POST/DELETE
 *                    subscriptions/:id, GET prices/:id with expand[]=currency_options,
 *                    GET events/:id) and
 *                    the lists the tests read (GET customers, subscriptions, invoices,
 *                    prices); anything else is Stripe's 404
 *   /checkout/:id    the hosted checkout stand-in (Pay → signed webhooks → success_url)
 *   /portal/:id      the customer portal stand-in (switch plan, cancel, resume, simulations)
 *   /_test/...       control API for tests (recorded requests, deliveries, clock, payments)
 *   /_test/faults    failure switches on /v1 (../faults.ts): Stripe's {error: {type, message, code?}}
 *                    for any status, Retry-After, hang, dropped connections
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { listen, readBody as readHttpBody, sendJson as sendJsonBody } from '../fake-http.js';
import { fakeFaults, type FaultAnswer, type ProviderError } from '../faults.js';
import { parseStripeParams, str, type Params } from './form.js';
import {
  API_VERSION,
  FakeStripeEngine,
  StripeApiError,
  emptyData,
  formatAmount,
  newestFirst,
  notFound,
  type FakeStripeData,
  type RequestContext,
} from './engine.js';
import { newId } from './objects.js';
import { checkoutPage, messagePage, pageLocale, portalPage } from './pages.js';
import { localPrices, priceIdsByPlan, type LocalPrice } from './prices.js';
import { WebhookDeliverer, type Delivery } from './webhooks.js';
import type { PlanId } from '../../src/contract/billing.js';

/** The key the local stack gives the handlers; the fake accepts any sk_test_ key. */
export const LOCAL_STRIPE_SECRET_KEY = 'sk_test_local_agentdesk';
export const WEBHOOK_PATH = '/api/webhooks/stripe';

export interface RecordedRequest {
  id: string;
  at: string;
  method: string;
  path: string;
  /** Query and body parameters, parsed from bracket notation. */
  params: Params;
  idempotencyKey: string | null;
  status: number;
  replayed: boolean;
}

export interface FakeStripeOptions {
  /** 0 or missing: any free port. */
  port?: number;
  host?: string;
  /** Where events are POSTed (the app's /api/webhooks/stripe); none = events are only recorded. */
  webhookUrl?: string;
  webhookSecret: string;
  prices?: LocalPrice[];
  /** Load state from this file on start and save it after changes and on stop; omit = memory only. */
  stateFile?: string;
  /** Webhook retry delays (ms); default 1 s, 5 s, 20 s. */
  retryDelaysMs?: number[];
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface FakeStripe {
  /** http://127.0.0.1:<port>: STRIPE_API_URL. */
  url: string;
  port: number;
  webhookSecret: string;
  prices: LocalPrice[];
  /** {starter, professional, enterprise} → price id. */
  priceIds: Record<PlanId, string>;
  engine: FakeStripeEngine;
  deliverer: WebhookDeliverer;
  requests: RecordedRequest[];
  setWebhookUrl(url: string | undefined): void;
  /** Saves state (when a state file is set) and closes the server; safe to call twice. */
  stop(): Promise<void>;
}

/** whsec_local_<random>, created once per data dir and kept in <dataDir>/stripe-webhook-secret. */
export function localWebhookSecret(dataDir: string): string {
  const file = join(dataDir, 'stripe-webhook-secret');
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (/^whsec_\w+$/.test(saved)) return saved;
  }
  const secret = `whsec_local_${randomBytes(24).toString('hex')}`;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

const MAX_BODY = 1024 * 1024;
const MAX_REQUESTS = 5000;

const readBody = (req: IncomingMessage) =>
  readHttpBody(req, MAX_BODY, () => new StripeApiError(413, { type: 'invalid_request_error', message: 'Request body too large.' }));

/** Stripe answers pretty-printed JSON. */
function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonBody(res, status, body, { 'cache-control': 'no-cache, no-store', ...headers }, 2);
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:",
    'x-frame-options': 'DENY',
  });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'content-length': 0 });
  res.end();
}

const errorBody = (error: StripeApiError) => ({ error: { ...error.body, request_log_url: null } });

/** Stripe's error for a fault: 429 rate_limit, 401 authentication_error, 5xx api_error, 4xx invalid_request_error. */
export function stripeFaultError(spec: FaultAnswer): ProviderError {
  const status = spec.status ?? 500;
  const type = spec.type ?? (status === 401 ? 'authentication_error' : status >= 500 ? 'api_error' : 'invalid_request_error');
  const message =
    spec.message ??
    (status === 429
      ? 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.'
      : status === 401
        ? 'Invalid API Key provided: sk_test_****'
        : status >= 500
          ? 'An unknown error occurred'
          : 'Fault injected by the test');
  const code = spec.code ?? (status === 429 ? 'rate_limit' : undefined);
  return { status, body: { error: { type, message, ...(code !== undefined ? { code: String(code) } : {}), request_log_url: null } } };
}

/** The API key from `Authorization: Bearer sk_…` or basic auth (`curl -u sk_test_…:`). */
function apiKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, value = ''] = header.split(/\s+/, 2);
  if (scheme?.toLowerCase() === 'bearer') return value;
  if (scheme?.toLowerCase() === 'basic') return Buffer.from(value, 'base64').toString('utf8').split(':')[0];
  return undefined;
}

function loadState(file: string | undefined, log: FakeStripeOptions['log']): FakeStripeData {
  if (!file || !existsSync(file)) return emptyData();
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as FakeStripeData;
    if (data.version === 1) return { ...emptyData(), ...data };
  } catch {
    // fall through
  }
  log?.('warn', `[stripe] ignoring unreadable ${file}`);
  return emptyData();
}

export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  const prices = options.prices ?? localPrices();
  let webhookUrl = options.webhookUrl;
  const requests: RecordedRequest[] = [];
  const idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const faults = fakeFaults({ errorFor: stripeFaultError, send: sendJson });

  const deliverer = new WebhookDeliverer({
    url: () => webhookUrl,
    secret: options.webhookSecret,
    retryDelaysMs: options.retryDelaysMs,
    log,
  });
  // The real origin is known once the server listens (port 0); set below.
  const engine = new FakeStripeEngine({
    baseUrl: `http://${host}:${options.port ?? 0}`,
    prices,
    data: loadState(options.stateFile, log),
    onEvent: (event) => deliverer.enqueue(event),
  });

  let saveTimer: NodeJS.Timeout | undefined;
  const saveNow = () => {
    if (!options.stateFile) return;
    clearTimeout(saveTimer);
    saveTimer = undefined;
    mkdirSync(dirname(options.stateFile), { recursive: true });
    const tmp = `${options.stateFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(engine.data));
    renameSync(tmp, options.stateFile);
  };
  const scheduleSave = () => {
    if (!options.stateFile || saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      try {
        saveNow();
      } catch (error) {
        log('warn', `[stripe] could not save state: ${(error as Error).message}`);
      }
    }, 250);
    saveTimer.unref();
  };

  // ------------------------------------------------------------ /v1 (the REST API)

  function routeApi(method: string, path: string, params: Params, context: RequestContext): unknown {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent); // ['v1', ...]
    const [, a, b, c] = parts;
    const n = parts.length;
    const is = (m: string, len: number) => method === m && n === len;

    if (a === 'customers') {
      if (is('POST', 2)) return engine.createCustomer(params);
      if (is('GET', 2)) return engine.expand(engine.listCustomers(params), params);
    }
    if (a === 'checkout' && b === 'sessions') {
      if (is('POST', 3)) return engine.createCheckoutSession(params);
      if (is('GET', 4)) {
        const paths = (Array.isArray(params.expand) ? params.expand : []).filter((p): p is string => typeof p === 'string');
        const session = engine.expand(engine.checkout(c ?? '').session, {
          expand: paths.filter((p) => p !== 'line_items'),
        });
        return paths.includes('line_items') ? { ...session, line_items: engine.checkoutLineItems(c ?? '') } : session;
      }
    }
    if (a === 'billing_portal' && b === 'sessions' && is('POST', 3)) return engine.createPortalSession(params);
    if (a === 'events' && is('GET', 3)) {
      const event = engine.data.events.find((e) => e.id === b);
      if (!event) throw notFound('event', b ?? '');
      return event;
    }
    if (a === 'prices') {
      if (is('GET', 2)) return engine.listPrices(params);
      if (is('GET', 3)) return engine.priceObject(b ?? '', params);
    }
    if (a === 'subscriptions') {
      if (is('GET', 2)) return engine.expand(engine.listSubscriptions(params), params);
      if (is('GET', 3)) return engine.expand(engine.servedSubscription(b ?? ''), params);
      if (is('POST', 3)) return engine.expand(engine.updateSubscription(b ?? '', params, context), params);
      if (is('DELETE', 3)) return engine.expand(engine.cancelSubscription(b ?? '', context), params);
    }
    if (a === 'invoices' && is('GET', 2)) return engine.expand(engine.listInvoices(params), params);
    throw new StripeApiError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    });
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const requestId = newId('req', 14);
    const headers: Record<string, string> = {
      'request-id': requestId,
      'stripe-version': String(req.headers['stripe-version'] ?? API_VERSION),
    };
    const key = apiKey(req);
    if (!key || !key.startsWith('sk_test_')) {
      const message = key
        ? `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`
        : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').";
      sendJson(res, 401, { error: { message, type: 'invalid_request_error' } }, { ...headers, 'www-authenticate': 'Bearer realm="Stripe"' });
      return;
    }
    const body = method === 'GET' ? '' : await readBody(req);
    const params = { ...parseStripeParams(url.searchParams), ...parseStripeParams(body) };
    const idemHeader = req.headers['idempotency-key'];
    const idempotencyKey = typeof idemHeader === 'string' && idemHeader !== '' ? idemHeader : null;
    const record = (status: number, replayed: boolean) => {
      requests.push({
        id: requestId,
        at: new Date().toISOString(),
        method,
        path: url.pathname,
        params,
        idempotencyKey,
        status,
        replayed,
      });
      if (requests.length > MAX_REQUESTS) requests.splice(0, requests.length - MAX_REQUESTS);
    };

    const usesKey = idempotencyKey !== null && (method === 'POST' || method === 'DELETE');
    const fingerprint = `${method} ${url.pathname} ${JSON.stringify(params)}`;
    if (usesKey) {
      headers['idempotency-key'] = idempotencyKey;
      const previous = idempotency.get(idempotencyKey);
      if (previous) {
        if (previous.fingerprint !== fingerprint) {
          record(400, false);
          sendJson(
            res,
            400,
            {
              error: {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              },
            },
            headers,
          );
          return;
        }
        record(previous.status, true);
        sendJson(res, previous.status, previous.body, { ...headers, 'idempotent-replayed': 'true' });
        return;
      }
    }

    let status = 200;
    let result: unknown;
    try {
      result = routeApi(method, url.pathname, params, { requestId, idempotencyKey });
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      result = errorBody(error);
    }
    if (usesKey && status < 500) idempotency.set(idempotencyKey, { fingerprint, status, body: result });
    record(status, false);
    if (method !== 'GET') scheduleSave();
    sendJson(res, status, result, headers);
  }

  // ------------------------------------------------------------ browser pages

  async function handlePage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const method = (req.method ?? 'GET').toUpperCase();
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const [kind, id = '', sub, subId = '', action] = parts;

    if (kind === 'checkout' && parts.length === 2 && method === 'GET') {
      const stored = engine.checkout(id);
      const customerEmail = stored.session.customer
        ? (engine.data.customers[stored.session.customer]?.email ?? null)
        : stored.session.customer_email;
      sendHtml(
        res,
        200,
        checkoutPage({
          session: stored.session,
          price: engine.price(stored.priceId),
          quantity: stored.quantity,
          trialPeriodDays: stored.trialPeriodDays,
          email: customerEmail,
          successUrl: engine.successRedirect(stored.session),
          locale: pageLocale(req.headers['accept-language']),
        }),
      );
      return true;
    }
    if (kind === 'checkout' && parts.length === 3 && sub === 'pay' && method === 'POST') {
      await readBody(req);
      const result = engine.payCheckout(id);
      scheduleSave();
      // The app has its webhooks before the browser reaches the success page.
      await deliverer.flush();
      redirect(res, result.redirect);
      return true;
    }
    if (kind === 'portal' && parts.length === 2 && method === 'GET') {
      const session = engine.portalSession(id);
      const all = newestFirst(Object.values(engine.data.subscriptions).filter((s) => s.customer === session.customer));
      const live = all.filter((s) => s.status !== 'canceled');
      sendHtml(
        res,
        200,
        portalPage({
          session,
          email: engine.data.customers[session.customer]?.email ?? null,
          subscriptions: live.length > 0 ? live : all.slice(0, 1),
          prices: engine.prices,
          message: url.searchParams.get('message') ?? undefined,
          locale: pageLocale(req.headers['accept-language']),
        }),
      );
      return true;
    }
    if (kind === 'portal' && parts.length === 5 && sub === 'subscriptions' && method === 'POST') {
      const session = engine.portalSession(id);
      const subscription = engine.getSubscription(subId);
      // Another customer's subscription does not exist as far as this portal session is concerned.
      if (subscription.customer !== session.customer) throw notFound('subscription', subId);
      const form = parseStripeParams(await readBody(req));
      let message: string;
      switch (action) {
        case 'switch': {
          const price = engine.price(str(form, 'price') ?? '');
          engine.changePrice(subId, price.id);
          message = `Plan changed to ${price.name}.`;
          break;
        }
        case 'cancel-at-period-end':
          engine.setCancelAtPeriodEndById(subId, true);
          message = 'Your subscription will be canceled at the end of the period.';
          break;
        case 'resume':
          engine.setCancelAtPeriodEndById(subId, false);
          message = 'Your subscription will continue.';
          break;
        case 'cancel-now':
          engine.cancelSubscription(subId);
          message = 'Your subscription has been canceled.';
          break;
        case 'pay-failed':
          engine.simulatePaymentFailed(subId);
          message = 'Simulated a failed renewal payment: the subscription is past due.';
          break;
        case 'renew':
          engine.simulateRenewal(subId);
          message = 'Simulated a successful renewal: a new period has started.';
          break;
        default:
          return false;
      }
      scheduleSave();
      await deliverer.flush();
      redirect(res, `/portal/${encodeURIComponent(id)}?message=${encodeURIComponent(message)}`);
      return true;
    }
    if (kind === 'invoices' && parts.length === 2 && method === 'GET') {
      const invoice = engine.getInvoice(id);
      sendHtml(
        res,
        200,
        messagePage(
          `Invoice ${String(invoice.number)}`,
          `Status ${invoice.status}; amount due ${formatAmount(invoice.amount_due, String(invoice.currency), pageLocale(req.headers['accept-language']))}, paid ${formatAmount(invoice.amount_paid, String(invoice.currency), pageLocale(req.headers['accept-language']))}.`,
        ),
      );
      return true;
    }
    if (parts.length === 0 && method === 'GET') {
      sendHtml(res, 200, messagePage('Fake Stripe', 'Local billing mode: the Stripe API for AgentDesk on this machine.'));
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------ /_test (control API)

  async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent); // ['_test', ...]
    const [, a, id = '', action] = parts;
    const q = url.searchParams;
    const readJson = async (): Promise<Record<string, unknown>> => {
      const text = await readBody(req);
      if (!text) return {};
      if ((req.headers['content-type'] ?? '').includes('application/json')) return JSON.parse(text) as Record<string, unknown>;
      return parseStripeParams(text);
    };

    if (method === 'GET' && a === 'requests') {
      const path = q.get('path');
      const m = q.get('method')?.toUpperCase();
      return sendJson(
        res,
        200,
        requests.filter((r) => (!path || r.path.startsWith(path)) && (!m || r.method === m)),
      );
    }
    if (method === 'GET' && a === 'deliveries') {
      const filter = (d: Delivery) =>
        (!q.get('type') || d.type === q.get('type')) &&
        (!q.get('customer') || d.customer === q.get('customer')) &&
        (!q.get('object') || d.objectId === q.get('object')) &&
        (!q.get('event') || d.eventId === q.get('event'));
      if (q.get('settled') === '1' || q.get('settled') === 'true') await deliverer.drain();
      return sendJson(res, 200, deliverer.deliveries.filter(filter));
    }
    if (method === 'GET' && a === 'clock') return sendJson(res, 200, { now: engine.now(), offset: engine.data.clockOffset });
    if (method === 'POST' && a === 'subscriptions' && (action === 'pay-failed' || action === 'renew')) {
      await readBody(req);
      const subscription = action === 'renew' ? engine.simulateRenewal(id) : engine.simulatePaymentFailed(id);
      scheduleSave();
      await deliverer.flush();
      return sendJson(res, 200, { subscription });
    }
    if (method === 'POST' && a === 'subscriptions' && action === 'legacy-shape') {
      const body = await readJson();
      engine.setLegacyShape(id, body.legacy !== false);
      scheduleSave();
      return sendJson(res, 200, { subscription: engine.servedSubscription(id) });
    }
    if (method === 'POST' && a === 'checkout' && action === 'pay') {
      await readBody(req);
      const result = engine.payCheckout(id);
      scheduleSave();
      await deliverer.flush();
      return sendJson(res, 200, result);
    }
    sendJson(res, 404, { error: { type: 'invalid_request_error', message: `Unknown control route ${method} ${url.pathname}` } });
  }

  // ------------------------------------------------------------ server

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    try {
      if (await faults.control(req, res, url.pathname)) return;
      if (url.pathname.startsWith('/v1/')) {
        if (await faults.intercept(req, res, [url.pathname, url.pathname.slice('/v1'.length)])) return;
        return await handleApi(req, res, url);
      }
      if (url.pathname.startsWith('/_test/')) return await handleControl(req, res, url);
      if (await handlePage(req, res, url)) return;
      sendHtml(res, 404, messagePage('Not found', `Nothing here: ${url.pathname}`));
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      if (url.pathname.startsWith('/v1/') || url.pathname.startsWith('/_test/')) {
        sendJson(res, error.status, { error: error.body });
      } else {
        sendHtml(res, error.status, messagePage('Something is not right', error.message));
      }
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log('error', `[stripe] ${req.method} ${req.url}: ${(error as Error)?.stack ?? String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'api_error', message: 'Internal error in the fake Stripe.' } });
      else res.destroy();
    });
  });
  const port = await listen(server, options.port ?? 0, host);
  const baseUrl = `http://${host}:${port}`;
  engine.baseUrl = baseUrl;

  let stopping: Promise<void> | undefined;
  return {
    url: baseUrl,
    port,
    webhookSecret: options.webhookSecret,
    prices,
    priceIds: priceIdsByPlan(prices),
    engine,
    deliverer,
    requests,
    setWebhookUrl: (next) => {
      webhookUrl = next;
    },
    stop: () =>
      (stopping ??= (async () => {
        deliverer.stop();
        faults.close();
        try {
          saveNow();
        } catch (error) {
          log('warn', `[stripe] could not save state: ${(error as Error).message}`);
        }
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })()),
  };
}
