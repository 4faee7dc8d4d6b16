/**
 * Webhook verification as one declared step: the manifest declares it per webhook route, the HTTP
 * wrapper runs the provider's verifier on the raw request before the route, and the route only
 * sees the verified payload. Requests are signed with the providers' own helpers (Stripe's test
 * header, the twilio package's public getExpectedTwilioSignature, HMAC-SHA256 for Meta).
 */
import { createHmac } from 'node:crypto';
import type { Context } from 'aws-lambda';
import Stripe from 'stripe';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { createStripeWebhookVerifier } from '../../../src/adapters/stripe/webhook-verifier.js';
import { createTwilioWebhookVerifier } from '../../../src/adapters/twilio/webhook-verifier.js';
import { createWhatsAppWebhookVerifier } from '../../../src/adapters/whatsapp/webhook-verifier.js';
import type { IntegrationRecord } from '../../../src/domain/integrations/records.js';
import { httpGroup, type HttpEvent, type HttpResult, type RouteTable } from '../../../src/http/handler.js';
import { webhookVerification, type WebhookRequest, type WebhookVerifier } from '../../../src/http/webhook-verification.js';
import { routes, webhookVerifications } from '../../../src/routes.js';

const USER = '6f1c2b9e-3d4a-4c5b-8e7f-0a1b2c3d4e5f';
const INTEGRATION = '0b6d7c1e-2f3a-4b5c-9d8e-7f6a5b4c3d2e';

function request(overrides: Partial<WebhookRequest> = {}): WebhookRequest {
  return { params: {}, query: {}, headers: {}, rawBody: Buffer.alloc(0), rawPath: '/', rawQueryString: '', method: 'POST', ...overrides };
}

const bodyOf = (result: HttpResult) => JSON.parse(String(result.body)) as unknown;

describe('Stripe verifier', () => {
  const secret = 'whsec_test_secret';
  const prices = { starter: 'price_s', professional: 'price_p', enterprise: 'price_e' };
  const verifier = createStripeWebhookVerifier({ secrets: async () => ({ webhookSecret: secret, prices }) });
  const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid', created: 1, data: { object: { id: 'in_1' } } });
  const signed = (options: { secret?: string; timestamp?: number } = {}) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? secret, timestamp: options.timestamp });

  it('hands the route the event and the price ids of a correctly signed body', async () => {
    const result = await verifier.verify(request({ rawBody: Buffer.from(payload), headers: { 'stripe-signature': signed() } }));

    expect(result).toEqual({ verified: { event: expect.objectContaining({ id: 'evt_1', type: 'invoice.paid' }), prices } });
  });

  it('answers 400 for a missing, wrong or stale signature', async () => {
    const stale = Math.floor(Date.now() / 1000) - 301;
    const headers = [undefined, signed({ secret: 'whsec_other' }), signed({ timestamp: stale })];

    const results = await Promise.all(headers.map((h) => verifier.verify(request({ rawBody: Buffer.from(payload), headers: h ? { 'stripe-signature': h } : {} }))));

    for (const result of results) {
      expect('refused' in result && result.refused.statusCode).toBe(400);
      expect('refused' in result && bodyOf(result.refused)).toEqual({ success: false, message: 'Invalid Stripe signature' });
    }
  });

  it('answers a plain 500 when the signing secret cannot be read', async () => {
    const unconfigured = createStripeWebhookVerifier({ secrets: async () => null });

    const result = await unconfigured.verify(request({ rawBody: Buffer.from(payload), headers: { 'stripe-signature': signed() } }));

    expect('refused' in result && result.refused.statusCode).toBe(500);
    expect('refused' in result && bodyOf(result.refused)).toEqual({ success: false, message: 'Internal server error' });
  });
});

describe('Twilio verifier', () => {
  const token = 'twilio-auth-token';
  const integration = { accountSid: 'AC123', authToken: token, isActive: true };
  const reads: string[] = [];
  const make = (found: typeof integration | null = integration) =>
    createTwilioWebhookVerifier({ integrations: { get: async (userId) => (reads.push(userId), found) }, appUrl: () => 'https://app.example/anything' });
  const rawPath = `/api/webhooks/twilio/${USER}/voice/gather`;
  const url = `https://app.example${rawPath}?turn=2`;
  const params = { AccountSid: 'AC123', CallSid: 'CA1', SpeechResult: 'Hola & adiós' };
  const form = Buffer.from(new URLSearchParams(params).toString());
  const call = (headers: Record<string, string>, userId = USER, body = form) =>
    request({ params: { userId }, headers, rawBody: body, rawPath: rawPath.replace(USER, userId), rawQueryString: 'turn=2' });

  it("hands the route the user and the form parameters when signed over the public URL with the user's auth token", async () => {
    const signature = twilio.getExpectedTwilioSignature(token, url, params);

    const result = await make().verify(call({ 'x-twilio-signature': signature }));

    expect(twilio.validateRequest(token, signature, url, params)).toBe(true);
    expect(result).toEqual({ verified: { userId: USER, params } });
  });

  it('answers 403 text/plain for a missing or wrong signature, another URL, an inactive integration or another AccountSid', async () => {
    const good = twilio.getExpectedTwilioSignature(token, url, params);
    const otherAccount = { ...params, AccountSid: 'AC999' };
    const cases = [
      [make(), call({})],
      [make(), call({ 'x-twilio-signature': twilio.getExpectedTwilioSignature('other-token', url, params) })],
      [make(), call({ 'x-twilio-signature': twilio.getExpectedTwilioSignature(token, url.replace('turn=2', 'turn=3'), params) })],
      [make({ ...integration, isActive: false }), call({ 'x-twilio-signature': good })],
      [make(null), call({ 'x-twilio-signature': good })],
      [make(), call({ 'x-twilio-signature': twilio.getExpectedTwilioSignature(token, url, otherAccount) }, USER, Buffer.from(new URLSearchParams(otherAccount).toString()))],
    ] as const;

    for (const [verifier, req] of cases) {
      const result = await verifier.verify(req);
      expect(result).toEqual({ refused: { statusCode: 403, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: 'Forbidden' } });
    }
  });

  it('refuses a {userId} that is not a UUID without reading the integration', async () => {
    reads.length = 0;

    const result = await make().verify(call({ 'x-twilio-signature': 'x' }, 'x'.repeat(5000)));

    expect('refused' in result && result.refused.statusCode).toBe(403);
    expect(reads).toEqual([]);
  });
});

describe('WhatsApp verifier', () => {
  const appSecret = 'meta-app-secret';
  const verifyToken = 'verify-token-0123456789';
  const record: IntegrationRecord = {
    id: INTEGRATION,
    userId: USER,
    type: 'whatsapp-business',
    isActive: true,
    credentials: { appSecret: `sealed:${appSecret}`, webhookVerifyToken: `sealed:${verifyToken}` },
    settings: {},
    createdAt: 'c',
    updatedAt: 'u',
  };
  const verifier = createWhatsAppWebhookVerifier({
    integrations: { getById: async (id) => (id === INTEGRATION ? record : null) },
    secrets: { open: async (sealed) => sealed.replace(/^sealed:/, '') },
  });
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
  const hmac = (secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const post = (headers: Record<string, string>, integrationId = INTEGRATION) => request({ params: { integrationId }, headers, rawBody: body });
  const get = (query: Record<string, string>, integrationId = INTEGRATION) => request({ method: 'GET', params: { integrationId }, query });

  it('hands the route the integration of a delivery signed with its app secret', async () => {
    const result = await verifier.verify(post({ 'x-hub-signature-256': hmac(appSecret) }));

    expect(result).toEqual({ verified: { kind: 'delivery', integration: record } });
  });

  it('answers 401 for a missing or wrong signature and 404 for an unknown integration', async () => {
    const missing = await verifier.verify(post({}));
    const wrong = await verifier.verify(post({ 'x-hub-signature-256': hmac('other') }));
    const unknown = await verifier.verify(post({ 'x-hub-signature-256': hmac(appSecret) }, '6f1c2b9e-3d4a-4c5b-8e7f-000000000009'));

    for (const result of [missing, wrong]) expect('refused' in result && [result.refused.statusCode, bodyOf(result.refused)]).toEqual([401, { success: false, message: 'Invalid signature' }]);
    expect('refused' in unknown && [unknown.refused.statusCode, bodyOf(unknown.refused)]).toEqual([404, { success: false, message: 'Not found' }]);
  });

  it("passes Meta's GET handshake with the verify token, else 403 text/plain", async () => {
    const ok = { 'hub.mode': 'subscribe', 'hub.verify_token': verifyToken, 'hub.challenge': '4242' };

    const passed = await verifier.verify(get(ok));
    const refused = await verifier.verify(get({ ...ok, 'hub.verify_token': 'nope' }));

    expect(passed).toEqual({ verified: { kind: 'handshake', challenge: '4242' } });
    expect('refused' in refused && [refused.refused.statusCode, refused.refused.body]).toEqual([403, 'Forbidden']);
  });
});

describe('the HTTP wrapper', () => {
  const context = { functionName: 'test', awsRequestId: 'r' } as Context;
  const event = (routeKey: string, body = ''): HttpEvent =>
    ({ routeKey, rawPath: '/api/webhooks/stripe', rawQueryString: '', headers: {}, body, isBase64Encoded: false, requestContext: { http: { method: 'POST', sourceIp: '' } } }) as unknown as HttpEvent;

  it('runs the declared verifier before the route, and the route receives only the verified payload', async () => {
    const seen: unknown[] = [];
    let verdict: 'pass' | 'refuse' = 'refuse';
    const stripe: WebhookVerifier<'stripe'> = {
      verify: async (req) =>
        verdict === 'pass'
          ? { verified: { event: { id: 'evt_9', type: 't', created: 0, data: { object: req.rawBody.toString() } }, prices: { starter: '', professional: '', enterprise: '' } } }
          : { refused: { statusCode: 400, body: 'no' } },
    };
    const table: RouteTable = { 'POST /api/webhooks/stripe': async (req) => (seen.push(req.webhook('stripe').event.data.object), { message: 'ok' }) };
    const handler = httpGroup(table, { webhooks: webhookVerification({ stripe: () => stripe }) });

    const refused = await handler(event('POST /api/webhooks/stripe', 'raw-bytes'), context);
    verdict = 'pass';
    const passed = await handler(event('POST /api/webhooks/stripe', 'raw-bytes'), context);

    expect(refused).toEqual({ statusCode: 400, body: 'no' });
    expect(passed).toMatchObject({ statusCode: 200 });
    expect(seen).toEqual(['raw-bytes']);
  });

  it('refuses to build a function whose webhook route has no verifier for its provider, or whose API-key route has no guard', () => {
    const route = async () => ({});

    expect(() => httpGroup({ 'POST /api/webhooks/stripe': route })).toThrow(/stripe verifier/);
    expect(() => httpGroup({ 'POST /api/webhooks/twilio/{userId}/voice': route }, { webhooks: webhookVerification({ stripe: () => ({ verify: async () => ({ refused: { statusCode: 500 } }) }) }) })).toThrow(/twilio verifier/);
    expect(() => httpGroup({ 'GET /api/contacts': route })).toThrow(/API-key guard/);
    // Issue 32: a route the activity log records needs the recorder (injected, so other functions do not bundle it).
    expect(() => httpGroup({ 'POST /api/agents': route })).toThrow(/activity recorder/);
  });

  it('a route that declares no verification cannot read a webhook payload (500, no internals)', async () => {
    const handler = httpGroup({ 'POST /api/login': async (req) => (req.webhook('stripe'), {}) });

    const result = await handler(event('POST /api/login'), context);

    expect(result).toMatchObject({ statusCode: 500, body: JSON.stringify({ success: false, message: 'Internal server error' }) });
  });
});

describe('the manifest', () => {
  it("declares a verification on every 'webhook' route and on no other, with the path parameter its secret lookup needs", () => {
    const declared = webhookVerifications();

    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      const rule = declared[key];
      expect(rule !== undefined, key).toBe(route.auth === 'webhook');
      if (rule?.secret === 'path-user-integration') expect(route.path).toContain('{userId}');
      if (rule?.secret === 'path-integration') expect(route.path).toContain('{integrationId}');
    }
  });
});
