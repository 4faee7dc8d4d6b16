/**
 * A customer's media fetched, checked and stored (domain/whatsapp/media/fetch.ts) through the real
 * Graph media client against the fake Graph API on loopback; our copies in an in-memory store that
 * counts and hashes as the S3 adapter does; understanding a tiny fake of the port.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../local/fake-whatsapp/server.js';
import { HttpGraphMediaClient } from '../../../src/adapters/whatsapp/graph-media.js';
import type { MessageMediaUpdate, StoredMessage } from '../../../src/domain/conversations/ports.js';
import { TransientError } from '../../../src/domain/retry.js';
import { createMediaFetcher, keepLimit, mediaKey, sha256Matches } from '../../../src/domain/whatsapp/media/fetch.js';
import { MediaIncompleteError, MediaTooLargeError, type MediaObjects, type MediaUnderstanding, type UnderstandInput } from '../../../src/domain/whatsapp/media/ports.js';

const USER = 'user-1';
const CONV = '01JAAAAAAAAAAAAAAAAAAAAAAA';
const credentials = { bearerToken: 'EAAG-good-token', businessId: '102290129340398', phoneId: '106540352242922' };
const voice = Buffer.from('OggS Quería pedir cita con la Dra. Pérez. '.repeat(5000));

let fake: FakeWhatsApp;
let graphMedia: HttpGraphMediaClient;

/** Our copies in memory, with the adapter's contract: counted and hashed as they pass, refused past maxBytes or the declared length. */
function memoryObjects() {
  const store = new Map<string, Uint8Array>();
  const objects: MediaObjects = {
    async putStream(key, body, options) {
      const limit = Math.min(options.maxBytes, options.contentLength ?? Infinity);
      const hash = createHash('sha256');
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > limit) throw new MediaTooLargeError(limit);
        hash.update(chunk);
        chunks.push(chunk);
      }
      if (options.contentLength !== undefined && size !== options.contentLength) throw new MediaIncompleteError(options.contentLength, size);
      store.set(key, Buffer.concat(chunks));
      return { size, sha256: hash.digest('hex') };
    },
    get: async (key) => store.get(key) ?? null,
    viewUrl: async (key) => `memory://${key}`,
    head: async (key) => (store.has(key) ? { size: store.get(key)!.byteLength, contentType: 'application/octet-stream' } : null),
    delete: async (key) => void store.delete(key),
  };
  return { objects, store };
}

function memoryMessages(message: StoredMessage) {
  const state = { message, writes: [] as MessageMediaUpdate[] };
  return {
    state,
    repo: {
      async updateMedia(_userId: string, id: string, update: MessageMediaUpdate) {
        if (id !== state.message.id) return null;
        state.writes.push(update);
        state.message = { ...state.message, ...update };
        return state.message;
      },
    },
  };
}

/** The port's fake: a voice note "heard" as its first bytes' text, what it was handed recorded. */
function fakeUnderstanding() {
  const calls: UnderstandInput[] = [];
  const understanding: MediaUnderstanding = {
    async understand(input) {
      calls.push(input);
      if (input.message.type === 'ptt' && !input.message.media?.transcript) {
        return { transcript: { text: 'Quería pedir cita con la Dra. Pérez', language: 'es', durationSeconds: 4 } };
      }
      return {};
    },
    forAgent: async () => ({ text: '' }),
  };
  return { understanding, calls };
}

function customerMessage(type: string, mediaId: string, extra: Partial<StoredMessage['media']> = {}): StoredMessage {
  return {
    id: `${CONV}-01JBBBBBBBBBBBBBBBBBBBBBBB`,
    conversationId: CONV,
    waMessageId: 'wamid.1',
    contactId: '',
    type: type as StoredMessage['type'],
    hasMedia: true,
    media: { id: mediaId, mimeType: 'audio/ogg; codecs=opus', state: 'pending', ...extra },
    fromMe: false,
    from: '+34600111222',
    to: '+14155550100',
    phoneNumberId: { id: credentials.phoneId, name: '' },
    status: 'delivered',
    timestamp: '2026-03-01T10:00:00.000Z',
    body: '',
    createdAt: '2026-03-01T10:00:01.000Z',
  };
}

async function register(bytes: Buffer, mimeType: string, options: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${fake.url}/_test/media`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bytes: bytes.toString('base64'), mimeType, ...options }) });
  return ((await res.json()) as { mediaId: string }).mediaId;
}
const stats = async (mediaId: string) => (await (await fetch(`${fake.url}/_test/media/${mediaId}`)).json()) as { describes: number; downloads: number; expiredDownloads: number };

function setup(message: StoredMessage) {
  const { objects, store } = memoryObjects();
  const messages = memoryMessages(message);
  const { understanding, calls } = fakeUnderstanding();
  const touches: unknown[] = [];
  const errors: string[] = [];
  const fetcher = createMediaFetcher({
    graphMedia,
    objects,
    messages: messages.repo,
    conversations: { touch: async (_u, _c, activity) => (touches.push(activity), null) },
    understanding,
    onError: (text) => errors.push(text),
  });
  const prepare = (finalAttempt = false) => fetcher.prepare({ userId: USER, credentials, message: messages.state.message, finalAttempt, language: 'es', names: ['Clínica Sonrisa'] });
  return { prepare, store, messages, calls, touches, errors };
}

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  graphMedia = new HttpGraphMediaClient({ baseUrl: fake.graphUrl, timeoutMs: 2000 });
});
afterAll(() => fake.close());
beforeEach(async () => {
  await fetch(`${fake.url}/_test/media/reset`, { method: 'POST' });
  await fetch(`${fake.url}/_test/faults`, { method: 'DELETE' });
});

describe('media/fetch: a voice note', () => {
  it('is described, downloaded once, stored under the account, understood from the kept copy; the preview follows the transcript', async () => {
    const mediaId = await register(voice, 'audio/ogg; codecs=opus');
    const t = setup(customerMessage('ptt', mediaId));

    const message = await t.prepare();

    const key = mediaKey(USER, CONV, message.id);
    expect(key).toBe(`whatsapp-media/${USER}/${CONV}/${message.id}`);
    expect(message.media).toMatchObject({ id: mediaId, state: 'stored', size: voice.length, storedKey: key, transcript: { text: 'Quería pedir cita con la Dra. Pérez', language: 'es' } });
    expect(message.media?.failure).toBeUndefined();
    expect(Buffer.from(t.store.get(key)!).equals(voice)).toBe(true);
    // Stored first (a retry never downloads again), then what understanding found.
    expect(t.messages.state.writes.map((w) => w.media?.state)).toEqual(['stored', 'stored']);
    expect(t.calls).toHaveLength(1);
    expect(Buffer.from(t.calls[0]!.bytes!).equals(voice)).toBe(true);
    expect(t.calls[0]).toMatchObject({ language: 'es', names: ['Clínica Sonrisa'], finalAttempt: false });
    expect(t.touches).toEqual([expect.objectContaining({ lastMessage: expect.objectContaining({ content: 'Quería pedir cita con la Dra. Pérez' }), messageCountDelta: 0 })]);
    expect(await stats(mediaId)).toMatchObject({ describes: 1, downloads: 1 });
  });

  it('a message whose media is stored is never downloaded again: only understood (idempotent) from our copy', async () => {
    const mediaId = await register(voice, 'audio/ogg');
    const t = setup(customerMessage('ptt', mediaId));
    await t.prepare();
    const again = await t.prepare();

    expect(await stats(mediaId)).toMatchObject({ describes: 1, downloads: 1 });
    expect(t.calls).toHaveLength(2);
    expect(t.calls[1]!.bytes).toBeNull();
    expect(again.media?.transcript?.text).toBe('Quería pedir cita con la Dra. Pérez');
  });

  it('a failed media keeps its reason: nothing is fetched or understood', async () => {
    const mediaId = await register(voice, 'audio/ogg');
    const t = setup(customerMessage('ptt', mediaId, { state: 'failed', failure: 'not_found' }));
    const message = await t.prepare();
    expect(message.media).toMatchObject({ state: 'failed', failure: 'not_found' });
    expect(await stats(mediaId)).toMatchObject({ describes: 0, downloads: 0 });
    expect(t.calls).toHaveLength(0);
  });
});

describe('media/fetch: bad inputs', () => {
  it('an expired URL is described again and the media stored', async () => {
    const mediaId = await register(voice, 'audio/ogg', { expiredUrls: 2 });
    const t = setup(customerMessage('ptt', mediaId));
    expect((await t.prepare()).media?.state).toBe('stored');
    expect(await stats(mediaId)).toMatchObject({ describes: 3, expiredDownloads: 2, downloads: 1 });
  });

  it('a URL expired on every lookup is failed "expired"', async () => {
    const mediaId = await register(voice, 'audio/ogg', { expiredUrls: 10 });
    const t = setup(customerMessage('ptt', mediaId));
    expect((await t.prepare()).media).toMatchObject({ state: 'failed', failure: 'expired' });
  });

  it('a media id Meta no longer has is "not_found", and the message is kept', async () => {
    const mediaId = await register(voice, 'audio/ogg', { notFound: true });
    const t = setup(customerMessage('ptt', mediaId));
    const message = await t.prepare();
    expect(message.media).toMatchObject({ id: mediaId, state: 'failed', failure: 'not_found' });
    expect(t.calls).toHaveLength(0);
  });

  it('over Meta\'s limit for its kind as declared: "too_large" without a byte downloaded', async () => {
    const mediaId = await register(voice, 'audio/ogg', { declaredSize: 17 * 1024 * 1024 });
    const t = setup(customerMessage('ptt', mediaId));
    expect((await t.prepare()).media).toMatchObject({ state: 'failed', failure: 'too_large' });
    expect(await stats(mediaId)).toMatchObject({ downloads: 0 });
  });

  it('a download larger than declared is "too_large" (by its Content-Length, or while it streams) and nothing is kept', async () => {
    for (const chunked of [false, true]) {
      const mediaId = await register(voice, 'audio/ogg', { declaredSize: 1000, chunked });
      const t = setup(customerMessage('ptt', mediaId));
      expect((await t.prepare()).media).toMatchObject({ state: 'failed', failure: 'too_large' });
      expect(t.store.size).toBe(0);
    }
  });

  it('a download shorter than declared, or with another sha256, is "checksum" and our copy is deleted', async () => {
    const short = await register(voice, 'audio/ogg', { declaredSize: voice.length + 10, chunked: true });
    const a = setup(customerMessage('ptt', short));
    expect((await a.prepare()).media).toMatchObject({ state: 'failed', failure: 'checksum' });
    const wrong = await register(voice, 'audio/ogg', { wrongSha256: true });
    const b = setup(customerMessage('ptt', wrong));
    expect((await b.prepare()).media).toMatchObject({ state: 'failed', failure: 'checksum' });
    expect(b.store.size).toBe(0);
    expect(b.calls).toHaveLength(0);
  });

  it('Meta unavailable: a TransientError for the queue while tries remain, "download_failed" on the last', async () => {
    const mediaId = await register(voice, 'audio/ogg');
    await fetch(`${fake.url}/_test/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'status', status: 503, match: { path: `/${mediaId}` } }) });
    const t = setup(customerMessage('ptt', mediaId));
    await expect(t.prepare()).rejects.toBeInstanceOf(TransientError);
    expect(t.messages.state.message.media?.state).toBe('pending');
    expect((await t.prepare(true)).media).toMatchObject({ state: 'failed', failure: 'download_failed' });
  });

  it('our storage unavailable is retried the same way', async () => {
    const mediaId = await register(voice, 'audio/ogg');
    const t = setup(customerMessage('ptt', mediaId));
    const failing = createMediaFetcher({
      graphMedia,
      objects: { ...memoryObjects().objects, putStream: async () => Promise.reject(new TypeError('fetch failed')) },
      messages: t.messages.repo,
    });
    const input = { userId: USER, credentials, message: t.messages.state.message, finalAttempt: false };
    await expect(failing.prepare(input)).rejects.toBeInstanceOf(TransientError);
    expect((await failing.prepare({ ...input, finalAttempt: true })).media).toMatchObject({ state: 'failed', failure: 'download_failed' });
  });
});

describe('media/fetch: memory', () => {
  it('keeps a copy in memory only for what understanding reads (a video is streamed through, not kept)', async () => {
    const mediaId = await register(voice, 'video/mp4');
    const t = setup({ ...customerMessage('video', mediaId), media: { id: mediaId, mimeType: 'video/mp4', state: 'pending' } });
    expect((await t.prepare()).media?.state).toBe('stored');
    expect(t.calls[0]!.bytes).toBeNull();
    expect(keepLimit('audio')).toBe(16 * 1024 * 1024);
    expect(keepLimit('image')).toBe(5 * 1024 * 1024);
    expect(keepLimit('document')).toBe(10 * 1024 * 1024);
    expect(keepLimit('video')).toBe(0);
  });

  it("compares Meta's sha256 in hex or base64", () => {
    const hex = createHash('sha256').update(voice).digest('hex');
    expect(sha256Matches(hex.toUpperCase(), hex)).toBe(true);
    expect(sha256Matches(createHash('sha256').update(voice).digest('base64'), hex)).toBe(true);
    expect(sha256Matches(createHash('sha256').update('other').digest('base64'), hex)).toBe(false);
    expect(sha256Matches('', hex)).toBe(true);
  });
});
