/**
 * The webhook's rules without HTTP: the signature is checked over the raw bytes with the app
 * secret before anything is queued (the route's verifier, then the domain's receive), the
 * handshake token in constant time, inactive integrations are acknowledged and dropped, and only
 * WhatsApp integrations answer. Real LocalSecretBox (temp key file); the integrations and the
 * queue are in-memory port implementations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalSecretBox } from '../../../src/adapters/secrets/local-box.js';
import type { IntegrationRecord } from '../../../src/domain/integrations/records.js';
import { INBOUND_BODY_PREFIX, type QueuedInboundJob } from '../../../src/domain/whatsapp/ports.js';
import { createWhatsAppWebhook, MAX_QUEUE_MESSAGE_BYTES, type WhatsAppWebhookDeps } from '../../../src/domain/whatsapp/webhook.js';
import { isValidMetaSignature, metaSignature, sameSecret } from '../../../src/adapters/whatsapp/signature.js';
import { createWhatsAppWebhookVerifier, type WhatsAppWebhookVerifierDeps } from '../../../src/adapters/whatsapp/webhook-verifier.js';
import { MAX_INBOUND_BODY, parseDelivery } from '../../../src/domain/whatsapp/parse-delivery.js';
import { metaDelivery, metaJson, signMetaBody, statusUpdate, textMessage, waCustomer } from '../../support/whatsapp.js';

const dir = mkdtempSync(join(tmpdir(), 'wa-webhook-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secrets = new LocalSecretBox(join(dir, 'secrets.key'));

// Integration ids are UUIDs (randomUUID at setup); anything else is refused before a read.
const INT_1 = '6f1c2b9e-3d4a-4c5b-8e7f-0a1b2c3d4e5f';
const APP_SECRET = 'f3c1d2e4a5b6';
const VERIFY_TOKEN = 'verify-token-0123456789abcdefghijklmnop';

/** What the webhook route does: the declared verification, then the domain with the verified integration. */
function createWebhook(deps: WhatsAppWebhookVerifierDeps & WhatsAppWebhookDeps) {
  const verifier = createWhatsAppWebhookVerifier(deps);
  const domain = createWhatsAppWebhook(deps);
  return {
    async receive(integrationId: string, raw: Buffer, signature: string | undefined) {
      const checked = await verifier.delivery(integrationId, raw, signature);
      return checked.outcome === 'verified' ? domain.receive(checked.integration, raw) : checked.outcome;
    },
    verifySubscription: verifier.handshake,
  };
}

async function world(overrides: Partial<IntegrationRecord> = {}, options: Pick<WhatsAppWebhookDeps, 'onInfo'> = {}) {
  const record: IntegrationRecord = {
    id: INT_1,
    userId: 'user-1',
    type: 'whatsapp-business',
    isActive: true,
    credentials: {
      bearerToken: await secrets.seal('EAAG'),
      appSecret: await secrets.seal(APP_SECRET),
      webhookVerifyToken: await secrets.seal(VERIFY_TOKEN),
      businessId: '1',
      phoneId: '2',
    },
    settings: { phoneNumber: '+14155550123' },
    createdAt: 'c',
    updatedAt: 'u',
    ...overrides,
  };
  const jobs: QueuedInboundJob[] = [];
  const parked = new Map<string, string>();
  let opened = 0;
  const countingSecrets = { seal: (v: string) => secrets.seal(v), open: (v: string) => (opened++, secrets.open(v)) };
  const webhook = createWebhook({
    integrations: { getById: async (id) => (id === record.id ? record : null) },
    secrets: countingSecrets,
    jobs: { enqueue: async (job) => void jobs.push(job), enqueueAll: async (all) => void jobs.push(...all) },
    bodies: { put: async (key, body) => void parked.set(key, body) },
    now: () => new Date('2026-05-01T10:00:00.000Z'),
    ...options,
  });
  return { webhook, jobs, parked, opened: () => opened };
}

const business = { phoneId: '2', displayPhoneNumber: '+1 415 555 0123', businessId: '1' };

describe('Meta signature', () => {
  it('is sha256= and the hex HMAC-SHA256 of the raw bytes (what the test support signs with)', () => {
    const raw = metaDelivery(business, { messages: [textMessage(waCustomer('Zoë'), 'café')] });

    expect(metaSignature(raw, APP_SECRET)).toBe(signMetaBody(raw, APP_SECRET));
    expect(isValidMetaSignature(Buffer.from(raw), signMetaBody(raw, APP_SECRET), APP_SECRET)).toBe(true);
    expect(isValidMetaSignature(Buffer.from(raw), signMetaBody(raw, APP_SECRET).toUpperCase().replace('SHA256=', 'sha256='), APP_SECRET)).toBe(true);
  });

  it('fails for another secret, other bytes, a missing, truncated or non-sha256 header, and an empty secret', () => {
    const raw = Buffer.from(metaJson({ a: 'é/' }));
    const good = signMetaBody(raw, APP_SECRET);

    expect(isValidMetaSignature(raw, signMetaBody(raw, 'other'), APP_SECRET)).toBe(false);
    expect(isValidMetaSignature(Buffer.from(JSON.stringify({ a: 'é/' })), good, APP_SECRET)).toBe(false);
    expect(isValidMetaSignature(raw, undefined, APP_SECRET)).toBe(false);
    expect(isValidMetaSignature(raw, good.slice(0, -2), APP_SECRET)).toBe(false);
    expect(isValidMetaSignature(raw, good.replace('sha256=', 'sha1='), APP_SECRET)).toBe(false);
    expect(isValidMetaSignature(raw, signMetaBody(raw, ''), '')).toBe(false);
  });

  it("serialises as Meta does: ASCII only, \\u escapes, '\\/'", () => {
    expect(metaJson({ t: 'Olá 👋 https://x.io/a' })).toBe('{"t":"Ol\\u00e1 \\ud83d\\udc4b https:\\/\\/x.io\\/a"}');
    expect(JSON.parse(metaJson({ t: 'Olá 👋 https://x.io/a' }))).toEqual({ t: 'Olá 👋 https://x.io/a' });
  });

  it('compares secrets of any length in constant time and never matches an empty expectation', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('', '')).toBe(false);
  });
});

describe('WhatsApp webhook service', () => {
  it('queues a verified delivery as received, with the owner and the time', async () => {
    const { webhook, jobs } = await world();
    const raw = metaDelivery(business, { messages: [textMessage(waCustomer('Ana'), 'hola')] });

    const outcome = await webhook.receive(INT_1, Buffer.from(raw), signMetaBody(raw, APP_SECRET));

    expect(outcome).toBe('accepted');
    expect(jobs).toEqual([{ userId: 'user-1', integrationId: INT_1, receivedAt: '2026-05-01T10:00:00.000Z', body: raw }]);
  });

  it('refuses a bad signature and queues nothing', async () => {
    const { webhook, jobs } = await world();
    const raw = metaDelivery(business, { messages: [textMessage(waCustomer(), 'x')] });

    const outcomes = [
      await webhook.receive(INT_1, Buffer.from(raw), signMetaBody(raw, 'wrong')),
      await webhook.receive(INT_1, Buffer.from(raw), undefined),
    ];

    expect(outcomes).toEqual(['refused', 'refused']);
    expect(jobs).toEqual([]);
  });

  it('drops a verified delivery for an inactive integration, but still refuses a forged one', async () => {
    const { webhook, jobs } = await world({ isActive: false });
    const raw = metaDelivery(business, { messages: [textMessage(waCustomer(), 'x')] });

    const verified = await webhook.receive(INT_1, Buffer.from(raw), signMetaBody(raw, APP_SECRET));
    const forged = await webhook.receive(INT_1, Buffer.from(raw), signMetaBody(raw, 'wrong'));

    expect(verified).toBe('dropped');
    expect(forged).toBe('refused');
    expect(jobs).toEqual([]);
  });

  it('answers not_found for unknown ids, over-long ids and integrations of another type', async () => {
    const raw = Buffer.from('{}');
    const chatgpt = await world({ type: 'chatgpt' });
    const { webhook } = await world();

    expect(await webhook.receive('6f1c2b9e-3d4a-4c5b-8e7f-000000000002', raw, signMetaBody(raw, APP_SECRET))).toBe('not_found');
    expect(await webhook.receive('x'.repeat(101), raw, signMetaBody(raw, APP_SECRET))).toBe('not_found');
    expect(await chatgpt.webhook.receive(INT_1, raw, signMetaBody(raw, APP_SECRET))).toBe('not_found');
  });

  it('refuses ids that are not UUIDs (long, unicode, slashes, empty) without reading the integration', async () => {
    const reads: string[] = [];
    const webhook = createWebhook({
      integrations: { getById: async (id) => (reads.push(id), null) },
      secrets,
      jobs: { enqueue: async () => undefined, enqueueAll: async () => undefined },
      bodies: { put: async () => undefined },
    });
    const raw = Buffer.from('{}');
    const junk = ['x'.repeat(5000), 'ñandú-🌸', '../../USER#x', `${INT_1}/x`, '', ` ${INT_1}`];

    for (const id of junk) {
      expect(await webhook.receive(id, raw, signMetaBody(raw, APP_SECRET))).toBe('not_found');
      expect(await webhook.verifySubscription(id, { mode: 'subscribe', verifyToken: VERIFY_TOKEN, challenge: '1' })).toBeNull();
    }
    expect(reads).toEqual([]);
  });

  it("ignores a delivery for another phone number id of the same app (logged, nothing queued), and keeps only the own number's changes of a mixed one", async () => {
    const logged: [string, Record<string, unknown> | undefined][] = [];
    const { webhook, jobs } = await world({}, { onInfo: (message, data) => void logged.push([message, data]) });
    const other = { ...business, phoneId: '999' };
    const ana = waCustomer('Ana');
    const foreign = metaDelivery(other, { messages: [textMessage(ana, 'for the other number')], statuses: [statusUpdate('wamid.out-1', 'failed', ana)] });
    const own = metaDelivery(business, { messages: [textMessage(ana, 'for us')] });
    const mixed = metaJson({ object: 'whatsapp_business_account', entry: [...JSON.parse(foreign).entry, ...JSON.parse(own).entry] });

    expect(await webhook.receive(INT_1, Buffer.from(foreign), signMetaBody(foreign, APP_SECRET))).toBe('ignored');
    expect(jobs).toEqual([]);
    expect(await webhook.receive(INT_1, Buffer.from(mixed), signMetaBody(mixed, APP_SECRET))).toBe('accepted');

    expect(jobs).toHaveLength(1);
    const changes = parseDelivery(jobs[0]!.body!, '2026-05-01T10:00:00.000Z')!;
    expect(changes.map((c) => [c.phoneNumberId, c.messages.map((m) => m.body), c.statuses.length])).toEqual([['2', ['for us'], 0]]);
    expect(logged).toEqual([
      ['WhatsApp delivery for another phone number: ignored', { integrationId: INT_1, phoneNumberIds: ['999'], changes: 1 }],
      ['WhatsApp delivery for another phone number: ignored', { integrationId: INT_1, phoneNumberIds: ['999'], changes: 1 }],
    ]);
  });

  it('splits a delivery too big for one queue message per message and status; a piece still too big is parked and queued as a pointer', async () => {
    const { webhook, jobs, parked } = await world();
    const people = Array.from({ length: 30 }, (_, i) => waCustomer(`Customer ${i}`));
    const texts = people.map((p, i) => textMessage(p, `${i}:${'a'.repeat(10_000)}`));
    const huge = textMessage(people[0]!, 'b'.repeat(300_000));
    const raw = metaDelivery(business, { messages: [...texts, huge], statuses: [statusUpdate('wamid.out-1', 'read', people[1]!)] });

    const outcome = await webhook.receive(INT_1, Buffer.from(raw), signMetaBody(raw, APP_SECRET));

    expect(raw.length).toBeGreaterThan(MAX_QUEUE_MESSAGE_BYTES);
    expect(outcome).toBe('accepted');
    expect(jobs).toHaveLength(32);
    for (const job of jobs) expect(Buffer.byteLength(JSON.stringify(job))).toBeLessThanOrEqual(MAX_QUEUE_MESSAGE_BYTES);
    const pointer = jobs.filter((j) => j.bodyKey !== undefined);
    expect(pointer).toHaveLength(1);
    expect(pointer[0]!.bodyKey!.startsWith(`${INBOUND_BODY_PREFIX}user-1/`)).toBe(true);
    const bodies = jobs.map((j) => j.body ?? parked.get(j.bodyKey!)!);
    const parsed = bodies.map((b) => parseDelivery(b, '2026-05-01T10:00:00.000Z')!);
    const messages = parsed.flatMap((changes) => changes.flatMap((c) => c.messages));
    expect(messages.map((m) => m.body)).toEqual([...texts.map((_, i) => `${i}:${'a'.repeat(10_000)}`), 'b'.repeat(MAX_INBOUND_BODY)]);
    expect(messages.map((m) => m.customer.name)).toEqual([...people.map((p) => p.name), people[0]!.name]);
    expect(parsed.flatMap((changes) => changes.flatMap((c) => c.statuses))).toEqual([{ wamid: 'wamid.out-1', status: 'read' }]);
    expect(parsed.every((changes) => changes.every((c) => c.phoneNumberId === business.phoneId))).toBe(true);
  });

  it('opens the app secret once per sealed value (warm containers skip the KMS call)', async () => {
    const { webhook, opened } = await world();
    const raw = Buffer.from('{}');

    for (let i = 0; i < 5; i++) await webhook.receive(INT_1, raw, signMetaBody(raw, APP_SECRET));

    expect(opened()).toBe(1);
  });

  it('echoes the challenge only for subscribe with the right token', async () => {
    const { webhook } = await world();
    const ok = { mode: 'subscribe', verifyToken: VERIFY_TOKEN, challenge: '987654' };

    expect(await webhook.verifySubscription(INT_1, ok)).toBe('987654');
    expect(await webhook.verifySubscription(INT_1, { ...ok, verifyToken: `${VERIFY_TOKEN}!` })).toBeNull();
    expect(await webhook.verifySubscription(INT_1, { ...ok, verifyToken: VERIFY_TOKEN.slice(0, -1) })).toBeNull();
    expect(await webhook.verifySubscription(INT_1, { ...ok, mode: 'unsubscribe' })).toBeNull();
    expect(await webhook.verifySubscription(INT_1, { ...ok, challenge: undefined })).toBeNull();
    expect(await webhook.verifySubscription('6f1c2b9e-3d4a-4c5b-8e7f-000000000009', ok)).toBeNull();
  });
});
