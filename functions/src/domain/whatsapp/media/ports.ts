/**
 * WhatsApp media both ways (issue 31) as the domain sees it. The adapters: the Graph media API
 * (adapters/whatsapp/graph-media.ts: GET /{media-id}, the expiring download, POST /{phone-id}/media),
 * our copy in the uploads bucket (adapters/s3-media.ts, presigned links only) and OpenAI's audio
 * transcription (adapters/openai/transcriber.ts). The fakes in local/ speak the same protocols.
 *
 * The whatsapp-inbound worker, for a customer's media message (after it is stored, before the
 * agent answers): fetch → check (Meta's limit, the declared size, sha256) → store encrypted →
 * understand (transcript, image input, document text, location, contact card) → the message is
 * updated with what the agent reads. A redelivered message whose media is `stored` is not fetched
 * again; one that `failed` keeps its reason. Never more than one copy of the bytes in memory.
 */
import type { StoredMessage, StoredMessageMedia } from '../../conversations/ports.js';
import type { WhatsAppCredentials } from '../ports.js';

/** What Meta says of a media id (GET /{media-id}); `fileSize` arrives as a number or a string. */
export interface GraphMediaInfo {
  /** The download URL: valid for about 5 minutes, and only with the business token. */
  url: string;
  mimeType: string;
  sha256: string;
  fileSize: number;
}

/** A download's body, read as it arrives (never buffered by the adapter). */
export interface MediaDownload {
  body: ReadableStream<Uint8Array>;
  /** Content-Length when Meta sent one. */
  contentLength?: number;
  contentType?: string;
}

/**
 * Why the Graph media API failed: `not_found` (the id is unknown or gone), `expired` (the URL's time
 * passed: ask for a new one), `auth` (the token), `unavailable` (retry later).
 */
export type GraphMediaErrorKind = 'not_found' | 'expired' | 'auth' | 'unavailable' | 'bad_request';

export class GraphMediaError extends Error {
  constructor(
    readonly kind: GraphMediaErrorKind,
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'GraphMediaError';
  }
}

export interface GraphMediaClient {
  /** GET /{media-id} (with phone_number_id): where to download it and what Meta declares. */
  describe(credentials: WhatsAppCredentials, mediaId: string): Promise<GraphMediaInfo>;
  /** GET the download URL with the business token (Meta answers 404/401 once it expired). */
  download(credentials: WhatsAppCredentials, url: string, signal?: AbortSignal): Promise<MediaDownload>;
  /** POST /{phone-id}/media (multipart: messaging_product, type, file): Meta's media id for a send. */
  upload(credentials: WhatsAppCredentials, file: { bytes: Uint8Array; mimeType: string; fileName: string }): Promise<{ mediaId: string }>;
}

/** Our copies in the uploads bucket (presigned requests only, like the agent files). */
export interface MediaObjects {
  /**
   * Streams `body` to `key` (server-side encrypted, tagged for the account's retention) and returns
   * what went through. Aborts and throws MediaTooLargeError past `maxBytes` (nothing is kept).
   */
  putStream(key: string, body: ReadableStream<Uint8Array>, options: { contentType: string; contentLength?: number; maxBytes: number }): Promise<{ size: number; sha256: string }>;
  /** Small objects (≤ maxBytes) read whole, for the model or a Meta upload; null when gone. */
  get(key: string, maxBytes: number): Promise<Uint8Array | null>;
  /** A presigned GET for the dashboard (inline, or as a download with its file name). */
  viewUrl(key: string, options: { seconds: number; fileName?: string; contentType?: string }): Promise<string>;
  /** HEAD: size and type, or null when missing (an attachment upload that never happened). */
  head(key: string): Promise<{ size: number; contentType: string } | null>;
  delete(key: string): Promise<void>;
}

export class MediaTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The media is larger than ${maxBytes} bytes`);
    this.name = 'MediaTooLargeError';
  }
}

/** The body ended before the length it declared (Meta's file_size / Content-Length): nothing is kept. */
export class MediaIncompleteError extends Error {
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(`The media ended after ${received} of the ${expected} bytes declared`);
    this.name = 'MediaIncompleteError';
  }
}

/** The transcription port lives with the model's (domain/ai/ports.ts: the user's AI connection has it). */
export type { TranscriptionRequest, Transcriber } from '../../ai/ports.js';

/** What the agent reads of a customer's media message, besides its caption. */
export interface MediaForAgent {
  /** A text the agent reads as the customer's message (a transcript, a document's text, a location, a contact card, or an English note). */
  text: string;
  /** A photo as an image input (data: URL), for a model that sees. */
  imageDataUrl?: string;
}

/** What understanding a stored media message needs (media/understand.ts implements it). */
export interface UnderstandInput {
  userId: string;
  /** The customer's message, with its media as stored so far (state 'stored', storedKey set). */
  message: StoredMessage;
  /** The bytes just stored (one copy, never re-read when given); null: read them from storedKey if needed. */
  bytes: Uint8Array | null;
  /** The language hint (the answering agent's language). */
  language?: string;
  /** The business's own names for the transcription prompt (agent name, services, staff, knowledge titles). */
  names?: string[];
  /** The queue job's last try: a provider failure that may pass is stored as a failure instead of thrown for a retry. */
  finalAttempt: boolean;
}

/**
 * Step two of a media message (after media/fetch.ts stored it): the transcript of a voice note,
 * the text of a document, the plan's minutes; and, at answer time, what the agent reads of any
 * message (also of media messages in the history, also when answered later).
 */
export interface MediaUnderstanding {
  /**
   * The media fields to store on the message (transcript, textPreview, pages, or state 'failed' with
   * a failure). Throws a TransientError while a provider failure may pass and this is not the last try.
   */
  understand(input: UnderstandInput): Promise<Partial<StoredMessageMedia>>;
  /** What the agent reads for `message` (a photo's image read from our copy when `withImage`). Never throws. */
  forAgent(userId: string, message: StoredMessage, options: { withImage: boolean }): Promise<MediaForAgent>;
}
