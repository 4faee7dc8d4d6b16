/**
 * The local runtime's WebSocket API and the call simulator's ConversationRelay mode against the
 * real app: the gateway serves the manifest's voice-relay function at /_ws/voice-relay (the
 * handlers' VOICE_RELAY_URL) with its connection-posting API next to it, and a streamed call
 * played through the fake Twilio's POST /_test/calls goes incoming webhook → <Connect>
 * → signed WebSocket → prompts answered with streamed tokens → status callback.
 */
import { randomUUID } from 'node:crypto';
import { ApiGatewayManagementApiClient, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { VOICE_DEFAULTS, type TwilioSetupResult, type VoiceSettings } from '../../src/contract/voice.js';
import type { SimulatedCall } from '../../local/fake-twilio/call-simulator.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, provided } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { callRepo, callerNumber } from '../support/seed-calls.js';
import { randomDigits } from '../support/whatsapp.js';

const relayUrl = () => `${provided('apiUrl').replace(/^http/, 'ws')}/_ws/voice-relay`;

async function control(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A subscribed user with ChatGPT (its own fake OpenAI key), an agent, the Twilio integration and streamed calls. */
async function streamingUser(settings: Partial<VoiceSettings> = {}) {
  const { token, userId } = await subscribedUser('starter');
  const key = `sk-test-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status}`);
  await createAnsweringAgent(token);
  const number = `+3491${randomDigits(7)}`;
  const account = (await control(provided('twilioApiUrl'), '/_test/accounts', { numbers: [number] })) as { accountSid: string; authToken: string };
  const setup = await api<TwilioSetupResult>('POST', '/api/integrations/twilio-voice/setup', {
    token,
    body: { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number },
  });
  if (setup.status !== 200) throw new Error(`Twilio setup failed: ${setup.status}`);
  const put = await api('PUT', '/api/voice-settings', { token, body: { ...VOICE_DEFAULTS, conversationMode: 'streaming', ...settings } });
  if (put.status !== 200) throw new Error(`voice settings failed: ${put.status} ${put.body.message}`);
  return { token, userId, key, number };
}

/** The status a handshake answered: 101 when accepted. */
function handshake(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.on('error', () => resolve(0));
  });
}

describe('local WebSocket API (voice-relay)', () => {
  it('serves the voice-relay function at the handlers\' VOICE_RELAY_URL: a handshake without a valid Twilio signature is refused', async () => {
    const url = `${relayUrl()}?user=${randomUUID()}&call=${randomUUID()}`;

    expect(await handshake(url)).toBe(403);
    expect(await handshake(url, { 'X-Twilio-Signature': 'Zm9yZ2Vk' })).toBe(403);
  });

  it('serves the connection-posting API next to it: posting to a connection that does not exist is GoneException (410)', async () => {
    const client = new ApiGatewayManagementApiClient({ endpoint: relayUrl().replace(/^ws/, 'http'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

    const error = await client.send(new PostToConnectionCommand({ ConnectionId: 'Tm9Db25uZWN0aW9uPQ==', Data: '{}' })).catch((e: unknown) => e);

    expect((error as Error).name).toBe('GoneException');
    expect((error as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode).toBe(410);
  });
});

describe('call simulator: a streamed call through the fake Twilio', () => {
  it('plays ConversationRelay against the app: answers stream back as tokens after the model\'s first token, a barge-in stops the answer, and the call ends with the status callback', async () => {
    const u = await streamingUser();
    await control(provided('openaiUrl'), '/_test/stream-delays', { key: u.key, firstTokenMs: 150, tokenMs: 40 });

    const call = (await control(provided('twilioApiUrl'), '/_test/calls', {
      to: u.number,
      from: callerNumber(),
      turns: [
        { speech: '¿A qué hora abrís el sábado?', confidence: 0.92 },
        { speech: 'Cuéntame, por favor, los horarios, los precios, las ofertas, las reservas y todo lo demás', confidence: 0.9, interruptAfterTokens: 1 },
        { speech: 'Gracias', confidence: 0.9 },
      ],
    })) as unknown as SimulatedCall;

    expect(call.events[0]).toMatchObject({ verb: 'Connect/ConversationRelay', text: expect.stringContaining(`${relayUrl()}?user=${encodeURIComponent(u.userId)}&call=`) });
    const [session] = call.relaySessions;
    expect(session).toMatchObject({ handshakeStatus: 101, status: 'completed', turnsUsed: 3 });
    const [first, interrupted, last] = session!.turns;
    for (const turn of [first!, last!]) {
      expect(turn).toMatchObject({ interrupted: false, timedOut: false });
      expect(turn.tokens).toBeGreaterThan(0);
      expect(turn.firstTokenMs).toBeGreaterThanOrEqual(150);
      expect(turn.lastTokenMs).toBeGreaterThanOrEqual(turn.firstTokenMs!);
    }
    expect(first!.heard).toContain('sábado');
    expect(interrupted).toMatchObject({ interrupted: true, tokens: 1, timedOut: false });
    // The app stops within one token batch of the interrupt.
    expect(interrupted!.tokensAfterInterrupt).toBeLessThanOrEqual(1);
    expect(call.ended).toBe('caller');
    expect(call.requests.map((r) => [r.kind, r.status])).toEqual([
      ['voice', 200],
      ['connect-action', 200],
      ['status', 200],
    ]);

    const stored = await callRepo().getBySid(u.userId, call.callSid);
    expect(stored?.conversationMode).toBe('streaming');
    expect(stored!.messages.map((m) => [m.role, m.content])).toEqual([
      ['agent', VOICE_DEFAULTS.messageWelcome],
      ['user', '¿A qué hora abrís el sábado?'],
      ['agent', first!.heard],
      ['user', 'Cuéntame, por favor, los horarios, los precios, las ofertas, las reservas y todo lo demás'],
      ['agent', interrupted!.heard],
      ['user', 'Gracias'],
      ['agent', last!.heard],
    ]);
    expect(stored!.messages[4]).toMatchObject({ interrupted: true });
    expect(stored!.latency?.turns).toBe(3);
    // A user set up from scratch plus a three-turn call; the machine is shared.
  }, 60_000);
});
