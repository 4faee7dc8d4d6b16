/**
 * The fake Web Push service (issue 29) against web-push's own requests: a push signed and
 * encrypted by the library decrypts to its text; a VAPID header whose key did not sign the JWT, a
 * JWT for another audience, a tampered body and a missing TTL are refused as a push service would.
 */
import https from 'node:https';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePush, type FakePush } from '../../../local/fake-push/server.js';

let fake: FakePush;
let agent: https.Agent;
beforeAll(async () => {
  fake = await startFakePush();
  agent = new https.Agent({ ca: fake.ca });
});
afterAll(async () => {
  agent.destroy();
  await fake.close();
});

const vapid = webpush.generateVAPIDKeys();
const details = (endpoint: string, keys: { p256dh: string; auth: string }, text: string, signer = vapid) =>
  webpush.generateRequestDetails({ endpoint, keys }, text, { vapidDetails: { subject: 'mailto:avisos@clinica.es', ...signer }, TTL: 60 });

function post(url: string, headers: Record<string, unknown>, body: Buffer | null): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: 'POST', agent, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

describe('the fake push service', () => {
  it('takes a web-push request and keeps the decrypted text', async () => {
    const { id, subscription } = fake.mint();
    const d = details(subscription.endpoint, subscription.keys, JSON.stringify({ title: 'Conversación escalada: Íñigo' }));
    const res = await post(d.endpoint, d.headers, d.body);
    expect(res.status).toBe(201);
    const [message] = fake.messages.filter((m) => m.subscriptionId === id);
    expect(message).toMatchObject({ json: { title: 'Conversación escalada: Íñigo' }, ttl: 60, vapid: { aud: fake.url, sub: 'mailto:avisos@clinica.es', k: vapid.publicKey } });
  });

  it('refuses a JWT another key signed, a tampered body, no TTL, and a subscription it never minted', async () => {
    const { subscription } = fake.mint();
    const d = details(subscription.endpoint, subscription.keys, 'hola');
    const otherKey = webpush.generateVAPIDKeys().publicKey;
    const forged = { ...d.headers, Authorization: String(d.headers.Authorization).replace(/k=[^,\s]+/, `k=${otherKey}`) };
    expect((await post(d.endpoint, forged, d.body)).status).toBe(401);
    const tampered = Buffer.from(d.body!);
    tampered[tampered.length - 1]! ^= 1;
    expect((await post(d.endpoint, d.headers, tampered)).status).toBe(400);
    const { TTL: _ttl, ...noTtl } = d.headers as Record<string, unknown>;
    expect((await post(d.endpoint, noTtl, d.body)).status).toBe(400);
    expect((await post(`${fake.url}/push/never-minted`, d.headers, d.body)).status).toBe(404);
  });

  it('a JWT for another audience is refused', async () => {
    const { subscription } = fake.mint();
    // Signed for https://localhost:<port>, posted to https://127.0.0.1:<port>: not this origin.
    const d = details(subscription.endpoint.replace('127.0.0.1', 'localhost'), subscription.keys, 'hola');
    expect((await post(subscription.endpoint, d.headers, d.body)).status).toBe(401);
  });
});
