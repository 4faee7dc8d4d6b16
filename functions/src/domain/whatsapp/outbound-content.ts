/**
 * An outgoing message in its own shape (issue 31): one place decides how a stored outgoing message
 * goes out — a text, or a location, reply buttons / a list, or a file by Meta media id — so the
 * agent's reply, its resume on a retried job, the files and location sent after it, and a retry
 * from the Message Hub all send the same thing the inbox shows.
 */
import { MEDIA_LIMITS, type MessageInteractive } from '../../contract/whatsapp-media.js';
import type { ReplyChoices } from '../agents/runtime/ports.js';
import type { StoredMessage } from '../conversations/ports.js';
import type { GraphMediaClient, MediaObjects } from './media/ports.js';
import type { GraphClient, GraphContentClient, OutboundContent, WhatsAppCredentials } from './ports.js';

/** Meta keeps an uploaded media 30 days: a stored media id older than this is uploaded again from our copy. */
export const MEDIA_ID_DAYS = 29;
const DAY_MS = 24 * 3600 * 1000;
const MEDIA_SEND_TYPES = new Set(['image', 'document', 'audio', 'video']);

/** The sends a stored message may need: text, content, and (for a file whose Meta id is missing or old) an upload from our copy. */
export interface StoredSendDeps {
  graph: GraphClient & Partial<GraphContentClient>;
  /** Uploads our copy (media.storedKey) to Meta; absent = a file without a fresh media id cannot be sent. */
  mediaUpload?: { client: Pick<GraphMediaClient, 'upload'>; objects: Pick<MediaObjects, 'get'> };
  now?: () => number;
}

/** The media kind Meta sends a file as: JPEG/PNG inline as an image, audio and MP4 video as such, anything else as a document. */
export function sendKindOf(mimeType: string): 'image' | 'document' | 'audio' | 'video' {
  const type = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'image/jpeg' || type === 'image/png') return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'video/mp4' || type === 'video/3gpp') return 'video';
  return 'document';
}

/** Cut to `max` characters (code points, as WhatsApp counts them), with an ellipsis. */
function cut(text: string, max: number): string {
  const chars = [...text.trim()];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * The agent's choices as Meta takes them: reply buttons while there are at most 3 whose titles fit
 * a button, else a list (at most 10 rows, titles and descriptions cut to Meta's limits); null when
 * the reply's text cannot carry them (empty, or over Meta's interactive body limit).
 */
export function interactiveOf(body: string, choices: ReplyChoices | undefined, language = 'es'): MessageInteractive | null {
  if (!choices || !body.trim() || [...body].length > MEDIA_LIMITS.interactiveBodyChars) return null;
  const options = choices.options.filter((o) => o.id && o.title.trim());
  if (options.length === 0) return null;
  const fitsButtons =
    choices.kind === 'buttons' && options.length <= MEDIA_LIMITS.buttons.max && options.every((o) => [...o.title.trim()].length <= MEDIA_LIMITS.buttons.titleChars);
  if (fitsButtons) return { kind: 'buttons', options: options.map((o) => ({ id: o.id, title: o.title.trim() })) };
  return {
    kind: 'list',
    // The agent's tool names the list's button; buttons that had to become a list have none: the customer's words for it.
    buttonLabel: cut(choices.buttonLabel || (language.toLowerCase().startsWith('es') ? 'Ver opciones' : 'See options'), MEDIA_LIMITS.list.buttonChars),
    options: options.slice(0, MEDIA_LIMITS.list.maxRows).map((o) => ({
      id: o.id,
      title: cut(o.title, MEDIA_LIMITS.list.titleChars),
      ...(o.description?.trim() ? { description: cut(o.description, MEDIA_LIMITS.list.descriptionChars) } : {}),
    })),
  };
}

/** A reply whose choices could not go as Meta's interactive message: its text with the options as lines. */
export function textWithOptions(body: string, choices: ReplyChoices): string {
  return [body.trim(), ...choices.options.map((o) => `• ${o.title}`)].filter(Boolean).join('\n');
}

/** A location's words for the inbox preview and search ("Clínica Sonrisa, Calle Mayor 1"). */
export function locationText(location: { name?: string; address?: string; latitude: number; longitude: number }): string {
  return [location.name, location.address].filter(Boolean).join(', ') || `${location.latitude}, ${location.longitude}`;
}

/** What Meta is sent for a stored outgoing message (media with its current Meta id); null = a text. */
export function contentOf(message: Pick<StoredMessage, 'type' | 'body' | 'media' | 'location' | 'interactive'>, mediaId?: string): OutboundContent | null {
  if (message.type === 'location' && message.location) return { type: 'location', location: message.location };
  if (message.type === 'interactive' && message.interactive) return { type: 'interactive', body: message.body, interactive: message.interactive };
  if (MEDIA_SEND_TYPES.has(message.type) && message.media) {
    const id = mediaId ?? message.media.id;
    if (!id) return null;
    const { caption, filename } = message.media;
    return {
      type: message.type as 'image' | 'document' | 'audio' | 'video',
      mediaId: id,
      ...(caption ? { caption } : {}),
      ...(filename ? { fileName: filename } : {}),
    };
  }
  return null;
}

/** A stored file whose Meta media id is missing or too old to send by, and our copy could not be sent from. */
export class MediaNotSendableError extends Error {
  constructor(readonly reason: 'no_copy' | 'upload_failed') {
    super(reason === 'no_copy' ? 'The file is no longer stored' : 'The file could not be uploaded to WhatsApp');
    this.name = 'MediaNotSendableError';
  }
}

/** Bytes of our copy a Meta upload may read whole (the kind's attachment limit; Meta's own limit above it). */
export const uploadMaxBytes = (kind: string) => (kind === 'image' ? MEDIA_LIMITS.attachmentMaxBytes.image : MEDIA_LIMITS.attachmentMaxBytes.document);

/**
 * Meta's media id for a stored outgoing file: the stored one while fresh, else our copy uploaded
 * again. Throws MediaNotSendableError when neither works, a GraphMediaError/GraphError as the
 * upload threw it.
 */
export async function mediaIdFor(deps: StoredSendDeps, credentials: WhatsAppCredentials, message: StoredMessage): Promise<string | undefined> {
  const media = message.media;
  if (!media || !MEDIA_SEND_TYPES.has(message.type)) return undefined;
  const now = deps.now ?? Date.now;
  const fresh = media.id && now() - Date.parse(message.createdAt) < MEDIA_ID_DAYS * DAY_MS;
  if (fresh) return media.id;
  if (!media.storedKey || !deps.mediaUpload) {
    if (media.id) return media.id;
    throw new MediaNotSendableError('no_copy');
  }
  const bytes = await deps.mediaUpload.objects.get(media.storedKey, uploadMaxBytes(message.type));
  if (!bytes) throw new MediaNotSendableError('no_copy');
  const { mediaId } = await deps.mediaUpload.client.upload(credentials, { bytes, mimeType: media.mimeType ?? 'application/octet-stream', fileName: media.filename ?? 'file' });
  return mediaId;
}

/**
 * Sends a stored outgoing message in its own shape, with its id as Meta's reference. A client
 * without content sends (a test double) sends the text.
 */
export async function sendStoredMessage(deps: StoredSendDeps, credentials: WhatsAppCredentials, to: string, message: StoredMessage): Promise<{ messageId: string }> {
  const options = { reference: message.id };
  const { sendContent } = deps.graph;
  if (sendContent && message.type !== 'chat') {
    const content = contentOf(message, await mediaIdFor(deps, credentials, message));
    if (content) return sendContent.call(deps.graph, credentials, to, content, options);
  }
  return deps.graph.sendText(credentials, to, message.body, options);
}

/**
 * What the agent reads of its own earlier message in the history: the text, with the options it
 * offered (a tapped one comes back as the customer's next message), or what it sent.
 */
export function assistantTextOf(message: Pick<StoredMessage, 'type' | 'body' | 'media' | 'location' | 'interactive'>): string {
  if (message.type === 'interactive' && message.interactive) return `${message.body} (options: ${message.interactive.options.map((o) => o.title).join(' / ')})`;
  if (message.type === 'location' && message.location) return `[Sent the business location: ${locationText(message.location)}]`;
  if (MEDIA_SEND_TYPES.has(message.type) && message.media) {
    const sent = `[Sent the file ${message.media.filename ?? message.type}]`;
    return message.body.trim() ? `${sent} ${message.body}` : sent;
  }
  return message.body;
}
