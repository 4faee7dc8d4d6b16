/**
 * The stack's fault proxies (local/fault-proxy.ts, issue 34) as the integration stack wires them:
 * the handlers reach DynamoDB, SES and S3 through them (so a test can make those fail for the
 * app), while the tests' own reads use the direct endpoints. Every fault here is scoped to this
 * file's own user, e-mail or keys: the other files share the stack.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { User } from '../../src/contract/auth.js';
import { clearRateLimits, get, itemsOf, mailsTo, post, provided, registerUser, uniqueEmail, until } from '../support/api.js';
import { agentsUser, createAgent, uploadDirect } from '../support/agents-api.js';
import { clearProxy, proxyStatus, switchProxy } from '../support/faults.js';

describe('fault proxies of the integration stack', () => {
  it('lists the three proxies, all passing', async () => {
    const res = await fetch(provided('faultsUrl'));
    expect(res.status).toBe(200);
    const all = (await res.json()) as Record<string, { state: string; listening: boolean }>;
    expect(Object.keys(all).sort()).toEqual(['dynamodb', 's3', 'ses']);
    for (const proxy of Object.values(all)) expect(proxy).toMatchObject({ listening: true });
  });

  it("the app's DynamoDB requests go through the proxy: a fault on this user's requests fails its calls only, the tests' direct reads still work", async () => {
    const faulty = await registerUser();
    const healthy = await registerUser();
    const id = `dynamo-${randomUUID()}`;
    await switchProxy('dynamodb', { state: 'error', id, match: { bodyIncludes: faulty.session.user._id } });
    try {
      const me = await get<User>('/api/me', faulty.session.token);
      expect(me.status).toBeGreaterThanOrEqual(500);
      expect((await get<User>('/api/me', healthy.session.token)).status).toBe(200);
      // The test's own client is not behind the proxy.
      expect((await itemsOf(`USER#${faulty.session.user._id}`)).length).toBeGreaterThan(0);
      const status = await proxyStatus('dynamodb');
      expect(status.faults.find((f) => f.id === id)?.hits).toBeGreaterThanOrEqual(1);
    } finally {
      await clearProxy('dynamodb', id);
    }
    expect((await get<User>('/api/me', faulty.session.token)).status).toBe(200);
  });

  it("the app's e-mail goes through the SES proxy: a fault on one address sends nothing to it, cleared it is sent", async () => {
    const email = uniqueEmail('ses-fault');
    const id = `ses-${randomUUID()}`;
    await switchProxy('ses', { state: 'error', status: 503, id, match: { bodyIncludes: email } });
    try {
      await post('/api/send-verification', { email });
      expect((await proxyStatus('ses')).faults.find((f) => f.id === id)?.hits).toBeGreaterThanOrEqual(1);
      expect(await mailsTo(email)).toEqual([]);
    } finally {
      await clearProxy('ses', id);
    }
    await clearRateLimits(email, 'send-verification');
    expect((await post('/api/send-verification', { email })).status).toBe(200);
    await until(async () => (await mailsTo(email)).length === 1, 'the verification e-mail');
  });

  it('presigned S3 uploads and the app\'s own S3 calls go through the S3 proxy', async () => {
    const user = await agentsUser();
    const agent = await createAgent(user);
    const { ticket, done } = await uploadDirect(user, agent._id, { name: 'notes.txt', type: 'text/plain', bytes: 'Opening hours: 9 to 5.' });
    expect(new URL(ticket.url).origin).not.toBe(new URL(provided('s3Endpoint')).origin);
    expect(done.status).toBe(200);
    const id = `s3-${randomUUID()}`;
    await switchProxy('s3', { state: 'error', status: 503, id, match: { path: `/**${user.userId}**` } });
    try {
      await uploadDirect(user, agent._id, { name: 'more.txt', type: 'text/plain', bytes: 'Closed on Sundays.' }).catch(() => undefined);
      expect((await proxyStatus('s3')).faults.find((f) => f.id === id)?.hits).toBeGreaterThanOrEqual(1);
    } finally {
      await clearProxy('s3', id);
    }
  });
});
