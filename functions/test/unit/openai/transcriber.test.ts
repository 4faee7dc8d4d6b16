/**
 * Transcription (issue 31): the fetch model's transcribe() (adapters/openai/transcriber.ts) against
 * the fake OpenAI, with the `openai` SDK's audio.transcriptions.create as the oracle of OpenAI's
 * request: both send the same multipart fields and file to the same path; the answers of whisper-1
 * (verbose_json: language name and duration) and of gpt-4o-mini-transcribe (json: text and usage)
 * are read; the fake's checks (not audio, a format a model does not take) and its faults (429,
 * 500, a hang) become the chat adapter's ModelError kinds.
 */
import { createHash } from 'node:crypto';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranscribingOpenAiModel, languageCode, transcriptionFormat } from '../../../src/adapters/openai/transcriber.js';
import { createGuard } from '../../../src/adapters/outbound/guarded-fetch.js';
import { ModelError } from '../../../src/domain/ai/ports.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../local/fake-openai/server.js';
import { syntheticVoiceNote } from '../../support/media-fakes.js';

let fake: FakeOpenAi;
let guard: ReturnType<typeof createGuard>;
let keySeq = 0;
const newKey = () => `sk-transcribe-${Date.now()}-${keySeq++}`;
const voice = syntheticVoiceNote({ seconds: 7 });
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function control(path: string, body: unknown) {
  const res = await fetch(`${fake.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

const model = (key: string) => new TranscribingOpenAiModel({ apiKey: key, baseUrl: fake.baseUrl, guard: guard.stream, retryDelayMs: 5 });
const request = { bytes: voice, mimeType: 'audio/ogg', fileName: 'voice.ogg', language: 'es', prompt: 'Clínica Sonrisa, Dra. Pérez, ortodoncia invisible' };

beforeAll(async () => {
  fake = await startFakeOpenAi();
  guard = createGuard({ allowHosts: [`127.0.0.1:${fake.port}`] });
  await control('/_test/transcripts', { sha256: sha(voice), text: 'Quería pedir cita con la Dra. Pérez', language: 'es' });
});
afterAll(() => fake.close());

describe('transcription wire', () => {
  it('sends what the SDK sends for the same transcription (path, fields, file), and reads json and verbose_json', async () => {
    const sdkKey = newKey();
    const sdk = new OpenAI({ apiKey: sdkKey, baseURL: fake.baseUrl, maxRetries: 0 });
    const bySdk = await sdk.audio.transcriptions.create({
      file: await toFile(voice, 'voice.ogg', { type: 'audio/ogg' }),
      model: 'gpt-4o-mini-transcribe',
      language: 'es',
      prompt: request.prompt,
      response_format: 'json',
    });
    const oursKey = newKey();
    const ours = await model(oursKey).transcribe(request, 'gpt-4o-mini-transcribe');
    expect(ours.text).toBe(bySdk.text);
    expect(ours).toEqual({ text: 'Quería pedir cita con la Dra. Pérez', language: 'es', durationSeconds: 0 });
    const recorded = (key: string) => fake.requests.find((r) => r.key === key)!;
    expect(recorded(oursKey).path).toBe('/v1/audio/transcriptions');
    expect(recorded(oursKey).body).toEqual(recorded(sdkKey).body);
    expect(recorded(oursKey).body).toMatchObject({ model: 'gpt-4o-mini-transcribe', language: 'es', prompt: request.prompt, response_format: 'json', file: { name: 'voice.ogg', type: 'audio/ogg', size: voice.length, sha256: sha(voice) } });

    // whisper-1: verbose_json with the language heard (an English name) and the duration (the Ogg's 7 s).
    const whisper = await model(newKey()).transcribe({ ...request, language: undefined }, 'whisper-1');
    expect(whisper).toEqual({ text: 'Quería pedir cita con la Dra. Pérez', language: 'es', durationSeconds: 7 });
    expect(transcriptionFormat('whisper-1')).toBe('verbose_json');
    expect(transcriptionFormat('gpt-4o-transcribe')).toBe('json');
    expect([languageCode('spanish'), languageCode('es'), languageCode('pt-BR'), languageCode('klingon')]).toEqual(['es', 'es', 'pt', undefined]);
  });

  it('an unregistered audio gets the default transcript, in the hint language', async () => {
    const other = syntheticVoiceNote({ seconds: 2 });
    expect(await model(newKey()).transcribe({ ...request, bytes: other, language: 'en' }, 'gpt-4o-transcribe')).toMatchObject({ text: 'Hola, quería hacer una consulta.', language: 'en' });
  });

  it('the fake refuses what OpenAI refuses: not audio, a format the model does not take (bad_request)', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4 not audio at all');
    await expect(model(newKey()).transcribe({ ...request, bytes: pdf }, 'gpt-4o-mini-transcribe')).rejects.toMatchObject({ name: 'ModelError', kind: 'bad_request', status: 400 });
    await expect(model(newKey()).transcribe({ ...request, fileName: 'voice.amr' }, 'gpt-4o-mini-transcribe')).rejects.toMatchObject({ kind: 'bad_request' });
    const sdk = new OpenAI({ apiKey: newKey(), baseURL: fake.baseUrl, maxRetries: 0 });
    await expect(sdk.audio.transcriptions.create({ file: await toFile(voice, 'voice.ogg'), model: 'gpt-4o-mini-transcribe', response_format: 'verbose_json' })).rejects.toMatchObject({ status: 400 });
  });

  it("faults become the chat adapter's ModelError kinds: 429 rate_limit, 500 unavailable (after one retry), a hang a timeout", async () => {
    const key = newKey();
    const fault = async (spec: object) => {
      const res = await fetch(`${fake.url}/_test/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ match: { key, path: '/v1/audio/transcriptions' }, ...spec }) });
      expect(res.status).toBeLessThan(300);
    };
    await fault({ kind: 'status', status: 429, times: 1 });
    await expect(model(key).transcribe(request, 'gpt-4o-mini-transcribe')).rejects.toMatchObject({ kind: 'rate_limit', status: 429 });
    await fault({ kind: 'status', status: 500, times: 2 });
    await expect(model(key).transcribe(request, 'gpt-4o-mini-transcribe')).rejects.toMatchObject({ kind: 'unavailable', status: 500 });
    await fault({ kind: 'hang', times: 1 });
    const error = await model(key).transcribe({ ...request, timeoutMs: 300 }, 'gpt-4o-mini-transcribe').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'timeout' });
    await fetch(`${fake.url}/_test/faults`, { method: 'DELETE' });
  });
});
