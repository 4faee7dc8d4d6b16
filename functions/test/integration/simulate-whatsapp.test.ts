/**
 * `npm run simulate:whatsapp` (functions/scripts/simulate-whatsapp.ts) against the test stack: the
 * script's own entry point registers the media with the fake Graph API and the transcript with the
 * fake OpenAI, signs the delivery with the integration's app secret and posts it to the webhook;
 * the worker fetches, transcribes and lets the agent answer, and the script prints the reply. The
 * integration is found in the table by its business number (one test; a scan of the whole test
 * table, slow) or by its id (the others: a Query); the stack is read from its state file
 * and the app secret opened with its key as after `npm start`, or both given (--app-secret).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readState } from '../../local/state.js';
import { localTarget, main, simulateWhatsApp, SimulateError, type LocalTarget } from '../../scripts/simulate-whatsapp.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, provided } from '../support/api.js';
import { paidUser } from '../support/billing.js';
import { spanishWaId } from '../support/conversations.js';
import { syntheticVoiceNote } from '../support/media-fakes.js';
import { connectWhatsApp, graphSends, type ConnectedWhatsApp } from '../support/whatsapp.js';

const target = (): LocalTarget => ({
  apiUrl: provided('apiUrl'),
  mailboxUrl: provided('mailboxUrl'),
  dynamodb: provided('dynamoEndpoint'),
  tableName: provided('tableName'),
  graphUrl: provided('whatsappGraphUrl'),
  openaiUrl: provided('openaiUrl'),
});

/** The test stack's data folder (functions/.test-data/<id>): the one whose state file names this gateway. */
function stackDataDir(): string {
  const root = path.join(import.meta.dirname, '..', '..', '.test-data');
  const found = readdirSync(root).find((d) => readState(path.join(root, d))?.apiUrl === provided('apiUrl'));
  if (!found) throw new Error(`no state file in ${root} names ${provided('apiUrl')}`);
  return path.join(root, found);
}

interface Clinic {
  token: string;
  key: string;
  wa: ConnectedWhatsApp;
}

/** A paid account with ChatGPT (its own fake OpenAI key), an answering agent and WhatsApp connected. */
async function clinic(): Promise<Clinic> {
  const { token } = await paidUser({ plan: 'enterprise' });
  const key = `sk-simulate-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup: ${chatgpt.status} ${chatgpt.body.message}`);
  await createAnsweringAgent(token, 'Sonia');
  return { token, key, wa: await connectWhatsApp(token) };
}

async function openaiRequests(key: string): Promise<{ path: string; body: unknown }[]> {
  const res = await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(key)}`);
  return ((await res.json()) as { requests: { path: string; body: unknown }[] }).requests;
}

let dir: string;
let voiceFile: string;
let a: Clinic;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'simulate-whatsapp-'));
  voiceFile = path.join(dir, 'nota.ogg');
  writeFileSync(voiceFile, syntheticVoiceNote({ seconds: 12 }));
  a = await clinic();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run simulate:whatsapp', () => {
  it("sends a Spanish voice note to the local agent: transcribed once, answered, the reply printed", async () => {
    const from = spanishWaId();
    const transcript = 'Quería pedir cita con la Dra. Pérez para una limpieza, ¿tenéis hueco el jueves?';
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    let code: number;
    let printed: string;
    try {
      code = await main(['--voice', voiceFile, '--transcript', transcript, '--from', `+${from}`, '--to', a.wa.phoneNumber, '--app-secret', a.wa.appSecret], target());
    } finally {
      printed = log.mock.calls.map((c) => String(c[0])).join('\n');
      log.mockRestore();
    }
    expect(code, printed).toBe(0);

    const calls = await openaiRequests(a.key);
    expect(calls.filter((c) => c.path.includes('/audio/transcriptions'))).toHaveLength(1);
    // The agent read the transcript as the customer's message.
    const chat = calls.filter((c) => c.path.includes('/chat/completions')).at(-1);
    expect(JSON.stringify(chat?.body)).toContain(JSON.stringify(transcript).slice(1, -1));
    // The reply went to the customer's number, and the script printed it.
    const replies = (await graphSends(a.wa.phoneId)).filter((s) => s.to === from && s.status === 200);
    expect(replies.length).toBeGreaterThan(0);
    expect(printed).toContain(`Agent → ${from}:`);
    // The owner sees the voice note with its transcript.
    const listed = await api<{ media?: { transcript?: { text: string } } }[]>('GET', '/api/messages?limit=50', { token: a.token });
    expect(JSON.stringify(listed.body.data)).toContain(JSON.stringify(transcript).slice(1, -1));
  });

  it("as after npm start: the stack read from its state file, the app secret opened with the stack's key", async () => {
    const from = spanishWaId();
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    let code: number;
    try {
      code = await main(['--text', 'Hola, ¿abrís el sábado por la mañana?', '--from', from, '--integration', a.wa.integrationId], localTarget(stackDataDir()));
    } finally {
      log.mockRestore();
    }
    expect(code).toBe(0);
    expect((await graphSends(a.wa.phoneId)).some((s) => s.to === from && s.status === 200)).toBe(true);
  });

  it('sends a photo with a caption: the model gets it as an image input and says what it sees', async () => {
    const photo = path.join(dir, 'muela.png');
    writeFileSync(photo, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(2048)]));
    const from = spanishWaId();
    const result = await simulateWhatsApp(
      ['--image', photo, '--caption', '¿Esto es normal?', '--sees', 'una muela con una mancha oscura', '--from', from, '--integration', a.wa.integrationId, '--app-secret', a.wa.appSecret],
      target(),
    );
    const chat = (await openaiRequests(a.key)).filter((c) => c.path.includes('/chat/completions')).at(-1);
    expect(JSON.stringify(chat?.body)).toContain('data:image/png;base64,');
    expect(result.replies.map((r) => r.text).join(' ')).toContain('una muela con una mancha oscura');
  });

  it('sends a document whose text the agent reads', async () => {
    const file = path.join(dir, 'presupuesto.txt');
    writeFileSync(file, 'Presupuesto de la Clínica Sonrisa\nOrtodoncia invisible: 3.200 €\nLimpieza dental: 45 €\n');
    const from = spanishWaId();
    const result = await simulateWhatsApp(['--document', file, '--caption', '¿Me explicáis esto?', '--from', from, '--integration', a.wa.integrationId, '--app-secret', a.wa.appSecret], target());
    expect(result.replies.length).toBeGreaterThan(0);
    const chat = (await openaiRequests(a.key)).filter((c) => c.path.includes('/chat/completions')).at(-1);
    expect(JSON.stringify(chat?.body)).toContain('Ortodoncia invisible: 3.200');
  });

  it('sends a location the agent reads', async () => {
    const from = spanishWaId();
    const result = await simulateWhatsApp(
      ['--location', '40.4168,-3.7038', '--location-name', 'Puerta del Sol', '--address', 'Plaza de la Puerta del Sol, Madrid', '--from', from, '--integration', a.wa.integrationId, '--app-secret', a.wa.appSecret],
      target(),
    );
    expect(result.replies.length).toBeGreaterThan(0);
    const chat = (await openaiRequests(a.key)).filter((c) => c.path.includes('/chat/completions')).at(-1);
    expect(JSON.stringify(chat?.body)).toContain('Puerta del Sol');
  });

  it('a wrong app secret is refused by the webhook: a clear message, nothing queued', async () => {
    const before = (await openaiRequests(a.key)).length;
    await expect(
      simulateWhatsApp(['--text', 'Hola', '--integration', a.wa.integrationId, '--app-secret', 'not-the-secret', '--no-wait'], target()),
    ).rejects.toThrow(/signature/);
    expect(await openaiRequests(a.key)).toHaveLength(before);
  });

  it('several numbers connected: asks which one; one message per run; a number with its country code', async () => {
    const other = await clinic();
    const error = await simulateWhatsApp(['--text', 'Hola', '--app-secret', 'x'], target()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SimulateError);
    expect((error as Error).message).toMatch(/--to <number>/);
    expect((error as Error).message).toContain(other.wa.phoneNumber);
    await expect(simulateWhatsApp(['--text', 'Hola', '--location', '1,2', '--integration', a.wa.integrationId], target())).rejects.toThrow(/exactly one message/);
    await expect(simulateWhatsApp(['--text', 'Hola', '--from', '600', '--integration', a.wa.integrationId], target())).rejects.toThrow(/country code/);
    await expect(simulateWhatsApp(['--voice', path.join(dir, 'missing.ogg'), '--integration', a.wa.integrationId, '--app-secret', 'x'], target())).rejects.toThrow(/Cannot read/);
  });
});
