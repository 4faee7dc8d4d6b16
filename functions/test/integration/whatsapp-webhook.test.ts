/**
 * The WhatsApp webhook through the local gateway: Meta's verification handshake, the
 * X-Hub-Signature-256 check over the raw bytes before anything (forged, missing, re-serialised
 * or foreign-secret signatures → 401 and nothing queued), verified deliveries queued as received
 * on whatsapp-inbound (observed with the local dispatcher's record of sent messages, so these
 * tests do not depend on the worker), unknown integrations and inactive integrations.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { paidUser } from '../support/billing.js';
import {
  connectWhatsApp,
  enqueuedInboundJobs,
  imageMessage,
  metaDelivery,
  metaEntry,
  metaWebhook,
  newWamid,
  postWebhook,
  signMetaBody,
  statusUpdate,
  textMessage,
  verifyWebhook,
  waCustomer,
  type ConnectedWhatsApp,
} from '../support/whatsapp.js';

async function connected(): Promise<{ token: string; userId: string; wa: ConnectedWhatsApp }> {
  const { token, userId } = await paidUser();
  return { token, userId, wa: await connectWhatsApp(token) };
}

/** Jobs are sent before the 200 is written, but give the dispatcher's record a moment anyway. */
async function jobsFor(integrationId: string, atLeast: number) {
  for (let i = 0; i < 20; i++) {
    const jobs = await enqueuedInboundJobs(integrationId);
    if (jobs.length >= atLeast) return jobs;
    await new Promise((r) => setTimeout(r, 50));
  }
  return enqueuedInboundJobs(integrationId);
}

describe('WhatsApp webhook verification handshake', () => {
  it('echoes the challenge as text/plain for the right token', async () => {
    const { wa } = await connected();

    const res = await verifyWebhook(wa.integrationId, { mode: 'subscribe', verifyToken: wa.webhookVerifyToken, challenge: '1158201444' });

    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/plain/);
    expect(res.text).toBe('1158201444');
  });

  it('refuses a wrong token, a wrong mode, another integration and an unknown integration with 403', async () => {
    const { wa } = await connected();
    const other = (await connected()).wa;

    const wrong = await verifyWebhook(wa.integrationId, { mode: 'subscribe', verifyToken: `${wa.webhookVerifyToken}x`, challenge: '42' });
    const mode = await verifyWebhook(wa.integrationId, { mode: 'unsubscribe', verifyToken: wa.webhookVerifyToken, challenge: '42' });
    const missing = await verifyWebhook(wa.integrationId, { mode: 'subscribe', challenge: '42' });
    const crossed = await verifyWebhook(wa.integrationId, { mode: 'subscribe', verifyToken: other.webhookVerifyToken, challenge: '42' });
    const unknown = await verifyWebhook('00000000-0000-4000-8000-000000000000', { mode: 'subscribe', verifyToken: wa.webhookVerifyToken, challenge: '42' });

    for (const res of [wrong, mode, missing, crossed, unknown]) {
      expect(res.status).toBe(403);
      expect(res.text).not.toContain('42');
    }
  });
});

describe('WhatsApp webhook deliveries', () => {
  it('queues a signed delivery byte for byte (non-ASCII as \\uXXXX, "/" as "\\/") and answers 200', async () => {
    const { userId, wa } = await connected();
    const ana = waCustomer('Ana Pérez 🌸');
    const raw = metaDelivery(wa, { messages: [textMessage(ana, '¿Tenéis cita el sábado? https://example.com/a/b')] });

    const res = await postWebhook(wa.integrationId, raw, signMetaBody(raw, wa.appSecret));
    const jobs = await jobsFor(wa.integrationId, 1);

    expect(raw).toMatch(/\\u00e9/);
    expect(raw).toContain('https:\\/\\/example.com');
    expect(res.status).toBe(200);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ userId, integrationId: wa.integrationId, body: raw });
    expect(Date.parse(jobs[0]!.receivedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('queues a delivery with several entries, customers, images and statuses as one job', async () => {
    const { wa } = await connected();
    const [a, b, c] = [waCustomer('A'), waCustomer('B'), waCustomer('C')];
    const raw = metaWebhook([
      metaEntry(wa, { messages: [textMessage(a, 'one'), imageMessage(b, 'a photo'), textMessage(c, 'three'), textMessage(a, 'four')] }),
      metaEntry(wa, { statuses: [statusUpdate(newWamid(), 'read', a), statusUpdate(newWamid(), 'failed', b)] }),
    ]);

    const res = await postWebhook(wa.integrationId, raw, signMetaBody(raw, wa.appSecret));
    const jobs = await jobsFor(wa.integrationId, 1);

    expect(res.status).toBe(200);
    expect(jobs.map((j) => j.body)).toEqual([raw]);
  });

  it('refuses forged, missing, malformed and foreign-secret signatures with 401 and queues nothing', async () => {
    const { wa } = await connected();
    const other = (await connected()).wa;
    const raw = metaDelivery(wa, { messages: [textMessage(waCustomer('Mallory'), 'olá, preço?')] });
    // The same content re-serialised without Meta's escaping: a different byte string.
    const reserialised = JSON.stringify(JSON.parse(raw) as unknown);

    const responses = [
      await postWebhook(wa.integrationId, raw, signMetaBody(raw, 'not-the-app-secret')),
      await postWebhook(wa.integrationId, raw, undefined),
      await postWebhook(wa.integrationId, raw, signMetaBody(raw, wa.appSecret).replace('sha256=', 'sha1=')),
      await postWebhook(wa.integrationId, raw, 'sha256=zz'),
      await postWebhook(wa.integrationId, raw, signMetaBody(raw, other.appSecret)),
      await postWebhook(wa.integrationId, `${raw} `, signMetaBody(raw, wa.appSecret)),
      await postWebhook(wa.integrationId, raw, signMetaBody(reserialised, wa.appSecret)),
    ];
    // A valid delivery afterwards proves the queue check would have seen the forged ones.
    const valid = await postWebhook(wa.integrationId, raw, signMetaBody(raw, wa.appSecret));
    const jobs = await jobsFor(wa.integrationId, 1);

    expect(reserialised).not.toBe(raw);
    for (const res of responses) expect(res.status).toBe(401);
    expect(valid.status).toBe(200);
    expect(jobs).toHaveLength(1);
  });

  it('answers 404 for an unknown integration id and queues nothing', async () => {
    const { wa } = await connected();
    const raw = metaDelivery(wa, { messages: [textMessage(waCustomer(), 'hello')] });
    const unknownId = '00000000-0000-4000-8000-000000000001';

    const res = await postWebhook(unknownId, raw, signMetaBody(raw, wa.appSecret));

    expect(res.status).toBe(404);
    expect(await enqueuedInboundJobs(unknownId)).toHaveLength(0);
  });

  it('answers malformed integration ids (5,000 characters, unicode, encoded slashes) exactly like an unknown one, and queues nothing', async () => {
    const { wa } = await connected();
    const raw = metaDelivery(wa, { messages: [textMessage(waCustomer(), 'hello')] });
    const signature = signMetaBody(raw, wa.appSecret);
    const handshake = { mode: 'subscribe', verifyToken: wa.webhookVerifyToken, challenge: '31337' };
    const junk = ['x'.repeat(5000), 'ñandú-🌸-用户', `${wa.integrationId}/../x`, `../${wa.integrationId}`, ` ${wa.integrationId}`, `${wa.integrationId}x`];

    const unknownPost = await postWebhook('00000000-0000-4000-8000-000000000002', raw, signature);
    const unknownGet = await verifyWebhook('00000000-0000-4000-8000-000000000002', handshake);
    const posts = await Promise.all(junk.map((id) => postWebhook(id, raw, signature)));
    const gets = await Promise.all(junk.map((id) => verifyWebhook(id, handshake)));

    expect(unknownPost.status).toBe(404);
    expect(unknownGet).toMatchObject({ status: 403, text: 'Forbidden' });
    for (const res of posts) expect(res).toEqual(unknownPost);
    for (const res of gets) expect(res).toEqual(unknownGet);
    expect(await enqueuedInboundJobs(wa.integrationId)).toHaveLength(0);
  });

  it('acknowledges but drops a delivery for an inactive integration, and queues again once reactivated', async () => {
    const { token, wa } = await connected();
    const raw = metaDelivery(wa, { messages: [textMessage(waCustomer(), 'are you open?')] });
    await api('PUT', '/api/integrations/whatsapp-business', { token, body: { isActive: false } });

    const off = await postWebhook(wa.integrationId, raw, signMetaBody(raw, wa.appSecret));
    const forged = await postWebhook(wa.integrationId, raw, signMetaBody(raw, 'wrong'));
    await api('PUT', '/api/integrations/whatsapp-business', { token, body: { isActive: true } });
    const on = await postWebhook(wa.integrationId, raw, signMetaBody(raw, wa.appSecret));
    const jobs = await jobsFor(wa.integrationId, 1);

    expect(off.status).toBe(200);
    expect(forged.status).toBe(401);
    expect(on.status).toBe(200);
    expect(jobs).toHaveLength(1);
  });

  it('stops accepting the old webhook URL once the integration is disconnected', async () => {
    const { token, wa } = await connected();
    const raw = metaDelivery(wa, { messages: [textMessage(waCustomer(), 'hi')] });
    await api('DELETE', '/api/integrations/whatsapp-business', { token });

    const res = await postWebhook(wa.integrationId, raw, signMetaBody(raw, wa.appSecret));
    const handshake = await verifyWebhook(wa.integrationId, { mode: 'subscribe', verifyToken: wa.webhookVerifyToken, challenge: '7' });

    expect(res.status).toBe(404);
    expect(handshake.status).toBe(403);
    expect(await enqueuedInboundJobs(wa.integrationId)).toHaveLength(0);
  });
});
