/**
 * Integrations whose credentials went bad (issue 34 item 6): which provider failures need the
 * owner, the flag raised once per reason with its notification, cleared only when it was set, and
 * the AI connector reporting every model call's outcome.
 */
import { describe, expect, it } from 'vitest';
import type { IntegrationHealth } from '../../../src/contract/integration-health.js';
import type { IntegrationType } from '../../../src/contract/integrations.js';
import { ModelError, type ChatModel, type Embedder } from '../../../src/domain/ai/ports.js';
import { createAiConnector } from '../../../src/domain/integrations/connector.js';
import { createIntegrationHealth, credentialFailureOf, type IntegrationHealthStore } from '../../../src/domain/integrations/health.js';
import type { IntegrationRecord } from '../../../src/domain/integrations/records.js';
import type { StoredNotification } from '../../../src/domain/notifications/ports.js';
import { LastingError, TransientError } from '../../../src/domain/retry.js';
import { TwilioError } from '../../../src/domain/voice/ports.js';
import { GraphError } from '../../../src/domain/whatsapp/ports.js';

describe('credentialFailureOf', () => {
  it.each([
    ['Meta 190 (token expired)', new GraphError('auth', 'Error validating access token', 190), 'whatsapp-business', 'whatsapp_token_invalid', '190'],
    ['Meta 0 (AuthException)', new GraphError('auth', 'Unable to authenticate', 0), 'whatsapp-business', 'whatsapp_token_invalid', '0'],
    ['an HTTP 401 without a code', new GraphError('auth', 'The WhatsApp access token was rejected'), 'whatsapp-business', 'whatsapp_token_invalid', '401'],
    ['Meta 10 (permission denied)', new GraphError('auth', 'Permission denied', 10), 'whatsapp-business', 'whatsapp_permission_missing', '10'],
    ['Meta 200 (API permission)', new GraphError('auth', 'Permission', 200), 'whatsapp-business', 'whatsapp_permission_missing', '200'],
    ['Meta 131005 (access denied)', new GraphError('bad_request', 'Access denied', 131005), 'whatsapp-business', 'whatsapp_permission_missing', '131005'],
    ['Meta 131031 (account locked)', new GraphError('bad_request', 'Business Account locked', 131031), 'whatsapp-business', 'whatsapp_account_locked', '131031'],
    ['OpenAI 401', new ModelError('auth', 'API key rejected (401)', undefined, { status: 401, code: 'invalid_api_key' }), 'chatgpt', 'openai_key_invalid', 'invalid_api_key'],
    ['OpenAI 403', new ModelError('auth', 'API key rejected (403)', undefined, { status: 403, code: 'unsupported_country_region_territory' }), 'chatgpt', 'openai_permission_missing', 'unsupported_country_region_territory'],
    ['OpenAI 429 insufficient_quota', new ModelError('rate_limit', 'Rate limited', undefined, { status: 429, code: 'insufficient_quota' }), 'chatgpt', 'openai_quota_exhausted', 'insufficient_quota'],
    ['Twilio 20003', new TwilioError('auth', 'Authenticate', 401, 20003), 'twilio-voice', 'twilio_credentials_invalid', '20003'],
    ['a LastingError of Twilio credentials', new LastingError({ provider: 'twilio', code: 20003, reason: 'credentials' }), 'twilio-voice', 'twilio_credentials_invalid', '20003'],
  ])('%s needs the owner', (_name, error, type, reason, code) => {
    expect(credentialFailureOf(error)).toEqual({ type, reason, code });
  });

  it.each([
    ['Meta 131047 (window closed)', new GraphError('bad_request', 'Re-engagement message', 131047)],
    ['Meta 130429 (rate limit)', new GraphError('rate_limit', 'Rate limit hit', 130429)],
    ['a Meta outage', new GraphError('unavailable', 'Something went wrong', 131000)],
    ['OpenAI 429 rate_limit_exceeded', new ModelError('rate_limit', 'Rate limited', 2, { status: 429, code: 'rate_limit_exceeded' })],
    ['an OpenAI outage', new ModelError('unavailable', 'Provider error (500)', undefined, { status: 500 })],
    ['Twilio 20404 (not found)', new TwilioError('not_found', 'Not Found', 404, 20404)],
    ['a transient failure', new TransientError({ provider: 'whatsapp', code: 'unavailable' })],
    ['anything else', new Error('boom')],
    ['not an error', 'text'],
  ])('%s does not', (_name, error) => {
    expect(credentialFailureOf(error)).toBeUndefined();
  });
});

/** The store as DynamoDB keeps it: a flag per integration, set only when absent or for another reason. */
function memoryStore(types: IntegrationType[] = ['whatsapp-business', 'chatgpt', 'twilio-voice']) {
  const flags = new Map<IntegrationType, IntegrationHealth | undefined>(types.map((t) => [t, undefined]));
  const notifications: StoredNotification[] = [];
  let clears = 0;
  const store: IntegrationHealthStore = {
    async markNeedsAttention(_userId, type, health, notification) {
      if (!flags.has(type) || flags.get(type)?.reason === health.reason) return false;
      flags.set(type, health);
      notifications.push(notification);
      return true;
    },
    async clearHealth(_userId, type, since) {
      clears++;
      if (flags.get(type)?.since !== since) return false;
      flags.set(type, undefined);
      return true;
    },
  };
  return { store, flags, notifications, clears: () => clears };
}

describe('createIntegrationHealth', () => {
  let clock = Date.parse('2026-11-20T10:00:00Z');
  const tracker = (store: IntegrationHealthStore) => createIntegrationHealth({ store, newId: () => `01J${String(clock++).padStart(23, '0')}`, now: () => clock });

  it('a refused token flags the integration and notifies once, however many sends fail', async () => {
    const memory = memoryStore();
    const health = tracker(memory.store);
    const refused = new GraphError('auth', 'Error validating access token: Session has expired', 190);

    const results = await Promise.all([1, 2, 3].map(() => health.failed('u1', refused)));

    expect(results).toEqual([1, 2, 3].map(() => ({ type: 'whatsapp-business', reason: 'whatsapp_token_invalid', code: '190' })));
    expect(memory.flags.get('whatsapp-business')).toMatchObject({ status: 'needs_attention', reason: 'whatsapp_token_invalid', code: '190' });
    expect(memory.notifications).toHaveLength(1);
    expect(memory.notifications[0]).toMatchObject({
      userId: 'u1',
      kind: 'integration_needs_attention',
      subjectId: 'whatsapp-business',
      contactName: 'WhatsApp Business',
      reason: 'whatsapp_token_invalid',
      readAt: null,
    });
  });

  it('another reason is another incident; an outage or a refused message flags nothing', async () => {
    const memory = memoryStore();
    const health = tracker(memory.store);

    await health.failed('u1', new GraphError('auth', 'expired', 190));
    await health.failed('u1', new GraphError('bad_request', 'Business Account locked', 131031));
    await health.failed('u1', new GraphError('bad_request', 'Re-engagement message', 131047));
    await health.failed('u1', new ModelError('unavailable', 'Provider error (500)'));

    expect(memory.notifications.map((n) => n.reason)).toEqual(['whatsapp_token_invalid', 'whatsapp_account_locked']);
    expect(memory.flags.get('chatgpt')).toBeUndefined();
  });

  it('knowing the flag already holds this reason, nothing is written', async () => {
    const memory = memoryStore();
    let writes = 0;
    const health = tracker({ ...memory.store, markNeedsAttention: async (...args) => (writes++, memory.store.markNeedsAttention(...args)) });
    const current: IntegrationHealth = { status: 'needs_attention', reason: 'openai_key_invalid', code: 'invalid_api_key', since: '2026-11-20T09:00:00.000Z' };

    await health.failed('u1', new ModelError('auth', 'API key rejected (401)', undefined, { status: 401, code: 'invalid_api_key' }), current);

    expect(writes).toBe(0);
  });

  it('a call that works clears the flag it read, and writes nothing when there was none', async () => {
    const memory = memoryStore();
    const health = tracker(memory.store);
    await health.failed('u1', new TwilioError('auth', 'Authenticate', 401, 20003));
    const flagged = memory.flags.get('twilio-voice');

    await health.recovered('u1', 'twilio-voice', undefined);
    expect(memory.clears()).toBe(0);
    await health.recovered('u1', 'twilio-voice', flagged);

    expect(memory.clears()).toBe(1);
    expect(memory.flags.get('twilio-voice')).toBeUndefined();
  });

  it('never throws: a store failure is logged and the caller goes on with the reason', async () => {
    const logged: string[] = [];
    const health = createIntegrationHealth({
      store: {
        markNeedsAttention: async () => {
          throw new Error('DynamoDB down');
        },
        clearHealth: async () => {
          throw new Error('DynamoDB down');
        },
      },
      newId: () => '01J00000000000000000000000',
      onError: (message) => logged.push(message),
    });

    await expect(health.failed('u1', new GraphError('auth', 'expired', 190))).resolves.toMatchObject({ reason: 'whatsapp_token_invalid' });
    await expect(health.recovered('u1', 'chatgpt', { status: 'needs_attention', reason: 'openai_key_invalid', code: '401', since: 'x' })).resolves.toBeUndefined();
    expect(logged).toHaveLength(2);
  });
});

describe('the notice sent on (the e-mail side)', () => {
  it('goes once per new flag; its failure is logged and the flag stands', async () => {
    const memory = memoryStore();
    const sent: string[] = [];
    const logged: string[] = [];
    const health = createIntegrationHealth({
      store: memory.store,
      newId: () => '01J00000000000000000000000',
      onError: (message) => logged.push(message),
      onFlagged: async (n) => {
        sent.push(n.reason);
        throw new Error('SQS down');
      },
    });

    await health.failed('u1', new GraphError('auth', 'expired', 190));
    await health.failed('u1', new GraphError('auth', 'expired', 190));

    expect(sent).toEqual(['whatsapp_token_invalid']);
    expect(logged).toHaveLength(1);
    expect(memory.flags.get('whatsapp-business')).toMatchObject({ reason: 'whatsapp_token_invalid' });
  });
});

describe('the AI connector reports every model call', () => {
  const record = (health?: IntegrationHealth): IntegrationRecord => ({
    id: 'i1',
    userId: 'u1',
    type: 'chatgpt',
    isActive: true,
    credentials: { apiKey: 'sealed' },
    settings: { model: 'gpt-4o' },
    ...(health ? { health } : {}),
    createdAt: 'c',
    updatedAt: 'u',
  });

  function connector(stored: IntegrationRecord, model: ChatModel & Embedder) {
    const reports: string[] = [];
    const ai = createAiConnector({
      integrations: { get: async () => stored, list: async () => [], put: async () => undefined, update: async () => null, delete: async () => false },
      secrets: { seal: async (v) => v, open: async (v) => v },
      models: { forKey: () => ({ ...model, verify: async () => undefined }) },
      health: {
        failed: async (_u, error) => (reports.push(`failed ${(error as Error).name}`), undefined),
        recovered: async (_u, type, health) => void reports.push(`recovered ${type} ${health?.reason ?? '-'}`),
      },
    });
    return { ai, reports };
  }

  it('a refused key is reported and still thrown to the feature', async () => {
    const refused = new ModelError('auth', 'API key rejected (401)', undefined, { status: 401, code: 'invalid_api_key' });
    const { ai, reports } = connector(record(), {
      complete: async () => {
        throw refused;
      },
      embed: async () => [],
    });

    const connection = await ai.forUser('u1');

    await expect(connection!.chat.complete({ model: 'gpt-4o', messages: [], maxTokens: 10, temperature: 0 })).rejects.toBe(refused);
    expect(reports).toEqual(['failed ModelError']);
  });

  it('the first call that works clears a flag read with the integration, once', async () => {
    const flag: IntegrationHealth = { status: 'needs_attention', reason: 'openai_quota_exhausted', code: 'insufficient_quota', since: '2026-11-20T09:00:00.000Z' };
    const { ai, reports } = connector(record(flag), {
      complete: async () => ({ content: 'ok', toolCalls: [], finishReason: 'stop' }),
      embed: async () => [new Float32Array(1)],
    });
    const healthy = connector(record(), { complete: async () => ({ content: 'ok', toolCalls: [], finishReason: 'stop' }), embed: async () => [] });

    const connection = await ai.forUser('u1');
    await connection!.chat.complete({ model: 'gpt-4o', messages: [], maxTokens: 10, temperature: 0 });
    await connection!.embedder.embed(['x']);
    await (await healthy.ai.forUser('u1'))!.chat.complete({ model: 'gpt-4o', messages: [], maxTokens: 10, temperature: 0 });

    expect(reports).toEqual(['recovered chatgpt openai_quota_exhausted']);
    expect(healthy.reports).toEqual([]);
  });
});
