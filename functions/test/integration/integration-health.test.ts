/**
 * Credentials that went bad (issue 34 item 6), end to end on the local stack with the fakes'
 * failure switches: Meta answering 190 to the agent's replies, OpenAI refusing the key, Twilio
 * answering 20003. The integration needs attention with the reason and the provider's code
 * (GET /api/integrations, secrets still masked), the owner gets exactly one notification however
 * many calls fail, the failed reply keeps Meta's code and the reason key instead of Meta's
 * English, and the flag goes when the owner saves new credentials, tests the stored ones
 * successfully, or a later call with them works.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { integrationHealthReasons } from '../../src/contract/integration-health.js';
import type { IntegrationView } from '../../src/contract/integrations.js';
import type { NotificationList } from '../../src/contract/notifications.js';
import type { TwilioSetupResult } from '../../src/contract/voice.js';
import type { Conversation, ConversationDetail, ConversationMessage } from '../../src/contract/whatsapp.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, getItem, mailsTo, provided, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { armFault, clearFault } from '../support/faults.js';
import { connectWhatsApp, graphSends, metaDelivery, postWebhook, signMetaBody, textMessage, waCustomer, type ConnectedWhatsApp, type WaCustomer } from '../support/whatsapp.js';

interface Owner {
  token: string;
  userId: string;
  email: string;
  /** The ChatGPT key (OpenAI faults are scoped to it). */
  key: string;
  wa: ConnectedWhatsApp;
}

/** A subscribed owner with ChatGPT, an answering agent and WhatsApp connected. */
async function owner(): Promise<Owner> {
  const { token, userId, user } = await subscribedUser('starter');
  const key = `sk-health-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status} ${chatgpt.body.message}`);
  await createAnsweringAgent(token);
  return { token, userId, email: user.email, key, wa: await connectWhatsApp(token) };
}

/** A customer writes; answers once the worker is done with the message (`handled`: false, once Meta's delivery was accepted). */
async function customerWrites(o: Owner, customer: WaCustomer, text: string, handled = true): Promise<void> {
  const message = textMessage(customer, text);
  const body = metaDelivery(o.wa, { messages: [message] });
  const res = await postWebhook(o.wa.integrationId, body, signMetaBody(body, o.wa.appSecret));
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
  if (!handled) return;
  await until(async () => (await getItem(`USER#${o.userId}`, `WAMID#${String(message.message.id)}`))?.state === 'handled', `message ${text} handled`, 30_000);
}

const integrations = async (token: string) => (await api<IntegrationView[]>('GET', '/api/integrations', { token })).body.data ?? [];
const integration = async (token: string, type: IntegrationView['type']) => (await integrations(token)).find((i) => i.type === type);

async function needsAttention(token: string) {
  return (await api<NotificationList>('GET', '/api/notifications?limit=50', { token })).body.data!.notifications.filter((n) => n.kind === 'integration_needs_attention');
}

/** The messages of the customer's conversation, through the API. */
async function conversationOf(token: string, customer: WaCustomer): Promise<ConversationMessage[]> {
  const list = (await api<Conversation[]>('GET', '/api/conversations?limit=100', { token })).body.data ?? [];
  const found = list.find((c) => c.customerWaId === customer.waId);
  if (!found) return [];
  return (await api<ConversationDetail>('GET', `/api/conversations/${found._id}`, { token })).body.data?.messages ?? [];
}

describe('WhatsApp: Meta refuses the token (190)', () => {
  it('the integration needs attention with the reason, one notification for three failed replies, each reply keeps code 190 and the reason key; saving a new token clears it', async () => {
    const o = await owner();
    const fault = `health-190-${randomUUID().slice(0, 8)}`;
    await armFault('whatsapp', { id: fault, kind: 'status', code: 190, match: { method: 'POST', path: `/${o.wa.phoneId}/messages` } });
    const customers = [waCustomer('Ana'), waCustomer('Bruno'), waCustomer('Carla')];
    try {
      for (const [i, customer] of customers.entries()) await customerWrites(o, customer, `¿Abrís el sábado? ${i}`);
    } finally {
      await clearFault('whatsapp', fault);
    }

    const flagged = await integration(o.token, 'whatsapp-business');
    expect(flagged).toMatchObject({ isActive: true, health: { status: 'needs_attention', reason: 'whatsapp_token_invalid', code: '190' } });
    expect(flagged!.credentials.bearerToken).toBe('***');
    const notified = await needsAttention(o.token);
    expect(notified).toHaveLength(1);
    expect(notified[0]).toMatchObject({ subjectId: 'whatsapp-business', contactName: 'WhatsApp Business', reason: 'whatsapp_token_invalid', readAt: null });
    // The owner gets alerts by e-mail (the default): one e-mail, queued and sent by the outbound-email worker.
    const alerted = await until(async () => {
      const mails = (await mailsTo(o.email)).filter((m) => m.subject === 'WhatsApp Business needs attention');
      return mails.length > 0 ? mails : undefined;
    }, 'the needs-attention e-mail', 30_000);
    expect(alerted).toHaveLength(1);
    expect(alerted[0]!.body.text).toContain(integrationHealthReasons.whatsapp_token_invalid);
    expect(alerted[0]!.body.text).toContain('/integrations');
    for (const customer of customers) {
      const replies = (await conversationOf(o.token, customer)).filter((m) => m.fromMe);
      expect(replies).toEqual([
        expect.objectContaining({ status: 'failed', errorCode: '190', errorReason: 'whatsapp_token_invalid', error: integrationHealthReasons.whatsapp_token_invalid }),
      ]);
      // Meta's own English is not what the owner reads.
      expect(replies[0]!.error).not.toMatch(/validating access token/i);
    }

    // Saved again with the same token: still needs attention. With a new one: healthy.
    const same = await api('POST', '/api/integrations/whatsapp-business/setup', {
      token: o.token,
      body: { bearerToken: '***', appSecret: '***', phoneId: o.wa.phoneId, businessId: o.wa.businessId, phoneNumber: o.wa.phoneNumber },
    });
    expect(same.status).toBe(200);
    expect((await integration(o.token, 'whatsapp-business'))?.health).toMatchObject({ reason: 'whatsapp_token_invalid' });
    const renewed = await api('POST', '/api/integrations/whatsapp-business/setup', {
      token: o.token,
      body: { bearerToken: `EAAG${randomUUID().replace(/-/g, '')}`, appSecret: '***', phoneId: o.wa.phoneId, businessId: o.wa.businessId, phoneNumber: o.wa.phoneNumber },
    });
    expect(renewed.status).toBe(200);
    expect((await integration(o.token, 'whatsapp-business'))?.health).toBeUndefined();
    expect(await needsAttention(o.token)).toHaveLength(1);
  });

  it('a later send with the same token that works clears the flag by itself', async () => {
    const o = await owner();
    const fault = `health-once-${randomUUID().slice(0, 8)}`;
    await armFault('whatsapp', { id: fault, kind: 'status', code: 190, times: 1, match: { method: 'POST', path: `/${o.wa.phoneId}/messages` } });
    try {
      await customerWrites(o, waCustomer('Dani'), 'hola');
      expect((await integration(o.token, 'whatsapp-business'))?.health).toMatchObject({ reason: 'whatsapp_token_invalid' });

      await customerWrites(o, waCustomer('Eva'), 'hola otra vez');
    } finally {
      await clearFault('whatsapp', fault).catch(() => 0);
    }

    expect((await graphSends(o.wa.phoneId)).filter((s) => s.status === 200)).toHaveLength(1);
    expect((await integration(o.token, 'whatsapp-business'))?.health).toBeUndefined();
  });
});

describe('ChatGPT: OpenAI refuses the key (401)', () => {
  it('a customer’s message the agent could not answer flags the ChatGPT integration once; testing the stored key once it works clears it', async () => {
    const o = await owner();
    const fault = `health-401-${randomUUID().slice(0, 8)}`;
    await armFault('openai', { id: fault, kind: 'status', status: 401, code: 'invalid_api_key', match: { key: o.key } });
    try {
      // What becomes of the unanswered messages is item 3's ("no answer sent"); here, the key's health.
      await customerWrites(o, waCustomer('Fede'), '¿Tenéis cita mañana?', false);
      await customerWrites(o, waCustomer('Gala'), '¿Y el lunes?', false);
      await until(async () => (await integration(o.token, 'chatgpt'))?.health, 'the ChatGPT integration flagged', 30_000);
      expect(await integration(o.token, 'chatgpt')).toMatchObject({ health: { status: 'needs_attention', reason: 'openai_key_invalid', code: 'invalid_api_key' } });
      expect((await integration(o.token, 'chatgpt'))!.credentials.apiKey).toBe('***');
      expect(await integration(o.token, 'whatsapp-business')).not.toHaveProperty('health');
      expect((await needsAttention(o.token)).map((n) => [n.subjectId, n.reason])).toEqual([['chatgpt', 'openai_key_invalid']]);

      // Testing the stored key while OpenAI still refuses it: the flag stays, no second notification.
      expect((await api('POST', '/api/integrations/chatgpt/test', { token: o.token, body: {} })).status).toBe(400);
    } finally {
      await clearFault('openai', fault);
    }
    expect(await needsAttention(o.token)).toHaveLength(1);

    const tested = await api('POST', '/api/integrations/chatgpt/test', { token: o.token, body: {} });
    expect(tested.status).toBe(200);
    expect(await integration(o.token, 'chatgpt')).not.toHaveProperty('health');
  });
});

describe('Twilio: the stored credentials are refused (20003)', () => {
  it('a REST call refused with 20003 flags the Twilio integration; a test that works clears it', async () => {
    const { token } = await subscribedUser('starter');
    const phoneNumber = `+1415${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const account = await fetch(`${provided('twilioApiUrl')}/_test/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ numbers: [phoneNumber], friendlyName: 'Clínica Sonrisa' }),
    }).then((r) => r.json() as Promise<{ accountSid: string; authToken: string }>);
    const setup = await api<TwilioSetupResult>('POST', '/api/integrations/twilio-voice/setup', {
      token,
      body: { accountSid: account.accountSid, authToken: account.authToken, phoneNumber },
    });
    expect(setup.body.data).toMatchObject({ numberConfigured: true });

    const fault = `health-20003-${randomUUID().slice(0, 8)}`;
    await armFault('twilio', { id: fault, kind: 'status', status: 401, code: 20003, match: { key: account.accountSid } });
    try {
      const refused = await api('POST', '/api/integrations/twilio-voice/test', { token, body: {} });
      expect(refused.status).toBe(400);
    } finally {
      await clearFault('twilio', fault);
    }
    const flagged = await integration(token, 'twilio-voice');
    expect(flagged).toMatchObject({ health: { status: 'needs_attention', reason: 'twilio_credentials_invalid', code: '20003' } });
    expect(flagged!.credentials.authToken).toBe('***');
    expect((await needsAttention(token)).map((n) => n.subjectId)).toEqual(['twilio-voice']);

    expect((await api('POST', '/api/integrations/twilio-voice/test', { token, body: {} })).status).toBe(200);
    expect(await integration(token, 'twilio-voice')).not.toHaveProperty('health');
  });
});
