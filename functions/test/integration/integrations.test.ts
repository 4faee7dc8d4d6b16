/**
 * Integrations API through the local gateway: the ChatGPT setup (key sealed at rest, masked in
 * every answer, kept on edit), the real key test and AI-improve against the fake OpenAI through
 * the official SDK and the outbound guard, partial update, disconnect, validation messages,
 * ownership, and base URLs on private addresses refused.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  MASKED_SECRET,
  integrationMessages,
  type ChatGptAskResponse,
  type IntegrationView,
} from '../../src/contract/integrations.js';
import { api, getItem, provided } from '../support/api.js';
import { paidUser } from '../support/billing.js';

interface User {
  token: string;
  userId: string;
}

/** Integrations are a paid feature: a user with an active subscription. */
async function newUser(): Promise<User> {
  const { token, userId } = await paidUser();
  return { token, userId };
}

/** A fresh API key per test: the fake OpenAI records and scripts by key. */
const newKey = (prefix = 'sk-test') => `${prefix}-${randomUUID()}`;

const setup = (token: string, body: unknown) => api<IntegrationView>('POST', '/api/integrations/chatgpt/setup', { token, body });
const test = (token: string, body: unknown = {}) => api('POST', '/api/integrations/chatgpt/test', { token, body });
const ask = (token: string, body: unknown) => api<ChatGptAskResponse>('POST', '/api/integrations/chatgpt/ask', { token, body });
const storedItem = (userId: string) => getItem(`USER#${userId}`, 'INTEGRATION#chatgpt');

interface FakeRequest {
  method: string;
  path: string;
  key: string;
  status: number;
  body: Record<string, unknown>;
}
async function openaiRequests(key: string): Promise<FakeRequest[]> {
  const res = await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(key)}`);
  return ((await res.json()) as { requests: FakeRequest[] }).requests;
}
async function script(key: string, responses: unknown[]): Promise<void> {
  await fetch(`${provided('openaiUrl')}/_test/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, responses }),
  });
}

describe('ChatGPT setup', () => {
  it('requires an API key the first time', async () => {
    const { token } = await newUser();

    const none = await setup(token, { model: 'gpt-4o' });
    const masked = await setup(token, { apiKey: MASKED_SECRET });

    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ success: false, message: 'API key is required', field: 'apiKey' });
    expect(masked.body.message).toBe('API key is required');
  });

  it('stores the key sealed, answers it masked, and fills the settings defaults', async () => {
    const { token, userId } = await newUser();
    const key = newKey();

    const res = await setup(token, { apiKey: key });
    const item = await storedItem(userId);

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('ChatGPT integration configured successfully');
    expect(res.body.data).toMatchObject({
      type: 'chatgpt',
      isActive: true,
      credentials: { apiKey: '***' },
      settings: { model: 'gpt-4.1-mini', maxTokens: 1000, temperature: 0.7, systemPrompt: '', baseUrl: '' },
    });
    expect(JSON.stringify(res.body)).not.toContain(key);
    const sealed = (item?.credentials as Record<string, string>).apiKey;
    expect(sealed).toMatch(/^v1:local:/);
    expect(JSON.stringify(item)).not.toContain(key);
    expect(JSON.stringify(item)).not.toContain(key.slice(8));
    expect(item).toMatchObject({ gsi1pk: `INTEGRATION#${res.body.data?._id}`, gsi1sk: 'INTEGRATION' });
  });

  it("keeps the stored key when an edit sends '***' or nothing, and replaces it when a new one is sent", async () => {
    const { token, userId } = await newUser();
    const first = await setup(token, { apiKey: newKey(), model: 'gpt-4o', systemPrompt: 'Be brief.' });
    const sealed = async () => ((await storedItem(userId))?.credentials as Record<string, string>).apiKey;
    const original = await sealed();

    const masked = await setup(token, { apiKey: '***', model: 'gpt-4-turbo', maxTokens: 500, temperature: 1.2 });
    const afterMasked = await sealed();
    const empty = await setup(token, { model: 'gpt-5-mini' });
    const afterEmpty = await sealed();
    const replaced = await setup(token, { apiKey: newKey(), model: 'gpt-5-mini' });

    expect(masked.body.data).toMatchObject({
      _id: first.body.data?._id,
      createdAt: first.body.data?.createdAt,
      settings: { model: 'gpt-4-turbo', maxTokens: 500, temperature: 1.2, systemPrompt: '' },
    });
    expect(afterMasked).toBe(original);
    expect(empty.status).toBe(200);
    expect(afterEmpty).toBe(original);
    expect(replaced.status).toBe(200);
    expect(await sealed()).not.toBe(original);
  });

  it.each([
    ['maxTokens 0', { maxTokens: 0 }, 'Max tokens must be between 1 and 4000', 'maxTokens'],
    ['maxTokens 4001', { maxTokens: 4001 }, 'Max tokens must be between 1 and 4000', 'maxTokens'],
    ['maxTokens 10.5', { maxTokens: 10.5 }, 'Max tokens must be a whole number', 'maxTokens'],
    ['maxTokens "lots"', { maxTokens: 'lots' }, 'Max tokens must be between 1 and 4000', 'maxTokens'],
    ['temperature 2.1', { temperature: 2.1 }, 'Temperature must be between 0 and 2', 'temperature'],
    ['temperature -0.1', { temperature: -0.1 }, 'Temperature must be between 0 and 2', 'temperature'],
    ['temperature 0.75', { temperature: 0.75 }, 'Temperature must be in steps of 0.1', 'temperature'],
    ['model gpt-9', { model: 'gpt-9' }, integrationMessages.modelInvalid, 'model'],
    ['a 4001-character system prompt', { systemPrompt: 'x'.repeat(4001) }, 'System prompt must be 4000 characters or less', 'systemPrompt'],
    ['a 303-character key', { apiKey: `sk-${'x'.repeat(300)}` }, 'API key must be 300 characters or less', 'apiKey'],
    ['an ftp base URL', { baseUrl: 'ftp://example.com/v1' }, 'API base URL must be an http(s) URL', 'baseUrl'],
  ])('%s → 400 %s', async (_label, body, message, field) => {
    const { token, userId } = await newUser();

    const res = await setup(token, { apiKey: newKey(), ...body });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message, field });
    expect(await storedItem(userId)).toBeUndefined();
  });

  it('accepts the boundaries: 1 and 4000 tokens, temperature 0, 2 and 1.1', async () => {
    const { token } = await newUser();

    for (const body of [{ maxTokens: 1 }, { maxTokens: 4000 }, { temperature: 0 }, { temperature: 2 }, { temperature: 1.1 }]) {
      const res = await setup(token, { apiKey: newKey(), ...body });
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body.data?.settings).toMatchObject(body);
    }
  });

  it.each([
    ['http://10.0.0.5/v1'],
    ['http://169.254.169.254/latest'],
    ['http://127.0.0.1:9/v1'],
    ['http://localhost:9/v1'],
    ['http://[::1]:8080/v1'],
    ['http://[::ffff:192.168.0.1]/v1'],
  ])('refuses an API base URL on a non-public address: %s', async (baseUrl) => {
    const { token, userId } = await newUser();

    const res = await setup(token, { apiKey: newKey(), baseUrl });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'API base URL must point to a public internet address', field: 'baseUrl' });
    expect(await storedItem(userId)).toBeUndefined();
  });
});

describe('ChatGPT test', () => {
  it('makes a real call with the stored key and model and reports success', async () => {
    const { token } = await newUser();
    const key = newKey();
    await setup(token, { apiKey: key, model: 'gpt-4o' });

    const res = await test(token);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Connection successful' });
    const calls = await openaiRequests(key);
    expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual(['GET /v1/models/gpt-4o 200']);
  });

  it('tests unsaved values from the body, and says clearly when the key is wrong', async () => {
    const { token } = await newUser();
    await setup(token, { apiKey: newKey() });
    const badKey = newKey('sk-invalid');

    const bad = await test(token, { apiKey: badKey, model: 'gpt-4' });
    const limited = await test(token, { apiKey: newKey('sk-ratelimit') });

    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, message: 'OpenAI rejected the API key. Check the key in Integrations.' });
    expect(JSON.stringify(bad.body)).not.toMatch(/Incorrect API key|platform\.openai/);
    expect((await openaiRequests(badKey)).map((c) => c.path)).toEqual(['/v1/models/gpt-4']);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(integrationMessages.modelRateLimited);
  });

  it('needs a key when nothing is stored', async () => {
    const { token } = await newUser();

    const res = await test(token, { model: 'gpt-4o' });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('API key is required');
  });

  it('reaches an OpenAI-compatible API at an allowed base URL, and refuses one on a private address', async () => {
    const { token } = await newUser();
    const key = newKey();
    const fakeBase = `${provided('openaiUrl')}/v1`;

    const saved = await setup(token, { apiKey: key, model: 'gpt-5-nano', baseUrl: fakeBase });
    const ok = await test(token);
    const blocked = await test(token, { baseUrl: 'http://192.168.1.10:8000/v1' });

    expect(saved.body.data?.settings).toMatchObject({ baseUrl: fakeBase });
    expect(ok.body.message).toBe('Connection successful');
    expect((await openaiRequests(key)).map((c) => c.path)).toEqual(['/v1/models/gpt-5-nano']);
    expect(blocked.status).toBe(400);
    expect(blocked.body.message).toBe(integrationMessages.baseUrlBlocked);
  });
});

describe('ChatGPT ask (AI improve)', () => {
  it('needs an active integration', async () => {
    const { token } = await newUser();

    const res = await ask(token, { text: 'we sell shoes', promptId: 'improve-description' });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('ChatGPT integration is required for AI improvements');
  });

  it('improves the text with the field instruction, the model settings and the length limit', async () => {
    const { token } = await newUser();
    const key = newKey();
    await setup(token, { apiKey: key, model: 'gpt-4o', temperature: 0.3 });

    const res = await ask(token, { text: 'we sell shoes', promptId: 'improve-description', maxLength: 500 });
    const short = await ask(token, { text: 'one two three four five six seven', promptId: 'improve-text', maxLength: 20 });

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ response: 'Improved: we sell shoes' });
    expect(short.body.data?.response).toBe('Improved: one two');
    const [first] = await openaiRequests(key);
    expect(first?.path).toBe('/v1/chat/completions');
    expect(first?.body).toMatchObject({ model: 'gpt-4o', temperature: 0.3 });
    const messages = first?.body.messages as { role: string; content: string }[];
    expect(messages[0]?.role).toBe('system');
    expect(messages[0]?.content).toContain('description of an AI customer-service agent');
    expect(messages[0]?.content).toContain('at most 500 characters');
    expect(messages[1]).toEqual({ role: 'user', content: 'we sell shoes' });
  });

  it.each([
    ['blank text', { text: '   ' }, 'Please enter some text before using AI improvement'],
    ['no text', {}, 'Please enter some text before using AI improvement'],
    ['5001 characters', { text: 'x'.repeat(5001) }, 'Text must be 5000 characters or less'],
    ['an unknown prompt', { text: 'hi', promptId: 'improve-everything' }, 'Unknown AI prompt'],
  ])('%s → 400 %s', async (_label, body, message) => {
    const { token } = await newUser();
    await setup(token, { apiKey: newKey() });

    const res = await ask(token, body);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('turns model failures into clear messages without the provider’s text', async () => {
    const { token } = await newUser();
    const key = newKey();
    await setup(token, { apiKey: key });
    await script(key, [
      { error: { status: 401, message: 'Incorrect API key provided: sk-***', code: 'invalid_api_key' } },
      { error: { status: 500, message: 'internal provider trace xyz' } },
      { error: { status: 500, message: 'internal provider trace xyz' } },
    ]);

    const rejected = await ask(token, { text: 'hello' });
    const down = await ask(token, { text: 'hello' });

    expect(rejected.status).toBe(400);
    expect(rejected.body.message).toBe(integrationMessages.modelKeyRejected);
    expect(down.status).toBe(502);
    expect(down.body).toEqual({ success: false, message: integrationMessages.modelUnavailable });
  });
});

describe('integrations: read, update, disconnect, ownership', () => {
  it('lists only the integrations set up, reads one by type, 404 for a type not connected', async () => {
    const { token } = await newUser();
    const before = await api<IntegrationView[]>('GET', '/api/integrations', { token });
    await setup(token, { apiKey: newKey() });

    const list = await api<IntegrationView[]>('GET', '/api/integrations', { token });
    const one = await api<IntegrationView>('GET', '/api/integrations/chatgpt', { token });
    const other = await api('GET', '/api/integrations/twilio-voice', { token });
    const bogus = await api('GET', '/api/integrations/slack', { token });

    expect(before.body.data).toEqual([]);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data?.[0]).toMatchObject({ type: 'chatgpt', isActive: true, credentials: { apiKey: '***' } });
    expect(one.body.data).toEqual(list.body.data?.[0]);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Integration not found');
    expect(bogus.status).toBe(400);
    expect(bogus.body.message).toBe(integrationMessages.typeInvalid);
  });

  it('updates isActive and settings partially, with the setup rules', async () => {
    const { token } = await newUser();
    await setup(token, { apiKey: newKey(), model: 'gpt-4o', systemPrompt: 'Be brief.' });

    const off = await api<IntegrationView>('PUT', '/api/integrations/chatgpt', { token, body: { isActive: false } });
    const askWhenOff = await ask(token, { text: 'hello' });
    const tuned = await api<IntegrationView>('PUT', '/api/integrations/chatgpt', { token, body: { settings: { temperature: 1.5 } } });
    const invalid = await api('PUT', '/api/integrations/chatgpt', { token, body: { settings: { maxTokens: 5000 } } });
    const blocked = await api('PUT', '/api/integrations/chatgpt', { token, body: { settings: { baseUrl: 'http://10.1.1.1/v1' } } });
    const missing = await api('PUT', '/api/integrations/whatsapp-business', { token, body: { isActive: true } });

    expect(off.body.data?.isActive).toBe(false);
    expect(askWhenOff.body.message).toBe(integrationMessages.chatgptRequired);
    expect(tuned.body.data).toMatchObject({
      isActive: false,
      credentials: { apiKey: '***' },
      settings: { model: 'gpt-4o', temperature: 1.5, systemPrompt: 'Be brief.', maxTokens: 1000 },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe('Max tokens must be between 1 and 4000');
    expect(blocked.body.message).toBe(integrationMessages.baseUrlBlocked);
    expect(missing.status).toBe(404);
  });

  it('disconnects: the integration and its sealed key are gone', async () => {
    const { token, userId } = await newUser();
    await setup(token, { apiKey: newKey() });

    const res = await api('DELETE', '/api/integrations/chatgpt', { token });
    const again = await api('DELETE', '/api/integrations/chatgpt', { token });

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Integration disconnected successfully');
    expect(await storedItem(userId)).toBeUndefined();
    expect((await api('GET', '/api/integrations/chatgpt', { token })).status).toBe(404);
    expect(again.status).toBe(404);
    expect((await ask(token, { text: 'hello' })).body.message).toBe(integrationMessages.chatgptRequired);
  });

  it("never shows, changes, tests or uses another user's integration", async () => {
    const owner = await newUser();
    const other = await newUser();
    const key = newKey();
    await setup(owner.token, { apiKey: key, model: 'gpt-4o' });

    const list = await api<IntegrationView[]>('GET', '/api/integrations', { token: other.token });
    const read = await api('GET', '/api/integrations/chatgpt', { token: other.token });
    const put = await api('PUT', '/api/integrations/chatgpt', { token: other.token, body: { isActive: false } });
    const del = await api('DELETE', '/api/integrations/chatgpt', { token: other.token });
    const tested = await test(other.token);
    const asked = await ask(other.token, { text: 'hello' });

    expect(list.body.data).toEqual([]);
    expect([read.status, put.status, del.status]).toEqual([404, 404, 404]);
    expect(tested.body.message).toBe('API key is required');
    expect(asked.body.message).toBe(integrationMessages.chatgptRequired);
    expect((await api<IntegrationView>('GET', '/api/integrations/chatgpt', { token: owner.token })).body.data?.isActive).toBe(true);
    expect(await openaiRequests(key)).toEqual([]);
  });

  it('requires authentication', async () => {
    const res = await api('GET', '/api/integrations');

    expect(res.status).toBe(401);
  });
});
