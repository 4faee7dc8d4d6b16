/**
 * API keys and the public API through the local gateway (which runs the API authorizer Lambda
 * handler and mirrors AWS's CloudFront 403 guard): a key is shown once and only its hash and
 * prefix are at rest, regenerate and delete invalidate at once, keys reach exactly the
 * 'userOrApiKey' routes (either header), never another tenant's data, are rate-limited per key
 * (429 + Retry-After) and record lastUsedAt; the Cognito token keeps working on the same routes.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_LIMITS, apiKeyMessages, type ApiKeyView, type CreatedApiKey } from '../../src/contract/api-keys.js';
import type { Contact } from '../../src/contract/contacts.js';
import type { VoiceConversationList } from '../../src/contract/voice.js';
import { routes } from '../../src/routes.js';
import { api, getItem, itemsOf } from '../support/api.js';
import { activeUser } from '../support/contacts.js';
import { seedCall } from '../support/seed-calls.js';

const KEY_SHAPE = /^ak_[A-Za-z0-9_-]{43}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const createKey = (token: string, name = 'Integration') => api<CreatedApiKey>('POST', '/api/api-keys', { token, body: { name } });
const listKeys = async (token: string) => (await api<ApiKeyView[]>('GET', '/api/api-keys', { token })).body.data ?? [];

async function newKey(token: string, name?: string): Promise<CreatedApiKey> {
  const res = await createKey(token, name);
  expect(res.status, res.body.message).toBe(201);
  return res.body.data as CreatedApiKey;
}

/** A call with an API key in one of the two accepted headers. */
function withKey<T = unknown>(key: string, method: string, path: string, options: { body?: unknown; via?: 'bearer' | 'x-api-key' } = {}) {
  const headers: Record<string, string> = options.via === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
  return api<T>(method, path, { headers, body: options.body });
}

const phone = () => `+3461${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

describe('API keys: created, listed, stored', () => {
  it('shows the key once: in the create answer only; at rest only its SHA-256 and prefix', async () => {
    const { token, userId } = await activeUser();

    const res = await createKey(token, '  CRM sync  ');

    expect(res.status).toBe(201);
    expect(res.body.message).toBe(apiKeyMessages.created);
    const { key, apiKey } = res.body.data as CreatedApiKey;
    expect(key).toMatch(KEY_SHAPE);
    expect(apiKey).toEqual({ _id: expect.any(String), name: 'CRM sync', prefix: key.slice(0, 10), createdAt: expect.any(String), lastUsedAt: null });
    const listed = await api('GET', '/api/api-keys', { token });
    expect(listed.body.data).toEqual([apiKey]);
    expect(JSON.stringify(listed.body)).not.toContain(key.slice(10));
    // Raw items: the key item and the hash lookup hold the hash and the prefix, never the key.
    const keyItem = await getItem(`USER#${userId}`, `APIKEY#${apiKey._id}`);
    expect(keyItem).toMatchObject({ keyHash: sha256(key), prefix: key.slice(0, 10), name: 'CRM sync' });
    const lookup = await getItem(`APIKEYHASH#${sha256(key)}`, 'APIKEY');
    expect(lookup).toMatchObject({ userId, keyId: apiKey._id });
    for (const item of [...(await itemsOf(`USER#${userId}`)), lookup]) expect(JSON.stringify(item)).not.toContain(key.slice(10));
  });

  it('validates the name, caps the keys per user and answers 404 for an unknown or foreign key', async () => {
    const a = await activeUser();
    const b = await activeUser();
    expect((await api('POST', '/api/api-keys', { token: a.token, body: { name: '   ' } })).body).toMatchObject({ success: false, message: apiKeyMessages.nameRequired });
    expect((await createKey(a.token, 'x'.repeat(51))).status).toBe(400);
    const ofA = await newKey(a.token);

    for (const [method, path] of [['PUT', `/api/api-keys/${ofA.apiKey._id}/regenerate`], ['DELETE', `/api/api-keys/${ofA.apiKey._id}`], ['DELETE', '/api/api-keys/nope']] as const) {
      const res = await api(method, path, { token: b.token });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe(apiKeyMessages.notFound);
    }
    expect(await listKeys(a.token)).toHaveLength(1);

    for (let i = 1; i < API_KEY_LIMITS.perUser; i++) await newKey(a.token, `k${i}`);
    const over = await createKey(a.token, 'one too many');
    expect(over.status).toBe(403);
    expect(over.body.message).toBe(apiKeyMessages.tooMany);
    expect(await listKeys(a.token)).toHaveLength(API_KEY_LIMITS.perUser);
    // Deleting one frees a place.
    await api('DELETE', `/api/api-keys/${ofA.apiKey._id}`, { token: a.token });
    expect((await createKey(a.token, 'again')).status).toBe(201);
  });
});

describe('the public API with a key', () => {
  it('serves POST and GET /api/contacts with either header; a contact created with a key has source api', async () => {
    const { token } = await activeUser();
    const { key } = await newKey(token);
    const number = phone();

    const created = await withKey<Contact>(key, 'POST', '/api/contacts', { via: 'x-api-key', body: { name: 'Via API', phoneNumber: number } });

    expect(created.status, created.body.message).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Via API', source: 'api' });
    const listed = await withKey<Contact[]>(key, 'GET', '/api/contacts', { via: 'bearer' });
    expect(listed.status).toBe(200);
    expect(listed.body.data?.map((c) => c._id)).toEqual([created.body.data?._id]);
    // The Cognito token still works on the same routes (and a contact made with it is manual).
    const manual = await api<Contact>('POST', '/api/contacts', { token, body: { name: 'By hand', phoneNumber: phone() } });
    expect(manual.body.data?.source).toBe('manual');
    expect((await api<Contact[]>('GET', '/api/contacts', { token })).body.data).toHaveLength(2);
  });

  it('reads voice conversations (list and detail) with a key', async () => {
    const { token, userId } = await activeUser();
    const { key } = await newKey(token);
    const call = await seedCall(userId);

    const list = await withKey<VoiceConversationList>(key, 'GET', '/api/voice-conversations');
    const detail = await withKey<{ conversation: { _id: string } }>(key, 'GET', `/api/voice-conversations/${call.id}`, { via: 'bearer' });

    expect(list.status).toBe(200);
    expect(list.body.data?.conversations.map((c) => c._id)).toEqual([call.id]);
    expect(detail.status).toBe(200);
    expect(detail.body.data?.conversation._id).toBe(call.id);
    expect((await api('GET', `/api/voice-conversations/${call.id}`, { token })).status).toBe(200);
  });

  it("never reaches another user's data: B's call id is 404 and B's contacts are not listed", async () => {
    const a = await activeUser();
    const b = await activeUser();
    const keyOfA = (await newKey(a.token)).key;
    const callOfB = await seedCall(b.userId);
    const contactOfB = await api<Contact>('POST', '/api/contacts', { token: b.token, body: { phoneNumber: phone() } });
    expect(contactOfB.status).toBe(201);

    const call = await withKey(keyOfA, 'GET', `/api/voice-conversations/${callOfB.id}`);
    const calls = await withKey<VoiceConversationList>(keyOfA, 'GET', '/api/voice-conversations');
    const contacts = await withKey<Contact[]>(keyOfA, 'GET', '/api/contacts');

    expect(call.status).toBe(404);
    expect(calls.body.data?.conversations).toEqual([]);
    expect(contacts.body.data).toEqual([]);
    // B still sees its own data.
    expect((await api('GET', `/api/voice-conversations/${callOfB.id}`, { token: b.token })).status).toBe(200);
  });

  it('refuses a key on every route that is not part of the public API with 403 (valid or not, known route or not)', async () => {
    const { token } = await activeUser();
    const { key, apiKey } = await newKey(token);
    const contact = await withKey<Contact>(key, 'POST', '/api/contacts', { body: { phoneNumber: phone() } });
    const id = contact.body.data?._id ?? 'x';
    const notPublic = routes.filter((r) => r.auth !== 'userOrApiKey');
    const samples: [string, string][] = [
      ['GET', '/api/me'],
      ['GET', '/api/contacts/stats'],
      ['GET', `/api/contacts/${id}`],
      ['DELETE', `/api/contacts/${id}`],
      ['GET', '/api/api-keys'],
      ['DELETE', `/api/api-keys/${apiKey._id}`],
      ['GET', '/api/dashboard'],
      ['POST', '/api/login'],
      ['GET', '/api/agents'],
      ['GET', '/api/no-such-route'],
    ];
    expect(notPublic.length).toBeGreaterThan(samples.length);

    for (const [method, path] of samples) {
      for (const via of ['bearer', 'x-api-key'] as const) {
        const res = await withKey(key, method, path, { via, body: method === 'POST' ? {} : undefined });
        expect(res.status, `${method} ${path} (${via})`).toBe(403);
        expect(res.body).toEqual({ success: false, message: apiKeyMessages.routeNotAllowed });
      }
    }
    expect((await withKey(`ak_${'x'.repeat(43)}`, 'GET', '/api/me')).status).toBe(403);
    // Nothing was deleted by the refused calls.
    expect(await listKeys(token)).toHaveLength(1);
    expect((await api('GET', `/api/contacts/${id}`, { token })).status).toBe(200);
  });

  it('answers 401 without credentials, with an unknown key and with a bad token', async () => {
    const none = await api('GET', '/api/contacts');
    const unknown = await withKey(`ak_${'A'.repeat(43)}`, 'GET', '/api/contacts');
    const malformed = await withKey('ak_short', 'GET', '/api/contacts', { via: 'bearer' });
    const badToken = await api('GET', '/api/contacts', { token: 'not.a.jwt' });

    expect(none.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe(apiKeyMessages.invalid);
    expect(malformed.status).toBe(401);
    expect(malformed.body.message).toBe(apiKeyMessages.invalid);
    expect(badToken.status).toBe(401);
  });
});

describe('regenerate, delete, usage', () => {
  it('regenerate returns a new key for the same id and the old key stops working at once', async () => {
    const { token } = await activeUser();
    const first = await newKey(token);
    expect((await withKey(first.key, 'GET', '/api/contacts')).status).toBe(200);

    const res = await api<CreatedApiKey>('PUT', `/api/api-keys/${first.apiKey._id}/regenerate`, { token });

    expect(res.status).toBe(200);
    expect(res.body.message).toBe(apiKeyMessages.regenerated);
    const second = res.body.data as CreatedApiKey;
    expect(second.key).toMatch(KEY_SHAPE);
    expect(second.key).not.toBe(first.key);
    expect(second.apiKey).toMatchObject({ _id: first.apiKey._id, name: first.apiKey.name, prefix: second.key.slice(0, 10) });
    const old = await withKey(first.key, 'GET', '/api/contacts');
    expect(old.status).toBe(401);
    expect(old.body.message).toBe(apiKeyMessages.invalid);
    expect((await withKey(second.key, 'GET', '/api/contacts', { via: 'bearer' })).status).toBe(200);
    expect(await getItem(`APIKEYHASH#${sha256(first.key)}`, 'APIKEY')).toBeUndefined();
  });

  it('a deleted key answers 401 at once and leaves no lookup behind', async () => {
    const { token } = await activeUser();
    const { key, apiKey } = await newKey(token);
    expect((await withKey(key, 'GET', '/api/contacts')).status).toBe(200);

    const res = await api('DELETE', `/api/api-keys/${apiKey._id}`, { token });

    expect(res.status).toBe(200);
    expect(res.body.message).toBe(apiKeyMessages.deleted);
    const after = await withKey(key, 'GET', '/api/contacts');
    expect(after.status).toBe(401);
    expect(after.body.message).toBe(apiKeyMessages.invalid);
    expect(await listKeys(token)).toEqual([]);
    expect(await getItem(`APIKEYHASH#${sha256(key)}`, 'APIKEY')).toBeUndefined();
  });

  it('sets lastUsedAt on use', async () => {
    const { token } = await activeUser();
    const { key, apiKey } = await newKey(token);
    const before = Date.now();

    await withKey(key, 'GET', '/api/contacts');

    const [listed] = await listKeys(token);
    expect(listed?._id).toBe(apiKey._id);
    expect(Date.parse(listed?.lastUsedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(listed?.lastUsedAt ?? '')).toBeLessThanOrEqual(Date.now());
  });

  it(`limits each key to ${API_KEY_LIMITS.requestsPerWindow} requests per ${API_KEY_LIMITS.windowSeconds} s: then 429 with Retry-After; another key is not affected`, async () => {
    const { token } = await activeUser();
    const limited = await newKey(token, 'busy');
    const other = await newKey(token, 'quiet');
    // Start early in a fixed window so the burst cannot straddle two windows.
    const intoWindow = (Date.now() / 1000) % API_KEY_LIMITS.windowSeconds;
    if (intoWindow > API_KEY_LIMITS.windowSeconds - 20) await new Promise((r) => setTimeout(r, (API_KEY_LIMITS.windowSeconds - intoWindow + 0.5) * 1000));

    const statuses: number[] = [];
    for (let batch = 0; batch < API_KEY_LIMITS.requestsPerWindow; batch += 10) {
      const results = await Promise.all(Array.from({ length: 10 }, () => withKey(limited.key, 'GET', '/api/contacts')));
      statuses.push(...results.map((r) => r.status));
    }
    const over = await withKey(limited.key, 'GET', '/api/contacts', { via: 'bearer' });

    expect(statuses.filter((s) => s === 200)).toHaveLength(API_KEY_LIMITS.requestsPerWindow);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, message: apiKeyMessages.rateLimited });
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(API_KEY_LIMITS.windowSeconds);
    expect((await withKey(other.key, 'GET', '/api/contacts')).status).toBe(200);
    // The user's own session is not limited by the key's window.
    expect((await api('GET', '/api/contacts', { token })).status).toBe(200);
  });
});
