/**
 * What the agent understands of a customer's media (issue 31): Ogg duration and cut (ogg.ts),
 * audio magic bytes (audio.ts), the texts the agent reads (agent-text.ts), and understand.ts over
 * in-memory ports: the plan's minutes reserved before a transcription and given back when it
 * fails, the cap of 10 minutes, provider failures retried then stored, documents read with the
 * real extractors, photos read from our copy as image inputs only for the message answered.
 */
import { describe, expect, it } from 'vitest';
import { extractFileText } from '../../../src/adapters/extract/index.js';
import { MEDIA_AGENT_NOTES, MEDIA_LIMITS } from '../../../src/contract/whatsapp-media.js';
import { ModelError, type AiConnector, type TranscriptionRequest } from '../../../src/domain/ai/ports.js';
import type { StoredMessage, StoredMessageMedia } from '../../../src/domain/conversations/ports.js';
import { LimitExceededError } from '../../../src/domain/errors.js';
import { TransientError } from '../../../src/domain/retry.js';
import { agentText } from '../../../src/domain/whatsapp/media/agent-text.js';
import { audioSeconds, sniffAudio } from '../../../src/domain/whatsapp/media/audio.js';
import { cutOgg, oggCrc, oggPages, readOgg } from '../../../src/domain/whatsapp/media/ogg.js';
import { createMediaUnderstanding, transcriptionNames, transcriptionPrompt, type MediaUnderstandingDeps } from '../../../src/domain/whatsapp/media/understand.js';
import { syntheticVoiceNote } from '../../support/media-fakes.js';
import { docxZipBomb } from '../../support/zip.js';

const ascii = (text: string) => new TextEncoder().encode(text);

function wav(seconds: number, rate = 8000): Uint8Array {
  const data = rate * 2 * seconds;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(data, 40);
  return b;
}

describe('ogg.ts', () => {
  it('reads a voice note’s duration from its last page’s granule position (pre-skip left out), from page headers only', () => {
    const note = syntheticVoiceNote({ seconds: 7 });
    expect(readOgg(note)).toMatchObject({ codec: 'opus', preSkip: 312, durationSeconds: 7 });
    expect(readOgg(syntheticVoiceNote({ seconds: 95.5 }))?.durationSeconds).toBeCloseTo(95.5, 5);
    // A download cut mid-page keeps the whole pages before it.
    const cutShort = note.subarray(0, note.length - 10);
    expect(readOgg(cutShort)!.durationSeconds).toBeLessThan(7);
    expect(readOgg(cutShort)!.durationSeconds).toBeGreaterThan(5);
    expect(readOgg(ascii('%PDF-1.7'))).toBeNull();
  });

  it('cuts past the cap at a page boundary: whole pages (CRCs intact), its duration within one page of the cap, no copy', () => {
    const long = syntheticVoiceNote({ seconds: 11 * 60 });
    const cut = cutOgg(long, 600)!;
    expect(cut.durationSeconds).toBeLessThanOrEqual(600);
    expect(cut.durationSeconds).toBeGreaterThan(599);
    expect(readOgg(cut.bytes)!.durationSeconds).toBe(cut.durationSeconds);
    const pages = oggPages(cut.bytes);
    expect(pages.reduce((n, p) => n + p.length, 0)).toBe(cut.bytes.length);
    const last = new Uint8Array(cut.bytes.subarray(pages.at(-1)!.offset));
    const stored = new DataView(last.buffer, last.byteOffset).getUint32(22, true);
    last.fill(0, 22, 26);
    expect(oggCrc(last)).toBe(stored);
    // A view of the voice note's bytes (one copy in memory), which stay as they were; a short note is not cut.
    expect(cut.bytes.buffer).toBe(long.buffer);
    expect(readOgg(long)!.durationSeconds).toBe(660);
    expect(cutOgg(syntheticVoiceNote({ seconds: 30 }), 600)).toBeNull();
  });
});

describe('audio.ts', () => {
  it('knows audio by its magic bytes, and nothing else', () => {
    expect(sniffAudio(syntheticVoiceNote({ seconds: 1 }))).toBe('ogg');
    expect(sniffAudio(ascii('ID3\x04\x00\x00\x00\x00\x00\x00'))).toBe('mp3');
    expect(sniffAudio(new Uint8Array([0xff, 0xfb, 0x90, 0x00]))).toBe('mp3');
    expect(sniffAudio(new Uint8Array([0xff, 0xf1, 0x50, 0x80]))).toBe('aac');
    expect(sniffAudio(ascii('\x00\x00\x00\x20ftypM4A '))).toBe('mp4');
    expect(sniffAudio(ascii('#!AMR\n\x3c'))).toBe('amr');
    expect(sniffAudio(wav(1))).toBe('wav');
    expect(sniffAudio(ascii('%PDF-1.7 a prescription'))).toBeNull();
    expect(sniffAudio(ascii('MZ\x90\x00'))).toBeNull();
    expect(sniffAudio(new Uint8Array())).toBeNull();
  });

  it('reads WAV and AMR durations exactly', () => {
    expect(audioSeconds(wav(3), 'wav')).toBe(3);
    // AMR-NB 12.2 kbit/s: frame header 0x3c, 31 bytes of speech; 50 frames = 1 s.
    const amr = Buffer.concat([Buffer.from('#!AMR\n', 'latin1'), ...Array.from({ length: 50 }, () => Buffer.concat([Buffer.from([0x3c]), Buffer.alloc(31)]))]);
    expect(audioSeconds(amr, 'amr')).toBeCloseTo(1, 5);
  });
});

const base: StoredMessage = {
  id: 'C1-01JMESSAGE0000000000000001',
  conversationId: 'C1',
  waMessageId: 'wamid.1',
  contactId: 'ct1',
  type: 'chat',
  hasMedia: false,
  fromMe: false,
  from: '+34600111222',
  to: '+34910000000',
  phoneNumberId: { id: 'p1', name: 'Clínica' },
  status: 'delivered',
  timestamp: '2026-11-28T10:00:00.000Z',
  body: '',
  createdAt: '2026-11-28T10:00:00.000Z',
};
const mediaMessage = (type: StoredMessage['type'], media: StoredMessageMedia, body = ''): StoredMessage => ({ ...base, type, hasMedia: true, body, media });

describe('agent-text.ts: what the agent reads', () => {
  it('a transcript as the customer’s words; cut ones with the note; failures as notes', () => {
    const transcript = { text: 'Quería pedir cita con la Dra. Pérez', language: 'es', durationSeconds: 7 };
    expect(agentText(mediaMessage('ptt', { state: 'stored', transcript }))).toBe('Quería pedir cita con la Dra. Pérez');
    expect(agentText(mediaMessage('ptt', { state: 'stored', transcript: { ...transcript, truncated: true } }))).toBe(`Quería pedir cita con la Dra. Pérez\n\n[${MEDIA_AGENT_NOTES.voiceTruncated}]`);
    expect(agentText(mediaMessage('audio', { state: 'failed', failure: 'transcription_failed' }))).toBe(`[${MEDIA_AGENT_NOTES.voiceUnheard}]`);
    expect(agentText(mediaMessage('image', { state: 'failed', failure: 'too_large' }, 'mira'))).toBe(`[${MEDIA_AGENT_NOTES.imageUnseen}]\nmira`);
    expect(agentText(mediaMessage('image', { state: 'stored' }, 'la receta'))).toBe('[The customer sent a photo]\nla receta');
    expect(agentText(mediaMessage('video', { state: 'stored' }))).toBe(`[${MEDIA_AGENT_NOTES.video}]`);
    expect(agentText(mediaMessage('sticker', { state: 'stored' }))).toBe(`[${MEDIA_AGENT_NOTES.sticker}]`);
    expect(agentText(mediaMessage('document', { state: 'failed', failure: 'document_too_large', filename: 'x.pdf' }))).toBe(`[${MEDIA_AGENT_NOTES.documentTooLarge}]`);
    expect(agentText(mediaMessage('document', { state: 'failed', failure: 'unreadable', filename: 'x.pdf' }))).toBe(`[${MEDIA_AGENT_NOTES.documentUnread}]`);
  });

  it('a document’s text (the preview in the history), a location, contact cards; messages before issue 31 as before', () => {
    const doc = mediaMessage('document', { state: 'stored', filename: 'presupuesto.pdf', textPreview: 'Implante: 900 €' }, 'mi presupuesto');
    expect(agentText(doc)).toBe('mi presupuesto\n\n[The customer sent the document presupuesto.pdf:]\nImplante: 900 €');
    expect(agentText(doc, 'Implante: 900 €\nCorona: 400 €')).toContain('Corona: 400 €');
    expect(agentText({ ...base, type: 'location', location: { latitude: 40.4168, longitude: -3.7038, name: 'Clínica Sonrisa', address: 'Calle Mayor 1, Madrid' } })).toBe(
      '[The customer shared a location: Clínica Sonrisa, Calle Mayor 1, Madrid (40.4168, -3.7038)]',
    );
    expect(agentText({ ...base, type: 'location', location: { latitude: 41.39, longitude: 2.17 } })).toBe('[The customer shared a location: 41.39, 2.17]');
    expect(agentText({ ...base, type: 'contacts', contactCards: [{ name: 'María López', phones: ['+34 612 345 678'] }] })).toBe('[The customer shared a contact card: María López: +34 612 345 678]');
    expect(agentText(mediaMessage('ptt', { id: 'm1' }))).toBe('[The customer sent a voice message]');
    expect(agentText(mediaMessage('image', { id: 'm1' }, 'the part'))).toBe('[image] the part');
    expect(agentText({ ...base, body: 'hola' })).toBe('hola');
  });
});

// ---------------------------------------------------------------------------------------------
// understand.ts

interface Harness {
  deps: MediaUnderstandingDeps;
  calls: TranscriptionRequest[];
  usage: Array<[string, number]>;
  objects: Map<string, Uint8Array>;
}

function harness(options: { transcribe?: (r: TranscriptionRequest) => Promise<{ text: string; language: string; durationSeconds: number }>; minutesLeft?: number; connected?: boolean } = {}): Harness {
  const calls: TranscriptionRequest[] = [];
  const usage: Array<[string, number]> = [];
  const objects = new Map<string, Uint8Array>();
  let left = options.minutesLeft ?? 1000;
  const ai: AiConnector = {
    forUser: async () =>
      options.connected === false
        ? null
        : ({
            transcriber: {
              transcribe: async (r: TranscriptionRequest) => {
                calls.push(r);
                return options.transcribe ? options.transcribe(r) : { text: 'Quería pedir cita con la Dra. Pérez', language: 'es', durationSeconds: 0 };
              },
            },
          } as never),
  };
  return {
    calls,
    usage,
    objects,
    deps: {
      ai,
      objects: { get: async (key) => objects.get(key) ?? null },
      documents: extractFileText,
      usage: {
        reserve: async (_u, _a, n = 1) => {
          if (n > left) throw new LimitExceededError('Plan minutes used up');
          left -= n;
          usage.push(['reserve', n]);
          return n;
        },
        release: async (_u, _a, n = 1) => {
          left += n;
          usage.push(['release', n]);
        },
      },
    },
  };
}

const voiceInput = (bytes: Uint8Array, extra: Partial<Parameters<ReturnType<typeof createMediaUnderstanding>['understand']>[0]> = {}) => ({
  userId: 'u1',
  message: mediaMessage('ptt', { id: 'm1', mimeType: 'audio/ogg; codecs=opus', state: 'stored', storedKey: 'whatsapp-media/u1/C1/m1', size: bytes.length }),
  bytes,
  language: 'es-ES',
  names: ['Clínica Sonrisa', 'Dra. Pérez', 'ortodoncia invisible', 'Dra. Pérez'],
  finalAttempt: false,
  ...extra,
});

describe('understand.ts: voice notes', () => {
  it('transcribes with the language hint and the business’s names, reserving the plan’s minutes first', async () => {
    const h = harness();
    const note = syntheticVoiceNote({ seconds: 75 });
    const stored = await createMediaUnderstanding(h.deps).understand(voiceInput(note));
    expect(stored).toEqual({ transcript: { text: 'Quería pedir cita con la Dra. Pérez', language: 'es', durationSeconds: 75 } });
    expect(h.usage).toEqual([['reserve', 2]]);
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]).toMatchObject({ language: 'es', prompt: 'Clínica Sonrisa, Dra. Pérez, ortodoncia invisible', mimeType: 'audio/ogg', fileName: expect.stringMatching(/\.ogg$/) });
    expect(Buffer.compare(Buffer.from(h.calls[0]!.bytes), note)).toBe(0);
    // Understood already (a redelivery or a retried job): no second call.
    const again = await createMediaUnderstanding(h.deps).understand({ ...voiceInput(note), message: mediaMessage('ptt', { state: 'stored', transcript: stored.transcript! }) });
    expect(again).toEqual({});
    expect(h.calls).toHaveLength(1);
  });

  it('past 10 minutes only the first 10 are sent (cut at a page), charged and marked truncated', async () => {
    const h = harness();
    const stored = await createMediaUnderstanding(h.deps).understand(voiceInput(syntheticVoiceNote({ seconds: 14 * 60 })));
    expect(stored.transcript).toMatchObject({ durationSeconds: 840, truncated: true });
    expect(readOgg(h.calls[0]!.bytes)!.durationSeconds).toBeLessThanOrEqual(MEDIA_LIMITS.transcriptionMaxSeconds);
    expect(h.usage).toEqual([['reserve', 10]]);
  });

  it('an "audio" that is not audio is unreadable: no minutes, no call', async () => {
    const h = harness();
    expect(await createMediaUnderstanding(h.deps).understand(voiceInput(ascii('%PDF-1.7 not a voice note')))).toEqual({ state: 'failed', failure: 'unreadable' });
    expect(h.calls).toHaveLength(0);
    expect(h.usage).toEqual([]);
  });

  it('the plan’s minutes used up: minutes_limit, not transcribed', async () => {
    const h = harness({ minutesLeft: 1 });
    expect(await createMediaUnderstanding(h.deps).understand(voiceInput(syntheticVoiceNote({ seconds: 90 })))).toEqual({ state: 'failed', failure: 'minutes_limit' });
    expect(h.calls).toHaveLength(0);
  });

  it('a provider failure that may pass is retried (TransientError, minutes given back), stored as transcription_failed on the last try', async () => {
    const h = harness({ transcribe: async () => Promise.reject(new ModelError('rate_limit', 'Rate limited (429)', 20, { status: 429 })) });
    const understanding = createMediaUnderstanding(h.deps);
    const note = syntheticVoiceNote({ seconds: 20 });
    const error = await understanding.understand(voiceInput(note)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientError);
    expect(error).toMatchObject({ retryAfterSeconds: 20 });
    expect(await understanding.understand(voiceInput(note, { finalAttempt: true }))).toEqual({ state: 'failed', failure: 'transcription_failed' });
    expect(h.usage).toEqual([
      ['reserve', 1],
      ['release', 1],
      ['reserve', 1],
      ['release', 1],
    ]);
    // A timeout too; a refused key fails at once (retrying cannot help).
    const slow = harness({ transcribe: async () => Promise.reject(new ModelError('timeout', 'took too long')) });
    await expect(createMediaUnderstanding(slow.deps).understand(voiceInput(note))).rejects.toBeInstanceOf(TransientError);
    const refused = harness({ transcribe: async () => Promise.reject(new ModelError('auth', 'API key rejected (401)', undefined, { status: 401 })) });
    expect(await createMediaUnderstanding(refused.deps).understand(voiceInput(note))).toEqual({ state: 'failed', failure: 'transcription_failed' });
  });

  it('no ChatGPT connection: transcription_failed; unknown length (WAV aside): settled with the provider’s figure', async () => {
    const none = harness({ connected: false });
    expect(await createMediaUnderstanding(none.deps).understand(voiceInput(syntheticVoiceNote({ seconds: 5 })))).toEqual({ state: 'failed', failure: 'transcription_failed' });
    const webm = harness({ transcribe: async () => ({ text: 'hola', language: 'es', durationSeconds: 150 }) });
    const bytes = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]);
    const stored = await createMediaUnderstanding(webm.deps).understand(voiceInput(bytes));
    expect(stored.transcript).toMatchObject({ durationSeconds: 150 });
    expect(webm.usage).toEqual([
      ['reserve', 1],
      ['reserve', 2],
    ]);
  });

  it('the business’s names: the agent, its staff and services when it books, its files’ titles', async () => {
    const files = [{ originalName: 'tarifas_ortodoncia-invisible.pdf' }] as never;
    const bookings = { listStaff: async () => [{ name: 'Dra. Pérez' }], listServices: async () => [{ name: 'Limpieza dental' }] } as never;
    expect(await transcriptionNames('u1', { name: 'Clínica Sonrisa', bookingsEnabled: true, files }, bookings)).toEqual(['Clínica Sonrisa', 'Dra. Pérez', 'Limpieza dental', 'tarifas ortodoncia invisible']);
    expect(await transcriptionNames('u1', { name: 'Clínica Sonrisa', bookingsEnabled: false, files }, bookings)).toEqual(['Clínica Sonrisa', 'tarifas ortodoncia invisible']);
    const down = { listStaff: async () => Promise.reject(new Error('table down')), listServices: async () => [] } as never;
    expect(await transcriptionNames('u1', { name: 'Clínica Sonrisa', bookingsEnabled: true, files: [] }, down)).toEqual(['Clínica Sonrisa']);
  });

  it('prompt: whole names up to the limit, no repeats', () => {
    expect(transcriptionPrompt(undefined)).toBeUndefined();
    expect(transcriptionPrompt(['  ', 'Dra. Pérez', 'dra. pérez'])).toBe('Dra. Pérez');
    const many = transcriptionPrompt(Array.from({ length: 200 }, (_, i) => `Servicio número ${i}`))!;
    expect(many.length).toBeLessThanOrEqual(MEDIA_LIMITS.transcriptionPromptChars);
    expect(many.endsWith(',')).toBe(false);
  });
});

describe('understand.ts: documents and photos', () => {
  const docMessage = (media: StoredMessageMedia) => mediaMessage('document', { state: 'stored', storedKey: 'whatsapp-media/u1/C1/d1', mimeType: 'text/plain', filename: 'presupuesto.txt', ...media });

  it('a document is read with the extractors: preview stored, the whole text (up to the limit) for the answer, read again from our copy later', async () => {
    const h = harness();
    const text = `Presupuesto de ortodoncia invisible.\n\n${'Revisión mensual incluida. '.repeat(200)}\n\nTotal: 3.200 €`;
    const bytes = new TextEncoder().encode(text);
    h.objects.set('whatsapp-media/u1/C1/d1', bytes);
    const message = docMessage({ size: bytes.length });
    const understanding = createMediaUnderstanding(h.deps);
    const stored = await understanding.understand({ userId: 'u1', message, bytes, finalAttempt: false });
    expect(stored.textPreview).toHaveLength(MEDIA_LIMITS.documentPreviewChars);
    expect(stored.textPreview!.startsWith('Presupuesto de ortodoncia invisible.')).toBe(true);
    const answered = { ...message, media: { ...message.media!, ...stored } };
    const read = await understanding.forAgent('u1', answered, { withImage: true });
    expect(read.text).toContain('[The customer sent the document presupuesto.txt:]');
    expect(read.text).toContain('Total: 3.200 €');
    // Another worker (nothing remembered): read again from our copy.
    expect((await createMediaUnderstanding(h.deps).forAgent('u1', answered, { withImage: true })).text).toContain('Total: 3.200 €');
    // The history reads only the preview.
    expect((await understanding.forAgent('u1', answered, { withImage: false })).text).not.toContain('Total: 3.200 €');
  });

  it('too large, not what it claims, or a zip bomb: stored with the reason, never read', async () => {
    const h = harness();
    const u = createMediaUnderstanding(h.deps);
    expect(await u.understand({ userId: 'u1', message: docMessage({ size: MEDIA_LIMITS.documentReadMaxBytes + 1 }), bytes: null, finalAttempt: false })).toEqual({ state: 'failed', failure: 'document_too_large' });
    const program = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
    expect(await u.understand({ userId: 'u1', message: docMessage({ mimeType: 'application/pdf', filename: 'receta.pdf' }), bytes: program, finalAttempt: false })).toEqual({ state: 'failed', failure: 'unreadable' });
    expect(await u.understand({ userId: 'u1', message: docMessage({ mimeType: 'application/zip', filename: 'fotos.zip' }), bytes: ascii('PK\x03\x04'), finalAttempt: false })).toEqual({ state: 'failed', failure: 'unreadable' });
    const docx = { mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', filename: 'informe.docx' };
    const bomb = docxZipBomb();
    expect(await u.understand({ userId: 'u1', message: docMessage({ ...docx, size: bomb.length }), bytes: bomb, finalAttempt: false })).toEqual({ state: 'failed', failure: 'unreadable' });
    const brokenPdf = ascii('%PDF-1.7\n1 0 obj << /Length 99999999 >> stream\nxx');
    expect(await u.understand({ userId: 'u1', message: docMessage({ mimeType: 'application/pdf', filename: 'receta.pdf' }), bytes: brokenPdf, finalAttempt: false })).toEqual({ state: 'failed', failure: 'unreadable' });
  });

  it('a photo reaches the model as a data URL from our copy, only for the message answered', async () => {
    const h = harness();
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    h.objects.set('whatsapp-media/u1/C1/i1', jpeg);
    const photo = mediaMessage('image', { state: 'stored', storedKey: 'whatsapp-media/u1/C1/i1', mimeType: 'image/jpeg' }, '¿Es normal?');
    const u = createMediaUnderstanding(h.deps);
    expect(await u.forAgent('u1', photo, { withImage: true })).toEqual({ text: '[The customer sent a photo]\n¿Es normal?', imageDataUrl: `data:image/jpeg;base64,${Buffer.from(jpeg).toString('base64')}` });
    expect(await u.forAgent('u1', photo, { withImage: false })).toEqual({ text: '[The customer sent a photo]\n¿Es normal?' });
    // Our copy is gone: the agent asks for it again.
    h.objects.clear();
    expect((await u.forAgent('u1', photo, { withImage: true })).text).toBe(`[${MEDIA_AGENT_NOTES.imageUnseen}]\n¿Es normal?`);
  });
});
