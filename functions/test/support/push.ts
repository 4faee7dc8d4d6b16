/**
 * The fake Web Push service's control API (functions/local/fake-push/server.ts), for integration
 * and browser tests: it serves https with its own certificate, so calls go through node:https
 * with that certificate trusted.
 */
import https from 'node:https';

export interface FakePushMessage {
  id: string;
  subscriptionId: string;
  payload: string;
  json: { title?: string; body?: string; url?: string; tag?: string; notificationId?: string } | null;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  vapid: { aud: string; sub: string; exp: number; k: string };
  at: string;
}

export interface MintedSubscription {
  id: string;
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export function fakePushClient(url: string, ca: string) {
  const agent = new https.Agent({ ca });
  const call = <T>(method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; body: T }>((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = https.request(`${url}${path}`, { method, agent, headers: data ? { 'content-type': 'application/json' } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : null) as T });
        });
      });
      req.on('error', reject);
      req.end(data);
    });

  return {
    /** A subscription as a browser's push service would give it (the keys are the fake's). */
    async mint(): Promise<MintedSubscription> {
      const res = await call<MintedSubscription>('POST', '/_test/subscriptions');
      if (res.status !== 201) throw new Error(`fake push: mint answered ${res.status}`);
      return res.body;
    },
    /** The browser unsubscribed: the service answers 410 from now on. */
    async unsubscribe(id: string): Promise<void> {
      await call('DELETE', `/_test/subscriptions/${encodeURIComponent(id)}`);
    },
    async messages(subscriptionId: string): Promise<FakePushMessage[]> {
      return (await call<{ messages: FakePushMessage[] }>('GET', `/_test/messages?subscription=${encodeURIComponent(subscriptionId)}`)).body.messages;
    },
    async armFault(fault: Record<string, unknown>): Promise<{ id: string }> {
      return (await call<{ fault: { id: string } }>('POST', '/_test/faults', fault)).body.fault;
    },
    async faults(): Promise<{ id: string; hits: number; active: boolean }[]> {
      return (await call<{ faults: { id: string; hits: number; active: boolean }[] }>('GET', '/_test/faults')).body.faults;
    },
    async clearFault(id: string): Promise<void> {
      await call('DELETE', `/_test/faults/${encodeURIComponent(id)}`);
    },
    close: () => agent.destroy(),
  };
}
