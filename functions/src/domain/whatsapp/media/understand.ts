/**
 * Step two of a customer's media message (issue 31), after media/fetch.ts stored our copy: what
 * the agent will read of it, and at answer time what it reads.
 *
 * - A voice note or audio: checked to be audio (audio.ts: the container's magic bytes; an "audio"
 *   that is a PDF is `unreadable` and costs nothing), its duration read from the container (Ogg
 *   Opus: exact, ogg.ts), cut at an Ogg page boundary past MEDIA_LIMITS.transcriptionMaxSeconds
 *   (the transcript is `truncated` and the agent tells the customer), the plan's minutes reserved
 *   (ceil(heard seconds / 60), like a call's; a reached limit is `minutes_limit`, no call), then
 *   transcribed with the user's ChatGPT key (language hint, the business's names as the prompt).
 *   A provider failure that may pass (timeout, 429, 5xx) is thrown as a TransientError for the
 *   queue's retry (the minutes given back), and on the job's last try stored as
 *   `transcription_failed`; so is a refused key or no ChatGPT connection.
 * - A document: read with the knowledge extractors and their safety limits (the sniffing of
 *   knowledge/sniff.ts, then the extractor's zip-bomb, page and size checks) up to
 *   MEDIA_LIMITS.documentReadMaxBytes; its preview and page count are stored on the message.
 *   Its text (up to documentTextChars) is NOT stored on the message: every answer reads the
 *   conversation's last 21 messages, and 20,000 characters on each document message would make
 *   those reads (and the inbox's) tens of KB per item. The text is kept in memory for the answer
 *   that follows in the same worker (a bounded cache), and read again from our copy otherwise
 *   (an answer retried later, "Answer waiting messages").
 * - A failure to understand keeps our copy (the owner can still play or open it): state 'failed'
 *   with the reason, as the port says; the agent reads the matching note (agent-text.ts).
 */
import { MEDIA_LIMITS, mediaKindOf } from '../../../contract/whatsapp-media.js';
import { agentFileKind, type AgentFileKind } from '../../../contract/agents.js';
import type { AgentWithChildren } from '../../agents/ports.js';
import type { AiConnector } from '../../ai/ports.js';
import type { Bookings } from '../../bookings/ports.js';
import type { StoredMessage, StoredMessageMedia } from '../../conversations/ports.js';
import { LimitExceededError, PaymentRequiredError } from '../../errors.js';
import { renderDocument } from '../../knowledge/chunking.js';
import type { StructuredDocument } from '../../knowledge/ports.js';
import { contentMismatch } from '../../knowledge/sniff.js';
import { classifyProviderFailure, TransientError } from '../../retry.js';
import { agentText } from './agent-text.js';
import { AUDIO_FILES, audioSeconds, sniffAudio, TRANSCRIBABLE } from './audio.js';
import { cutOgg } from './ogg.js';
import { MediaTooLargeError, type MediaForAgent, type MediaObjects, type MediaUnderstanding, type UnderstandInput } from './ports.js';

/** The knowledge extractors (adapters/extract): throw when a file is not what it claims or is over their limits. */
export type DocumentReader = (kind: AgentFileKind, bytes: Uint8Array) => Promise<StructuredDocument>;

/** The plan's minutes (domain/billing/usage.ts), shared with calls. */
export interface MinutesUsage {
  reserve(userId: string, action: 'minutes', amount?: number): Promise<number>;
  release(userId: string, action: 'minutes', amount?: number): Promise<void>;
}

export interface MediaUnderstandingDeps {
  /** The user's ChatGPT connection: its transcriber. */
  ai: AiConnector;
  /** Our copies (read back when the bytes were not handed over, and photos for the model). */
  objects: Pick<MediaObjects, 'get'>;
  documents: DocumentReader;
  usage: MinutesUsage;
  /** Bounds one transcription call. */
  transcriptionTimeoutMs?: number;
  onError?: (message: string, error: unknown) => void;
}

/** Images OpenAI takes as input. */
const IMAGE_INPUT_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
/** Document texts kept for the answer that follows (a worker handles one delivery at a time). */
const DOCUMENT_CACHE = 8;

const failed = (failure: NonNullable<StoredMessageMedia['failure']>): Partial<StoredMessageMedia> => ({ state: 'failed', failure });

/** Up to MEDIA_LIMITS.transcriptionPromptChars of the names, whole names only, no repeats. */
export function transcriptionPrompt(names: readonly string[] | undefined): string | undefined {
  let prompt = '';
  const seen = new Set<string>();
  for (const raw of names ?? []) {
    const name = raw.replace(/\s+/g, ' ').trim();
    if (!name || seen.has(name.toLowerCase())) continue;
    const next = prompt ? `${prompt}, ${name}` : name;
    if (next.length > MEDIA_LIMITS.transcriptionPromptChars) break;
    seen.add(name.toLowerCase());
    prompt = next;
  }
  return prompt || undefined;
}

/** A knowledge file's name as words ("tarifas_clinica-sonrisa.pdf" → "tarifas clinica sonrisa"). */
const fileTitle = (name: string) => name.replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[_-]+/g, ' ').trim();

/**
 * The business's own names for the transcription prompt, most telling first: the agent's name,
 * its staff and services when it books (issue 30: "Dra. Pérez", "ortodoncia invisible"), then its
 * knowledge files' titles. A failed bookings read leaves them out (the prompt only helps spelling).
 */
export async function transcriptionNames(
  userId: string,
  agent: Pick<AgentWithChildren, 'name' | 'bookingsEnabled' | 'files'>,
  bookings?: Pick<Bookings, 'listServices' | 'listStaff'>,
): Promise<string[]> {
  const booked =
    agent.bookingsEnabled && bookings
      ? await Promise.all([bookings.listStaff(userId), bookings.listServices(userId)]).then(
          ([staff, services]) => [...staff.map((s) => s.name), ...services.map((s) => s.name)],
          () => [],
        )
      : [];
  return [agent.name, ...booked, ...agent.files.map((f) => fileTitle(f.originalName))].filter((n) => n.trim() !== '');
}

const minutesOf = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

export function createMediaUnderstanding(deps: MediaUnderstandingDeps): MediaUnderstanding {
  const onError = deps.onError ?? (() => undefined);
  const documentTexts = new Map<string, string>();

  const remember = (id: string, text: string) => {
    documentTexts.delete(id);
    documentTexts.set(id, text);
    if (documentTexts.size > DOCUMENT_CACHE) documentTexts.delete(documentTexts.keys().next().value as string);
  };

  /** Our copy's bytes (≤ maxBytes), or null when it is gone. */
  async function bytesOf(input: UnderstandInput, maxBytes: number): Promise<Uint8Array | null> {
    if (input.bytes) return input.bytes;
    const key = input.message.media?.storedKey;
    return key ? deps.objects.get(key, maxBytes) : null;
  }

  async function transcribe(input: UnderstandInput): Promise<Partial<StoredMessageMedia>> {
    const { userId, message } = input;
    const bytes = await bytesOf(input, MEDIA_LIMITS.maxBytes.audio);
    if (!bytes) return failed('download_failed');
    const container = sniffAudio(bytes);
    if (!container || !TRANSCRIBABLE.has(container)) return failed('unreadable');
    const durationSeconds = audioSeconds(bytes, container);
    // Past the cap, only the beginning is heard: cut at a page boundary (a valid shorter Ogg).
    const cut = container === 'ogg' && durationSeconds !== undefined && durationSeconds > MEDIA_LIMITS.transcriptionMaxSeconds ? cutOgg(bytes, MEDIA_LIMITS.transcriptionMaxSeconds) : null;
    if (cut === null && (durationSeconds ?? 0) === 0 && container === 'ogg') return failed('unreadable');
    const heard = cut ? cut.durationSeconds : durationSeconds;
    const connection = await deps.ai.forUser(userId);
    if (!connection?.transcriber) return failed('transcription_failed');

    // Minutes first: no call once the plan's minutes are used up. Unknown length: one minute now, the rest once known.
    let reserved = minutesOf(heard ?? 0);
    try {
      await deps.usage.reserve(userId, 'minutes', reserved);
    } catch (error) {
      if (error instanceof LimitExceededError || error instanceof PaymentRequiredError) return failed('minutes_limit');
      throw error;
    }
    const file = AUDIO_FILES[container];
    let result: Awaited<ReturnType<typeof connection.transcriber.transcribe>>;
    try {
      result = await connection.transcriber.transcribe({
        bytes: cut ? cut.bytes : bytes,
        mimeType: file.mimeType,
        fileName: `voice-${message.id}.${file.extension}`,
        ...(input.language ? { language: input.language.slice(0, 2).toLowerCase() } : {}),
        ...(transcriptionPrompt(input.names) ? { prompt: transcriptionPrompt(input.names) } : {}),
        ...(deps.transcriptionTimeoutMs ? { timeoutMs: deps.transcriptionTimeoutMs } : {}),
      });
    } catch (error) {
      await deps.usage.release(userId, 'minutes', reserved);
      const failure = classifyProviderFailure(error);
      if (failure instanceof TransientError && !input.finalAttempt) throw failure;
      onError(`A voice note could not be transcribed (${failure instanceof TransientError ? 'retries exhausted' : (failure?.name ?? 'error')})`, error);
      return failed('transcription_failed');
    }
    const total = durationSeconds ?? result.durationSeconds;
    if (heard === undefined && result.durationSeconds > 0) {
      // The provider told the length: the reservation follows it (never fails the transcript already made).
      const actual = minutesOf(Math.min(result.durationSeconds, MEDIA_LIMITS.transcriptionMaxSeconds));
      if (actual !== reserved) {
        await (actual > reserved ? deps.usage.reserve(userId, 'minutes', actual - reserved) : deps.usage.release(userId, 'minutes', reserved - actual)).catch((error: unknown) =>
          onError('The transcription minutes could not be settled', error),
        );
        reserved = actual;
      }
    }
    return {
      transcript: {
        text: result.text,
        language: result.language || input.language?.slice(0, 2).toLowerCase() || '',
        durationSeconds: Math.round(total * 10) / 10,
        ...(cut ? { truncated: true } : {}),
      },
    };
  }

  /** The document's structure read by the extractors, or the failure to store. */
  async function extract(input: Pick<UnderstandInput, 'message' | 'bytes'>, bytes: Uint8Array | null): Promise<{ document: StructuredDocument } | { failure: Partial<StoredMessageMedia> }> {
    const media = input.message.media!;
    if (!bytes) return { failure: failed('download_failed') };
    const kind = agentFileKind(media.filename ?? '', (media.mimeType ?? '').split(';')[0]!.trim());
    // Not a PDF, Word or text file (a spreadsheet, a zip): stored for the owner, not read.
    if (!kind) return { failure: failed('unreadable') };
    if (contentMismatch(kind, bytes)) return { failure: failed('unreadable') };
    try {
      return { document: await deps.documents(kind, bytes) };
    } catch (error) {
      onError('A customer’s document could not be read', error);
      return { failure: failed('unreadable') };
    }
  }

  async function read(input: UnderstandInput): Promise<Partial<StoredMessageMedia>> {
    const media = input.message.media!;
    if ((media.size ?? input.bytes?.length ?? 0) > MEDIA_LIMITS.documentReadMaxBytes) return failed('document_too_large');
    let bytes: Uint8Array | null;
    try {
      bytes = await bytesOf(input, MEDIA_LIMITS.documentReadMaxBytes);
    } catch (error) {
      if (error instanceof MediaTooLargeError) return failed('document_too_large');
      throw error;
    }
    if (bytes && bytes.length > MEDIA_LIMITS.documentReadMaxBytes) return failed('document_too_large');
    const outcome = await extract(input, bytes);
    if ('failure' in outcome) return outcome.failure;
    const text = renderDocument(outcome.document).slice(0, MEDIA_LIMITS.documentTextChars);
    remember(input.message.id, text);
    const pages = outcome.document.blocks.reduce((most, block) => Math.max(most, block.page ?? 0), 0);
    return { textPreview: text.slice(0, MEDIA_LIMITS.documentPreviewChars), ...(pages > 0 ? { pages } : {}) };
  }

  /** The document's text for the answer: remembered, else read again from our copy (null: the preview will do). */
  async function documentText(message: StoredMessage): Promise<string | undefined> {
    const known = documentTexts.get(message.id);
    if (known !== undefined) return known;
    const key = message.media?.storedKey;
    if (!key || message.media?.state !== 'stored' || !message.media.textPreview) return undefined;
    // The preview is the whole text: nothing more to read.
    if (message.media.textPreview.length < MEDIA_LIMITS.documentPreviewChars) return undefined;
    const bytes = await deps.objects.get(key, MEDIA_LIMITS.documentReadMaxBytes);
    const outcome = await extract({ message, bytes: null }, bytes);
    if ('failure' in outcome) return undefined;
    const text = renderDocument(outcome.document).slice(0, MEDIA_LIMITS.documentTextChars);
    remember(message.id, text);
    return text;
  }

  async function image(message: StoredMessage): Promise<string | undefined> {
    const media = message.media;
    const type = (media?.mimeType ?? '').split(';')[0]!.trim().toLowerCase();
    if (!media?.storedKey || media.state !== 'stored' || !IMAGE_INPUT_TYPES.has(type)) return undefined;
    const bytes = await deps.objects.get(media.storedKey, MEDIA_LIMITS.imageInputMaxBytes);
    return bytes ? `data:${type};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}` : undefined;
  }

  return {
    async understand(input) {
      const media = input.message.media;
      if (!media || media.state !== 'stored') return {};
      // Understood already (a redelivery, a retried job): never transcribed or read twice.
      if (media.transcript || media.textPreview !== undefined) return {};
      const kind = mediaKindOf(input.message.type);
      if (kind === 'audio') return transcribe(input);
      if (kind === 'document') return read(input);
      return {};
    },

    async forAgent(_userId, message, options): Promise<MediaForAgent> {
      try {
        const kind = mediaKindOf(message.type);
        if (options.withImage && kind === 'document') return { text: agentText(message, await documentText(message)) };
        if (options.withImage && kind === 'image') {
          const dataUrl = await image(message);
          if (dataUrl) return { text: agentText(message), imageDataUrl: dataUrl };
          // Our copy is gone or not an image the model takes: the agent asks for it again.
          if (message.media?.state === 'stored') return { text: agentText({ ...message, media: { ...message.media, state: 'failed' } }) };
        }
        return { text: agentText(message) };
      } catch (error) {
        onError('What the agent reads of a media message could not be prepared; it reads the note', error);
        return { text: agentText(message) };
      }
    },
  };
}
