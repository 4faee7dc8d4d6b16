/**
 * Step one of a customer's media message (issue 31), in the whatsapp-inbound worker after the
 * message is stored and claimed, before the agent answers: fetch → check → store → understand.
 *
 * - `pending`: GET /{media-id} (Meta's URL, type, sha256, size) → Meta's limit for the kind and the
 *   declared size checked before a byte is read → the download streamed to our copy at
 *   `whatsapp-media/{userId}/{conversationId}/{messageId}` (aborted past the declared size) → size
 *   and sha256 compared with what Meta declared (a mismatch deletes our copy) → the message's media
 *   becomes `stored` (size, storedKey) at once, so a retry or a redelivery never downloads again.
 * - `stored` (just now, or by an earlier try): understood (media/understand.ts: the transcript of a
 *   voice note, the text of a document); understanding is idempotent, so a try that died after
 *   storing understands on the next try from our copy. Its result is written on the message.
 * - `failed`: nothing (the reason stays; nothing is fetched again).
 *
 * Failures: the URL expired → described again and retried (up to URL_TRIES within this try); the
 * media id 404s → `not_found`; larger than Meta's limit or than declared → `too_large`; the bytes
 * do not match → `checksum`; Meta or our storage unavailable → a TransientError for the queue's
 * retry, and `download_failed` on the job's last try. The message is kept whatever happens.
 *
 * Memory: the bytes stream through; one copy is kept only when understanding reads them (audio,
 * a photo, a document up to MEDIA_LIMITS.documentReadMaxBytes), filled as the chunks pass.
 */
import { MEDIA_LIMITS, WHATSAPP_MEDIA_PREFIX, mediaKindOf, type MediaFailureReason, type MediaKind } from '../../../contract/whatsapp-media.js';
import { lastMessageOf, previewOf, type ConversationRepository, type MessageRepository, type StoredMessage, type StoredMessageMedia } from '../../conversations/ports.js';
import { TransientError } from '../../retry.js';
import type { WhatsAppCredentials } from '../ports.js';
import { GraphMediaError, MediaIncompleteError, MediaTooLargeError, type GraphMediaClient, type GraphMediaInfo, type MediaObjects, type MediaUnderstanding } from './ports.js';

/** Lookups (each with a fresh URL) one try makes when Meta's URL has expired by the time it is read. */
export const URL_TRIES = 3;

export interface MediaFetchDeps {
  graphMedia: GraphMediaClient;
  objects: MediaObjects;
  messages: Pick<MessageRepository, 'updateMedia'>;
  /** The conversation's preview follows a voice note's transcript. */
  conversations?: Pick<ConversationRepository, 'touch'>;
  /** Absent: the media is stored, not understood. */
  understanding?: MediaUnderstanding;
  onError?: (message: string, error: unknown) => void;
  /** A media the customer sent that could not be stored (their input, or Meta's): a warning, not our error. Default onError. */
  onFailure?: (message: string, error: unknown) => void;
}

export interface MediaFetchInput {
  userId: string;
  credentials: WhatsAppCredentials;
  message: StoredMessage;
  /** The queue job's last try: what would be retried is stored as a failure instead. */
  finalAttempt: boolean;
  /** For the transcription (the answering agent's language, the business's names). */
  language?: string;
  names?: string[];
  /** The same hints still being read (beside the download): awaited only when understanding starts; a failure means none. */
  hints?: Promise<{ language?: string; names?: string[] }>;
  /** The conversation's own activity write for this message: the preview a transcript brings goes after it, never under it. */
  after?: Promise<unknown>;
}

/** Where a customer's media is kept in the uploads bucket. */
export const mediaKey = (userId: string, conversationId: string, messageId: string) => `${WHATSAPP_MEDIA_PREFIX}${userId}/${conversationId}/${messageId}`;

/** Bytes kept in memory for understanding (0: none): audio and photos whole, documents up to the read limit. */
export function keepLimit(kind: MediaKind): number {
  if (kind === 'audio') return MEDIA_LIMITS.maxBytes.audio;
  if (kind === 'image') return MEDIA_LIMITS.imageInputMaxBytes;
  if (kind === 'document') return MEDIA_LIMITS.documentReadMaxBytes;
  return 0;
}

/** Meta's sha256 as hex or base64 (both seen), against ours in hex. Nothing declared: nothing to compare. */
export function sha256Matches(declared: string, hex: string): boolean {
  const d = declared.trim();
  if (!d) return true;
  if (/^[0-9a-f]{64}$/i.test(d)) return d.toLowerCase() === hex.toLowerCase();
  const pairs = hex.match(/../g) ?? [];
  const base64 = btoa(String.fromCharCode(...pairs.map((p) => parseInt(p, 16))));
  return d.replace(/=+$/, '') === base64.replace(/=+$/, '') || d.replace(/=+$/, '') === base64.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

class MediaFailure extends Error {
  constructor(readonly reason: MediaFailureReason) {
    super(`media ${reason}`);
  }
}

/** A stream that copies what passes into `buffer` (one preallocated copy), unchanged. */
function copyingInto(buffer: Uint8Array): TransformStream<Uint8Array, Uint8Array> {
  let at = 0;
  return new TransformStream({
    transform(chunk, controller) {
      // Past the buffer: the store refuses it as too large anyway; stop copying.
      if (at + chunk.byteLength <= buffer.byteLength) buffer.set(chunk, at);
      at += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

export function createMediaFetcher(deps: MediaFetchDeps) {
  const onError = deps.onError ?? (() => undefined);
  const onFailure = deps.onFailure ?? onError;

  /** Describe → download → store; returns what was stored and the kept copy (or null). */
  async function download(input: MediaFetchInput, kind: MediaKind, key: string): Promise<{ size: number; bytes: Uint8Array | null; info: GraphMediaInfo }> {
    const mediaId = input.message.media!.id!;
    for (let attempt = 1; ; attempt++) {
      const info = await deps.graphMedia.describe(input.credentials, mediaId);
      const limit = MEDIA_LIMITS.maxBytes[kind];
      if (info.fileSize > limit) throw new MediaFailure('too_large');
      let got;
      try {
        got = await deps.graphMedia.download(input.credentials, info.url);
      } catch (error) {
        if (error instanceof GraphMediaError && error.kind === 'expired' && attempt < URL_TRIES) continue;
        throw error;
      }
      if (got.contentLength !== undefined && got.contentLength > info.fileSize) {
        await got.body.cancel().catch(() => undefined);
        throw new MediaFailure('too_large');
      }
      const keep = info.fileSize <= keepLimit(kind) ? new Uint8Array(info.fileSize) : null;
      const body = keep ? got.body.pipeThrough(copyingInto(keep)) : got.body;
      const stored = await deps.objects.putStream(key, body, {
        contentType: info.mimeType || input.message.media?.mimeType || 'application/octet-stream',
        contentLength: info.fileSize,
        maxBytes: Math.min(info.fileSize, limit),
      });
      if (stored.size !== info.fileSize || !sha256Matches(info.sha256, stored.sha256)) {
        await deps.objects.delete(key).catch((error: unknown) => onError('A media copy that did not match could not be deleted', error));
        throw new MediaFailure(stored.size > info.fileSize ? 'too_large' : 'checksum');
      }
      return { size: stored.size, bytes: keep, info };
    }
  }

  /** The failure to store for `error`, or the error to throw (a retry may help and this is not the last try). */
  function failureOf(error: unknown, finalAttempt: boolean): MediaFailureReason | Error {
    if (error instanceof MediaFailure) return error.reason;
    if (error instanceof MediaTooLargeError) return 'too_large';
    if (error instanceof MediaIncompleteError) return 'checksum';
    if (error instanceof GraphMediaError) {
      if (error.kind === 'not_found') return 'not_found';
      if (error.kind === 'expired') return 'expired';
      // A refused token or request does not pass by waiting: the agent answers, the reply's own send reports the token.
      if (error.kind === 'auth' || error.kind === 'bad_request') return 'download_failed';
      return finalAttempt ? 'download_failed' : new TransientError({ provider: 'whatsapp', code: 'unavailable', message: `Graph media: ${error.message}`, cause: error });
    }
    // Our storage (an S3 5xx, a connection) or a download broken mid-way.
    if (finalAttempt) return 'download_failed';
    return error instanceof TransientError ? error : new TransientError({ provider: 's3', code: 'unavailable', message: `Media download or store failed: ${(error as Error)?.message ?? String(error)}`, cause: error });
  }

  async function write(input: MediaFetchInput, message: StoredMessage, media: StoredMessageMedia): Promise<StoredMessage> {
    const updated = await deps.messages.updateMedia(input.userId, message.id, { media });
    return updated ?? { ...message, media };
  }

  return {
    /**
     * Fetches, stores and understands the media of a customer's message; returns the message as
     * updated (unchanged when it has no media or its media failed before). Throws a TransientError
     * while a retry may help and this is not the job's last try.
     */
    async prepare(input: MediaFetchInput): Promise<StoredMessage> {
      let message = input.message;
      const kind = mediaKindOf(message.type);
      const media = message.media;
      if (!kind || !media || media.state === 'failed' || media.state === undefined) return message;
      let bytes: Uint8Array | null = null;
      if (media.state === 'pending') {
        const key = mediaKey(input.userId, message.conversationId, message.id);
        try {
          const got = await download(input, kind, key);
          bytes = got.bytes;
          const { failure: _none, ...rest } = media;
          message = await write(input, message, { ...rest, state: 'stored', size: got.size, storedKey: key, ...(media.mimeType ? {} : { mimeType: got.info.mimeType }) });
        } catch (error) {
          const failure = failureOf(error, input.finalAttempt);
          if (failure instanceof Error) throw failure;
          onFailure(`A customer's media was not stored (${failure})`, error);
          return write(input, message, { ...media, state: 'failed', failure });
        }
      }
      if (!deps.understanding || message.media?.state !== 'stored') return message;
      // Understood from the kept copy (or, on a later try, from ours); a TransientError goes to the queue.
      const hints = { language: input.language, names: input.names, ...(input.hints ? await input.hints.catch(() => ({})) : {}) };
      const understood = await deps.understanding.understand({
        userId: input.userId,
        message,
        bytes,
        ...(hints.language ? { language: hints.language } : {}),
        ...(hints.names?.length ? { names: hints.names } : {}),
        finalAttempt: input.finalAttempt,
      });
      bytes = null;
      if (Object.keys(understood).length === 0) return message;
      const before = previewOf(message);
      message = await write(input, message, { ...message.media, ...understood });
      // The board card shows the transcript instead of an empty voice note.
      if (deps.conversations && previewOf(message) !== before) {
        await input.after?.catch(() => undefined);
        await deps.conversations
          .touch(input.userId, message.conversationId, { lastMessage: lastMessageOf(message), lastMessageAt: message.createdAt, messageCountDelta: 0 })
          .catch((error: unknown) => onError("The conversation's preview could not follow the transcript", error));
      }
      return message;
    },
  };
}

export type MediaFetcher = ReturnType<typeof createMediaFetcher>;
