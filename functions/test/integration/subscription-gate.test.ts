/**
 * Paid features need an active or trialing subscription (issue 14, finding 4): every route the
 * manifest flags `requires: 'subscription'` answers 402 with the SPEC's text before it runs, with
 * a user token or an API key, and writes nothing; reads and clean-up stay open to a lapsed
 * customer. The flagged routes are read from the manifest, so a newly flagged route is covered.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AgentTool, AgentUrl, FileUploadTicket } from '../../src/contract/agents.js';
import type { CreatedApiKey } from '../../src/contract/api-keys.js';
import type { VoiceSettings } from '../../src/contract/voice.js';
import { billingServerMessages } from '../../src/domain/billing/messages.js';
import { routes, subscriptionRouteKeys } from '../../src/routes.js';
import { api, db, itemsOf, registerUser, tableName } from '../support/api.js';
import { addUrls, call, createEnabledAgent, createTool, eventually, validTool, type AgentsUser } from '../support/agents-api.js';
import { grantSubscription, postWebhook, subscribedUser, subscriptionEvent } from '../support/billing.js';

const REQUIRED = billingServerMessages.subscriptionRequired;

/** What a lapsed user owns: an agent with a URL, a tool, a pending upload, and an API key. */
interface Fixtures {
  user: AgentsUser;
  agent: Agent;
  url: AgentUrl;
  tool: AgentTool;
  pendingFileId: string;
  key: CreatedApiKey;
}

/** A user who built things while subscribed; then the subscription item is set to `status` (null: removed). */
async function lapsedUser(status: 'canceled' | 'past_due' | 'unpaid' | null): Promise<Fixtures> {
  const { session } = await registerUser();
  const user = { token: session.token, userId: session.user._id };
  await grantSubscription(user.userId);
  await call(user, 'POST', '/api/integrations/chatgpt/setup', { apiKey: `sk-test-${randomUUID()}` });
  // Enabled (instructions first): the clean-up test disables it.
  const agent = await createEnabledAgent(user, 'Reception');
  const [url] = await addUrls(user, agent._id, 'https://example.com/opening-hours');
  const tool = await createTool(user, agent._id);
  const tickets = await call<FileUploadTicket[]>(user, 'POST', `/api/agents/${agent._id}/files/uploads`, {
    files: [{ name: 'prices.txt', size: 12, type: 'text/plain' }],
  });
  const key = await call<CreatedApiKey>(user, 'POST', '/api/api-keys', { name: 'Website' });
  if (!url || tickets.status !== 201 || key.status !== 201) throw new Error('fixture setup failed');
  // The scrape worker settles the URL in the background: let it, so later snapshots compare only our requests.
  await eventually(async () => (await call<AgentUrl[]>(user, 'GET', `/api/agents/${agent._id}/urls`)).body.data?.[0]?.status !== 'pending', 30_000);
  if (status) await grantSubscription(user.userId, { status });
  else await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: `USER#${user.userId}`, sk: 'SUBSCRIPTION' } }));
  return { user, agent, url, tool, pendingFileId: tickets.body.data![0]!.file._id, key: key.body.data! };
}

/** A request each flagged route would accept from a subscriber (so a 402 is the only refusal). */
function validRequest(key: string, f: Fixtures): { path: string; body?: unknown; rawBody?: FormData } {
  const [, template = ''] = key.split(' ');
  const path = template
    .replace('{id}', key.includes('/api-keys/') ? f.key.apiKey._id : f.agent._id)
    .replace('{fileId}', f.pendingFileId)
    .replace('{urlId}', f.url._id)
    .replace('{toolId}', f.tool._id)
    .replace('{type}', 'chatgpt');
  const files = new FormData();
  files.append('files', new Blob(['Opening hours: 9 to 5'], { type: 'text/plain' }), 'hours.txt');
  const bodies: Record<string, { body?: unknown; rawBody?: FormData }> = {
    'POST /api/agents': { body: { name: 'Sales' } },
    'PUT /api/agents/{id}': { body: { name: 'Renamed', priority: 3 } },
    'POST /api/agents/{id}/enable': {},
    'POST /api/agents/chat': { body: { message: 'Hello' } },
    'POST /api/agents/{id}/chat': { body: { message: 'Hello' } },
    'POST /api/agents/{id}/files': { rawBody: files },
    'POST /api/agents/{id}/files/uploads': { body: { files: [{ name: 'menu.txt', size: 10, type: 'text/plain' }] } },
    'POST /api/agents/{id}/files/{fileId}/complete': {},
    'PATCH /api/agents/{id}/files/{fileId}': { body: { shareable: true } },
    'POST /api/agents/{id}/urls': { body: { urls: ['https://example.com/prices'] } },
    'PUT /api/agents/{id}/urls/{urlId}': { body: { link: 'https://example.com/new-hours' } },
    'POST /api/agents/{id}/tools': { body: validTool({ name: 'book_table' }) },
    'PUT /api/agents/{id}/tools/{toolId}': { body: validTool({ description: 'Changed' }) },
    'POST /api/integrations/chatgpt/setup': { body: { apiKey: `sk-test-${randomUUID()}` } },
    'POST /api/integrations/chatgpt/test': { body: {} },
    'POST /api/integrations/chatgpt/ask': { body: { text: 'We open at 9' } },
    'PUT /api/integrations/{type}': { body: { settings: { temperature: 0.5 } } },
    'POST /api/api-keys': { body: { name: 'Another' } },
    'PUT /api/api-keys/{id}/regenerate': {},
    'POST /api/voice-settings/request-phone': { body: { notes: 'Madrid' } },
  };
  return { path, ...(bodies[key] ?? { body: {} }) };
}

/** Everything the user has in the table, as one comparable text. */
const snapshot = async (userId: string) => JSON.stringify(await itemsOf(`USER#${userId}`));

describe('paid-feature routes without an active subscription', () => {
  const flagged = [...subscriptionRouteKeys()];
  let lapsed: Fixtures;

  beforeAll(async () => {
    lapsed = await lapsedUser(null);
  });

  it('the manifest flags paid routes (this file would pass vacuously otherwise)', () => {
    expect(flagged.length).toBeGreaterThanOrEqual(20);
  });

  it.each(flagged)('%s answers 402 with the SPEC text and writes nothing (user token)', async (key) => {
    // Arrange
    const method = key.split(' ')[0]!;
    const request = validRequest(key, lapsed);
    const before = await snapshot(lapsed.user.userId);

    // Act
    const res = await api(method, request.path, { token: lapsed.user.token, body: request.body, rawBody: request.rawBody });

    // Assert
    expect(res.status, JSON.stringify(res.body)).toBe(402);
    expect(res.body).toEqual({ success: false, message: REQUIRED });
    expect(await snapshot(lapsed.user.userId)).toBe(before);
  });

  it('an API key of a lapsed user gets 402 on both chat routes', async () => {
    for (const path of ['/api/agents/chat', `/api/agents/${lapsed.agent._id}/chat`]) {
      const res = await api('POST', path, { headers: { 'x-api-key': lapsed.key.key }, body: { message: 'Hello' } });
      expect(res.status, path).toBe(402);
      expect(res.body.message).toBe(REQUIRED);
    }
  });

  it('reads still answer 200 with what the user built', async () => {
    const { user, agent } = lapsed;
    const reads: [string, (data: unknown) => void][] = [
      ['/api/agents', (d) => expect((d as Agent[]).map((a) => a._id)).toEqual([agent._id])],
      [`/api/agents/${agent._id}`, (d) => expect((d as Agent).name).toBe('Reception')],
      [`/api/agents/${agent._id}/urls`, (d) => expect(d).toHaveLength(1)],
      [`/api/agents/${agent._id}/tools`, (d) => expect(d).toHaveLength(1)],
      [`/api/agents/${agent._id}/files`, (d) => expect(Array.isArray(d)).toBe(true)],
      ['/api/integrations', (d) => expect(d).toBeTruthy()],
      ['/api/integrations/chatgpt', (d) => expect(d).toBeTruthy()],
      ['/api/api-keys', (d) => expect(d).toHaveLength(1)],
      ['/api/voice-settings', (d) => expect((d as VoiceSettings).phoneNumber.status).not.toBe('pending')],
    ];
    for (const [path, check] of reads) {
      const res = await api('GET', path, { token: user.token });
      expect(res.status, path).toBe(200);
      check(res.body.data);
    }
  });

  it('clean-up stays open: disable, delete a tool and a URL, delete the API key', async () => {
    // Arrange
    const f = await lapsedUser('canceled');

    // Act
    const results = [
      await call(f.user, 'POST', `/api/agents/${f.agent._id}/disable`),
      await call(f.user, 'DELETE', `/api/agents/${f.agent._id}/tools/${f.tool._id}`),
      await call(f.user, 'DELETE', `/api/agents/${f.agent._id}/urls/${f.url._id}`),
      await call(f.user, 'DELETE', `/api/api-keys/${f.key.apiKey._id}`),
    ];

    // Assert
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await call<Agent>(f.user, 'GET', `/api/agents/${f.agent._id}`)).body.data).toMatchObject({ enabled: false, tools: [], urls: [] });
    expect((await call(f.user, 'DELETE', `/api/agents/${f.agent._id}`)).status).toBe(200);
  });

  it('every flagged route is a route of the manifest with a signed-in caller', () => {
    for (const key of flagged) {
      const route = routes.find((r) => `${r.method} ${r.path}` === key);
      expect(route?.auth, key).toMatch(/^(user|userOrApiKey)$/);
    }
  });
});

describe('which subscription opens the paid routes', () => {
  it.each(['canceled', 'past_due', 'unpaid'] as const)('a %s subscription is refused (402), nothing created', async (status) => {
    // Arrange
    const { session } = await registerUser();
    const user = { token: session.token, userId: session.user._id };
    await grantSubscription(user.userId, { status });

    // Act
    const res = await call(user, 'POST', '/api/agents', { name: 'Sales' });

    // Assert
    expect(res.status).toBe(402);
    expect(res.body.message).toBe(REQUIRED);
    expect((await call<Agent[]>(user, 'GET', '/api/agents')).body.data).toEqual([]);
  });

  it('through Stripe: trialing after checkout is allowed, past_due refused, active allowed again, deleted refused', async () => {
    // Arrange: a real checkout on the fake Stripe (a 5-day trial), then signed subscription events.
    const s = await subscribedUser('starter');
    const user = { token: s.token, userId: s.userId };
    const createAgentStatus = async (name: string) => (await call(user, 'POST', '/api/agents', { name })).status;

    // Act + Assert
    expect(await createAgentStatus('Trial')).toBe(201);

    expect((await postWebhook(await subscriptionEvent(s.subscriptionId, 'customer.subscription.updated', { createdOffset: 10, status: 'past_due' }))).status).toBe(200);
    expect(await createAgentStatus('Past due')).toBe(402);

    expect((await postWebhook(await subscriptionEvent(s.subscriptionId, 'customer.subscription.updated', { createdOffset: 20, status: 'active' }))).status).toBe(200);
    expect(await createAgentStatus('Active')).toBe(201);

    expect((await postWebhook(await subscriptionEvent(s.subscriptionId, 'customer.subscription.deleted', { createdOffset: 30, status: 'canceled' }))).status).toBe(200);
    const refused = await call(user, 'POST', '/api/agents', { name: 'Canceled' });
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe(REQUIRED);
    expect(((await call<Agent[]>(user, 'GET', '/api/agents')).body.data ?? []).map((a) => a.name).sort()).toEqual(['Active', 'Trial']);
  });
});
