/**
 * Issue 31: what the browser sees of a message (message-view.ts) and the board card's preview
 * (lastMessageOf): the media's state, failure, transcript, document preview and pages, location,
 * contact cards and interactive options go out; our copy's key never does; a stored copy gets a
 * presigned link (a document's downloads under its name), a pending or never-fetched one none.
 */
import { describe, expect, it } from 'vitest';
import { MEDIA_LIMITS } from '../../../src/contract/whatsapp-media.js';
import type { ConversationRepository, MessageRepository, StoredMessage } from '../../../src/domain/conversations/ports.js';
import { lastMessageOf, LAST_MESSAGE_PREVIEW_CHARS } from '../../../src/domain/conversations/ports.js';
import { linkable, mediaLinksOf, mediaView, toConversationMessage, toDetailMessage, toMessage, type MediaLinks } from '../../../src/domain/conversations/message-view.js';
import { createConversationService } from '../../../src/domain/conversations/service.js';
import { createWhatsAppReplyChannels } from '../../../src/domain/whatsapp/reply-channel.js';
import { newId } from '../../../src/lib/ids.js';
import { conversation, message, MemoryConversations, MemoryMessages, NOW, RecordingGraph } from '../conversations-service/fakes.js';

const USER = 'user-a';
const conv = conversation();
const KEY = `whatsapp-media/${USER}/${conv.id}/x`;

const voiceNote = (over: Partial<StoredMessage> = {}) =>
  message(conv, {
    type: 'ptt',
    hasMedia: true,
    body: '',
    media: {
      id: 'media-1',
      mimeType: 'audio/ogg; codecs=opus',
      sha256: 'abc',
      state: 'stored',
      storedKey: KEY,
      size: 48_213,
      transcript: { text: 'Quería pedir cita con la Dra. Pérez', language: 'es', durationSeconds: 31 },
    },
    ...over,
  });

/** Records what it was asked to sign; answers a URL naming the key. */
class RecordingLinks implements MediaLinks {
  readonly calls: Array<{ key: string; options: { seconds: number; fileName?: string; contentType?: string } }> = [];
  failFor = '';
  async viewUrl(key: string, options: { seconds: number; fileName?: string; contentType?: string }) {
    if (key === this.failFor) throw new Error('no credentials');
    this.calls.push({ key, options });
    return `https://media.test/${key}?signed=1`;
  }
}

describe('mediaView / toMessage / toConversationMessage', () => {
  it('sends every issue-31 field of the media but never storedKey, and the link given', () => {
    const m = voiceNote();
    for (const view of [toMessage(m, 'https://signed'), toConversationMessage(m, 'https://signed'), toDetailMessage(m, 'https://signed')]) {
      expect(view.media).toEqual({
        id: 'media-1',
        mimeType: 'audio/ogg; codecs=opus',
        sha256: 'abc',
        state: 'stored',
        size: 48_213,
        transcript: { text: 'Quería pedir cita con la Dra. Pérez', language: 'es', durationSeconds: 31 },
        url: 'https://signed',
      });
      expect(JSON.stringify(view)).not.toContain('storedKey');
      expect(JSON.stringify(view)).not.toContain(KEY);
    }
  });

  it('drops a url that was stored with the media (only our signed link is shown) and shows none without one', () => {
    expect(mediaView({ id: 'm', url: 'https://lookaside.fbsbx.com/old', storedKey: KEY, state: 'stored' })).toEqual({ id: 'm', state: 'stored' });
    expect(toMessage(voiceNote()).media).not.toHaveProperty('url');
  });

  it('keeps failure, document preview and pages', () => {
    const doc = message(conv, {
      type: 'document',
      hasMedia: true,
      media: { filename: 'Presupuesto ortodoncia.pdf', mimeType: 'application/pdf', state: 'failed', failure: 'document_too_large', pages: 3, textPreview: 'Ortodoncia invisible…', storedKey: KEY },
    });
    expect(toConversationMessage(doc).media).toEqual({
      filename: 'Presupuesto ortodoncia.pdf',
      mimeType: 'application/pdf',
      state: 'failed',
      failure: 'document_too_large',
      pages: 3,
      textPreview: 'Ortodoncia invisible…',
    });
  });

  it('carries a location, contact cards, interactive options and the option tapped (absent when unset)', () => {
    const location = { latitude: 40.4168, longitude: -3.7038, name: 'Clínica Sonrisa', address: 'Calle Mayor 1, Madrid' };
    const contactCards = [{ name: 'María José Núñez', phones: ['+34 612 34 56 78'] }];
    const interactive = { kind: 'buttons' as const, options: [{ id: 'a', title: 'Mañana' }, { id: 'b', title: 'Tarde' }] };
    const interactiveReply = { id: 'a', title: 'Mañana' };
    const m = message(conv, { type: 'location', location, contactCards, interactive, interactiveReply });
    expect(toMessage(m)).toMatchObject({ location, contactCards, interactive, interactiveReply });
    expect(toConversationMessage(m)).toMatchObject({ location, contactCards, interactive, interactiveReply });
    const plain = toConversationMessage(message(conv, { contactCards: [] }));
    for (const field of ['location', 'contactCards', 'interactive', 'interactiveReply', 'media']) expect(plain).not.toHaveProperty(field);
  });
});

describe('linkable / mediaLinksOf', () => {
  it('links a stored copy, and one whose understanding failed; never a pending one or one that never arrived', () => {
    expect(linkable(voiceNote().media)).toBe(true);
    expect(linkable({ storedKey: KEY, state: 'failed', failure: 'transcription_failed' })).toBe(true);
    expect(linkable({ storedKey: KEY, state: 'failed', failure: 'minutes_limit' })).toBe(true);
    expect(linkable({ storedKey: KEY })).toBe(true); // an owner's attachment, kept before the send
    expect(linkable({ storedKey: KEY, state: 'pending' })).toBe(false);
    for (const failure of ['not_found', 'expired', 'too_large', 'checksum', 'download_failed'] as const) {
      expect(linkable({ storedKey: KEY, state: 'failed', failure })).toBe(false);
    }
    expect(linkable({ id: 'media-1', state: 'stored' })).toBe(false);
    expect(linkable(undefined)).toBe(false);
  });

  it('signs for viewUrlSeconds: audio inline with its type, a document as a download under its name', async () => {
    const links = new RecordingLinks();
    const audio = voiceNote();
    const doc = message(conv, { type: 'document', hasMedia: true, media: { filename: 'Presupuesto Pérez.pdf', mimeType: 'application/pdf', state: 'stored', storedKey: `${KEY}-doc` } });
    const pending = voiceNote({ media: { id: 'media-2', state: 'pending' } });
    const found = await mediaLinksOf(links, [audio, doc, pending, message(conv)]);
    expect([...found.keys()].sort()).toEqual([audio.id, doc.id].sort());
    expect(links.calls).toEqual([
      { key: KEY, options: { seconds: MEDIA_LIMITS.viewUrlSeconds, contentType: 'audio/ogg; codecs=opus' } },
      { key: `${KEY}-doc`, options: { seconds: MEDIA_LIMITS.viewUrlSeconds, contentType: 'application/pdf', fileName: 'Presupuesto Pérez.pdf' } },
    ]);
  });

  it('a link that cannot be signed leaves that message without one (the read still answers)', async () => {
    const links = new RecordingLinks();
    links.failFor = KEY;
    const errors: string[] = [];
    const found = await mediaLinksOf(links, [voiceNote()], (message) => errors.push(message));
    expect(found.size).toBe(0);
    expect(errors).toEqual(['media link failed']);
    expect((await mediaLinksOf(undefined, [voiceNote()])).size).toBe(0);
  });
});

describe('the service links media on every read (conversation detail, Message Hub list, latest, detail)', () => {
  it('GET conversation and the Hub reads carry media.url for a stored copy and none for a pending one', async () => {
    const conversations = new MemoryConversations();
    const messages = new MemoryMessages();
    const links = new RecordingLinks();
    const service = createConversationService({
      conversations: conversations as unknown as ConversationRepository,
      messages: messages as unknown as MessageRepository,
      channels: createWhatsAppReplyChannels({ graph: new RecordingGraph(), connection: async () => null }),
      usage: { reserve: async () => 0, release: async () => undefined },
      now: () => NOW,
      newId: () => newId(),
      mediaLinks: links,
    });
    conversations.seed(USER, conv);
    const stored = messages.seed(USER, voiceNote());
    const pending = messages.seed(USER, voiceNote({ media: { id: 'media-2', state: 'pending' } }));
    const url = `https://media.test/${KEY}?signed=1`;

    const detail = await service.get(USER, conv.id);
    const byId = new Map(detail.messages.map((m) => [m._id, m]));
    expect(byId.get(stored.id)?.media?.url).toBe(url);
    expect(byId.get(pending.id)?.media).toEqual({ id: 'media-2', state: 'pending' });

    const list = await service.listMessages(USER, { page: 1, limit: 20, search: '', status: '', fromMe: '', timeFilter: 'all' });
    expect(list.data.find((m) => m._id === stored.id)?.media?.url).toBe(url);
    expect(list.data.find((m) => m._id === pending.id)?.media?.url).toBeUndefined();
    expect((await service.latestMessages(USER)).find((m) => m._id === stored.id)?.media?.url).toBe(url);
    expect((await service.getMessage(USER, stored.id)).media?.url).toBe(url);
    for (const shown of [detail, list, await service.latestMessages(USER)]) expect(JSON.stringify(shown)).not.toContain('storedKey');
  });
});

describe('lastMessageOf (the board card preview)', () => {
  it('a text message keeps its body as it is', () => {
    expect(lastMessageOf(message(conv, { body: '  Hola  ' }))).toMatchObject({ type: 'chat', body: '  Hola  ', content: '  Hola  ' });
  });

  it('a voice note previews its transcript, cut; before it is transcribed, nothing (the card names the kind)', () => {
    expect(lastMessageOf(voiceNote())).toMatchObject({ type: 'ptt', body: 'Quería pedir cita con la Dra. Pérez', content: 'Quería pedir cita con la Dra. Pérez' });
    expect(lastMessageOf(voiceNote({ media: { id: 'm', state: 'pending' } })).body).toBe('');
    const long = lastMessageOf(voiceNote({ media: { state: 'stored', transcript: { text: 'hola '.repeat(200), language: 'es', durationSeconds: 90 } } })).body;
    expect(long.length).toBe(LAST_MESSAGE_PREVIEW_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });

  it('a photo its caption, a document its name, a location its place, a contact card its name', () => {
    expect(lastMessageOf(message(conv, { type: 'image', body: '', media: { caption: 'Mi receta' } })).body).toBe('Mi receta');
    expect(lastMessageOf(message(conv, { type: 'document', body: '', media: { filename: 'Presupuesto.pdf', textPreview: 'x' } })).body).toBe('Presupuesto.pdf');
    expect(lastMessageOf(message(conv, { type: 'location', body: '', location: { latitude: 1, longitude: 2, name: 'Clínica', address: 'Calle Mayor 1' } })).body).toBe('Clínica, Calle Mayor 1');
    expect(lastMessageOf(message(conv, { type: 'contacts', body: '', contactCards: [{ name: 'Ana', phones: [] }, { name: 'Luis', phones: [] }] })).body).toBe('Ana, Luis');
    expect(lastMessageOf(message(conv, { type: 'sticker', body: '', media: { id: 's' } })).body).toBe('');
  });
});
