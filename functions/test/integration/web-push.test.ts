/**
 * Web Push end to end on the local stack (issue 29 item 6): a device subscribed through the API
 * with a subscription the fake push service minted (its keys), an escalation by the owner, and the
 * fake push service receiving a VAPID-signed push it decrypts (RFC 8291) — in Spanish for a
 * Spanish owner. A 410 from the push service removes the device; 503s are retried on the schedule
 * (RETRY_TIME_SCALE makes it milliseconds here); the owner's setting turns escalation pushes off;
 * the subscription schema refuses what is not a push subscription.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { PushDevice, PushSettings } from '../../src/contract/push.js';
import type { StoredConversation } from '../../src/domain/conversations/ports.js';
import { DynamoConversationRepository } from '../../src/adapters/dynamo/conversations.js';
import { DynamoMessageRepository } from '../../src/adapters/dynamo/messages.js';
import { eventually } from '../support/agents-api.js';
import { api, db, getItem, provided, tableName } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { fakePushClient, type FakePushMessage, type MintedSubscription } from '../support/push.js';
import { connectWhatsApp, metaDelivery, postWebhook, signMetaBody, textMessage, waCustomer, type ConnectedWhatsApp } from '../support/whatsapp.js';

const fake = fakePushClient(provided('pushServiceUrl'), provided('pushServiceCa'));
afterAll(() => fake.close());

const messages = () => new DynamoMessageRepository(db(), tableName());
const conversations = () => new DynamoConversationRepository(db(), tableName(), messages());

interface Owner {
  token: string;
  userId: string;
  wa: ConnectedWhatsApp;
}

async function owner(language: 'es' | 'en'): Promise<Owner> {
  const { token, userId } = await subscribedUser('starter');
  const profile = await api('PUT', '/api/user/profile', { token, body: { name: 'Dueña', language } });
  if (profile.status !== 200) throw new Error(`profile answered ${profile.status}`);
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: `sk-test-${randomUUID()}`, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status}`);
  return { token, userId, wa: await connectWhatsApp(token) };
}

/** A conversation of a customer who wrote once (no agent: nothing answers or escalates by itself). */
async function conversation(o: Owner, name: string): Promise<StoredConversation> {
  const customer = waCustomer(name);
  const msg = textMessage(customer, 'Hola, quiero la factura');
  const body = metaDelivery(o.wa, { messages: [msg] });
  const res = await postWebhook(o.wa.integrationId, body, signMetaBody(body, o.wa.appSecret));
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  await eventually(async () => (await getItem(`USER#${o.userId}`, `WAMID#${String(msg.message.id)}`))?.state === 'handled', 20_000);
  const pointer = await getItem(`USER#${o.userId}`, `WACUST#${customer.waId}`);
  const [found] = await conversations().getMany(o.userId, [...((pointer?.conversationIds as Set<string> | undefined) ?? [])]);
  if (!found) throw new Error('no conversation');
  return found;
}

async function subscribe(o: Owner, minted: MintedSubscription, label = 'Móvil de la clínica'): Promise<PushDevice> {
  const res = await api<{ device: PushDevice }>('POST', '/api/push/devices', { token: o.token, body: { ...minted.subscription, label } });
  if (res.status !== 201 || !res.body.data) throw new Error(`subscribe answered ${res.status}: ${res.body.message}`);
  return res.body.data.device;
}

const escalate = async (o: Owner, c: StoredConversation, reason: string) => {
  const res = await api('POST', `/api/conversations/${c.id}/escalate`, { token: o.token, body: { reason } });
  expect(res.status).toBe(200);
};

const received = (minted: MintedSubscription, count = 1) =>
  eventually(async () => {
    const list = await fake.messages(minted.id);
    return list.length >= count ? list : null;
  }, 20_000);

const devices = async (o: Owner) => (await api<{ devices: PushDevice[] }>('GET', '/api/push/devices', { token: o.token })).body.data!.devices;

describe('Web Push', () => {
  it('subscribe → escalation → the push service gets a VAPID-signed push that decrypts to the Spanish alert', async () => {
    const o = await owner('es');
    const minted = await fake.mint();
    const key = await api<{ publicKey: string }>('GET', '/api/push/public-key', { token: o.token });
    expect(key.status).toBe(200);
    const device = await subscribe(o, minted);
    expect(device).toMatchObject({ endpoint: minted.subscription.endpoint, label: 'Móvil de la clínica', lastPushAt: null, service: new URL(provided('pushServiceUrl')).host });
    const c = await conversation(o, 'Carmen Ibáñez');

    await escalate(o, c, 'Pide factura');

    const [push] = (await received(minted)) as [FakePushMessage];
    expect(push.json).toEqual({
      title: 'Conversación escalada: Carmen Ibáñez',
      body: 'Pide factura',
      url: expect.stringMatching(new RegExp(`/conversations\\?open=${c.id}$`)),
      tag: `conversation_escalated:${c.id}`,
      notificationId: expect.stringMatching(/^[0-9A-Z]{26}$/),
    });
    // Signed with the app's VAPID key, for the push service's origin; the notification is its Topic.
    expect(push.vapid).toMatchObject({ k: key.body.data!.publicKey, aud: provided('pushServiceUrl'), sub: expect.stringMatching(/^mailto:/) });
    expect(push.topic).toBe(push.json!.notificationId);
    expect(push.urgency).toBe('high');
    expect(push.ttl).toBeGreaterThan(0);
    await eventually(async () => (await devices(o))[0]?.lastPushAt !== null);
  }, 90_000);

  it('English for an English owner, and one push per subscribed device', async () => {
    const o = await owner('en');
    const phone = await fake.mint();
    const laptop = await fake.mint();
    await subscribe(o, phone, 'Phone');
    await subscribe(o, laptop, 'Laptop');
    const c = await conversation(o, 'Ann Lee');

    await escalate(o, c, 'Wants a refund');

    const [onPhone] = await received(phone);
    const [onLaptop] = await received(laptop);
    expect(onPhone!.json).toMatchObject({ title: 'Conversation escalated: Ann Lee', body: 'Wants a refund' });
    expect(onLaptop!.json).toMatchObject({ title: 'Conversation escalated: Ann Lee' });
  }, 90_000);

  it('a 410 from the push service removes the device; nothing is retried', async () => {
    const o = await owner('es');
    const minted = await fake.mint();
    const device = await subscribe(o, minted);
    await fake.unsubscribe(minted.id);
    const c = await conversation(o, 'Dolores');

    await escalate(o, c, 'Queja');

    await eventually(async () => (await devices(o)).length === 0, 20_000);
    expect(await getItem(`USER#${o.userId}`, `PUSHDEV#${device._id}`)).toBeUndefined();
    expect(await fake.messages(minted.id)).toEqual([]);
  }, 90_000);

  it('503s from the push service are retried on the schedule until the push goes through', async () => {
    const o = await owner('es');
    const minted = await fake.mint();
    await subscribe(o, minted);
    const fault = await fake.armFault({ kind: 'status', status: 503, times: 2, match: { path: `/push/${minted.id}` } });
    const c = await conversation(o, 'Eva');

    await escalate(o, c, 'Urgente');

    const list = await received(minted);
    expect(list).toHaveLength(1);
    expect(list[0]!.json).toMatchObject({ title: 'Conversación escalada: Eva' });
    const state = (await fake.faults()).find((f) => f.id === fault.id);
    expect(state).toMatchObject({ hits: 2, active: false });
    await fake.clearFault(fault.id);
    expect(await devices(o)).toHaveLength(1);
  }, 90_000);

  it('the owner turns escalation pushes off: no push; the test button still reaches the device, in Spanish', async () => {
    const o = await owner('es');
    const minted = await fake.mint();
    const device = await subscribe(o, minted);
    const off = await api<PushSettings>('PUT', '/api/push/settings', { token: o.token, body: { escalations: false, waiting: true } });
    expect(off.status).toBe(200);
    expect((await api<PushSettings>('GET', '/api/push/settings', { token: o.token })).body.data).toEqual({ escalations: false, waiting: true, email: true });
    const c = await conversation(o, 'Fermín');

    await escalate(o, c, 'Llamar');
    const test = await api('POST', `/api/push/devices/${device._id}/test`, { token: o.token });

    expect(test.status).toBe(202);
    await received(minted);
    await new Promise((r) => setTimeout(r, 500));
    expect((await fake.messages(minted.id)).map((m) => m.json?.title)).toEqual(['Aviso de prueba de AgentDesk']);
  }, 90_000);

  it('refuses what is not a push subscription (400), another owner’s device (404), and removes a device', async () => {
    const o = await owner('es');
    const other = await owner('es');
    const minted = await fake.mint();
    const good = minted.subscription;
    const bad = [
      { ...good, endpoint: good.endpoint.replace('https:', 'http:') },
      { ...good, endpoint: 'no es una url' },
      { ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(1) } },
      { ...good, keys: { ...good.keys, auth: `${good.keys.auth}==` } },
      { ...good, keys: { p256dh: good.keys.p256dh } },
      { ...good, extra: true },
      { ...good, label: 'x'.repeat(61) },
    ];
    for (const body of bad) {
      const res = await api('POST', '/api/push/devices', { token: o.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await devices(o)).toEqual([]);
    expect((await api('PUT', '/api/push/settings', { token: o.token, body: { escalations: 'sí', waiting: true } })).status).toBe(400);

    const device = await subscribe(o, minted);
    // The same endpoint again is the same device.
    expect((await subscribe(o, minted, 'Otro nombre'))._id).toBe(device._id);
    expect(await devices(o)).toHaveLength(1);
    expect((await api('DELETE', `/api/push/devices/${device._id}`, { token: other.token })).status).toBe(404);
    expect((await api('POST', `/api/push/devices/${device._id}/test`, { token: other.token })).status).toBe(404);
    expect((await api('DELETE', `/api/push/devices/${device._id}`, { token: o.token })).status).toBe(200);
    expect(await devices(o)).toEqual([]);
  }, 90_000);
});
