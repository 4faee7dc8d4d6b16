/**
 * Webhooks from the fake Stripe are signed like Stripe's: the SDK's own constructEvent()
 * with the endpoint secret accepts them and rejects them under another secret. Events go out
 * in order, non-2xx answers are retried and every attempt is recorded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { WebhookDeliverer } from '../../../local/fake-stripe/webhooks.js';
import type { StripeEventObject } from '../../../local/fake-stripe/objects.js';

const secret = 'whsec_unit_test_secret';

interface Received {
  body: string;
  signature: string;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A webhook endpoint answering with the statuses given, then 200. */
async function endpoint(statuses: number[] = []): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ body, signature: String(req.headers['stripe-signature']) });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/stripe`, received };
}

const event = (id: string, type = 'customer.subscription.updated'): StripeEventObject => ({
  id,
  object: 'event',
  api_version: Stripe.API_VERSION,
  created: 1_700_000_000,
  type,
  data: { object: { id: 'sub_1', object: 'subscription', customer: 'cus_1' } },
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
});

describe('fake Stripe webhook delivery', () => {
  it('signs each delivery so stripe.webhooks.constructEvent accepts it with the endpoint secret', async () => {
    const { url, received } = await endpoint();
    const deliverer = new WebhookDeliverer({ url: () => url, secret });

    deliverer.enqueue(event('evt_1'));
    await deliverer.flush();

    expect(received).toHaveLength(1);
    const { body, signature } = received[0]!;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const verified = Stripe.webhooks.constructEvent(body, signature, secret);
    expect(verified.id).toBe('evt_1');
    expect(verified.type).toBe('customer.subscription.updated');
    expect(() => Stripe.webhooks.constructEvent(body, signature, 'whsec_other')).toThrow(/signature/i);
    expect(() => Stripe.webhooks.constructEvent(body.replace('sub_1', 'sub_2'), signature, secret)).toThrow(/signature/i);
  });

  it('delivers events in the order they were emitted', async () => {
    const { url, received } = await endpoint();
    const deliverer = new WebhookDeliverer({ url: () => url, secret });

    for (const id of ['evt_a', 'evt_b', 'evt_c']) deliverer.enqueue(event(id));
    await deliverer.flush();

    expect(received.map((r) => (JSON.parse(r.body) as { id: string }).id)).toEqual(['evt_a', 'evt_b', 'evt_c']);
    expect(deliverer.deliveries.map((d) => d.state)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('retries a non-2xx answer with backoff and records every attempt', async () => {
    const { url, received } = await endpoint([500, 503]);
    const deliverer = new WebhookDeliverer({ url: () => url, secret, retryDelaysMs: [10, 10, 10] });

    deliverer.enqueue(event('evt_retry'));
    await deliverer.drain();

    expect(received).toHaveLength(3);
    const [delivery] = deliverer.deliveries;
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    expect(delivery?.state).toBe('delivered');
    expect(delivery?.customer).toBe('cus_1');
  });

  it('gives up after the last retry and marks the delivery failed', async () => {
    const { url } = await endpoint([400, 400, 400]);
    const deliverer = new WebhookDeliverer({ url: () => url, secret, retryDelaysMs: [5, 5] });

    deliverer.enqueue(event('evt_fail'));
    await deliverer.drain();

    expect(deliverer.deliveries[0]?.attempts.map((a) => a.status)).toEqual([400, 400, 400]);
    expect(deliverer.deliveries[0]?.state).toBe('failed');
  });

  it('records an unreachable endpoint as an attempt without a status', async () => {
    const deliverer = new WebhookDeliverer({ url: () => 'http://127.0.0.1:1/hook', secret, retryDelaysMs: [] });

    deliverer.enqueue(event('evt_down'));
    await deliverer.drain();

    expect(deliverer.deliveries[0]?.attempts[0]?.status).toBeNull();
    expect(deliverer.deliveries[0]?.attempts[0]?.error).toBeTruthy();
    expect(deliverer.deliveries[0]?.state).toBe('failed');
  });
});
