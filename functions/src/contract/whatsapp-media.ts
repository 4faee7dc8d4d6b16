/**
 * WhatsApp media both ways (issue 31): what a customer's voice note, photo, document, location or
 * contact card becomes, and what the agent and the owner may send back (files, the business's
 * location, reply buttons and lists). Browser-safe: no Node imports. Every limit in one place.
 *
 * Inbound media is fetched by the whatsapp-inbound worker through the Graph media API
 * (GET /{media-id} → a URL valid for minutes → download with the business token), checked
 * against Meta's size limits and the declared sha256, and stored encrypted in the uploads bucket
 * under the account (WHATSAPP_MEDIA_PREFIX). What the agent reads of it is stored on the message.
 */
import * as z from 'zod/mini';
import './zod-locale.js';

const MB = 1024 * 1024;

export const MEDIA_KINDS = ['audio', 'image', 'video', 'document', 'sticker'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export const MEDIA_LIMITS = {
  /**
   * Meta's own limits per media type (Cloud API "Supported media types"): a download bigger than
   * this, or bigger than Meta declared, is refused while it streams (never held whole).
   */
  maxBytes: { audio: 16 * MB, image: 5 * MB, video: 16 * MB, document: 100 * MB, sticker: 500 * 1024 } satisfies Record<MediaKind, number>,
  /**
   * A voice note is transcribed up to 10 minutes: Spanish voice notes are rarely over 3; 10 min is
   * ~1,500 spoken words, which fits the agent's prompt and stays a few cents; longer audio is cut
   * there and the customer is told the rest was not heard.
   */
  transcriptionMaxSeconds: 600,
  /** OpenAI's transcription upload limit (25 MB): Meta's 16 MB audio is under it. */
  transcriptionMaxBytes: 25 * MB,
  /** The transcription prompt (the business's own names): Whisper reads only its last 224 tokens. */
  transcriptionPromptChars: 800,
  /** A document is read (the knowledge extractors, with their safety limits) up to this size; bigger ones are stored, not read. */
  documentReadMaxBytes: 10 * MB,
  /** Characters of a document's text the agent reads for the conversation (the start of it). */
  documentTextChars: 20_000,
  /** Characters of a document's text kept on the message for the inbox (a preview) and search. */
  documentPreviewChars: 1_000,
  /** A photo reaches the model as an image input up to Meta's image limit (sent inline, base64). */
  imageInputMaxBytes: 5 * MB,
  /** Outbound: Meta's interactive limits. */
  buttons: { max: 3, titleChars: 20 },
  list: { maxRows: 10, titleChars: 24, descriptionChars: 72, buttonChars: 20, sectionTitleChars: 24 },
  interactiveBodyChars: 1024,
  /** Caption of an image or document Meta accepts. */
  captionChars: 1024,
  /** What an owner may attach from the inbox (Meta's image limit; documents bounded for the function's memory). */
  attachmentMaxBytes: { image: 5 * MB, document: 16 * MB },
  /** Presigned links for the dashboard (an audio player or an image stays playable this long). */
  viewUrlSeconds: 3600,
} as const;

/** Where customers' media live in the uploads bucket: `whatsapp-media/{userId}/{conversationId}/{messageId}`. */
export const WHATSAPP_MEDIA_PREFIX = 'whatsapp-media/';
/** Where an owner's attachment is uploaded by the browser before it is sent: `incoming/attachments/{userId}/{uploadId}`. */
export const ATTACHMENT_STAGING_PREFIX = 'incoming/attachments/';

/** What an owner may attach: images Meta shows inline, documents it sends as files. */
export const ATTACHMENT_TYPES = {
  image: ['image/jpeg', 'image/png'],
  document: [
    'application/pdf',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/msword',
    'text/plain',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.ms-excel',
  ],
} as const;

/**
 * Why a customer's media could not be stored or understood; the inbox shows the reason (en/es in
 * the frontend catalogues) and the agent is told what to ask for. Nothing is lost: the message is
 * stored whatever happens to its media.
 */
export const MEDIA_FAILURE_REASONS = [
  /** Meta no longer has it (404 on the media id). */
  'not_found',
  /** The download link expired on every try. */
  'expired',
  /** Bigger than Meta's limit for its type, or than Meta declared. */
  'too_large',
  /** The bytes do not match the sha256 Meta declared. */
  'checksum',
  /** Meta or our storage could not be reached on every try. */
  'download_failed',
  /** Not the kind it claims (an "audio" that is not audio, a document we cannot read). */
  'unreadable',
  /** The transcription provider failed (timeout, 429, 5xx) on every try, or is not connected. */
  'transcription_failed',
  /** The plan's minutes are used up: not transcribed. */
  'minutes_limit',
  /** A document over documentReadMaxBytes: stored, not read. */
  'document_too_large',
] as const;
export type MediaFailureReason = (typeof MEDIA_FAILURE_REASONS)[number];

/** A voice note or audio as text (OpenAI audio transcription). */
export interface MediaTranscript {
  text: string;
  /** BCP-47 / ISO 639-1 language the provider heard (or the hint when it gave none). */
  language: string;
  /** Seconds of audio (the whole file, even when only the first transcriptionMaxSeconds were heard). */
  durationSeconds: number;
  /** Only the first MEDIA_LIMITS.transcriptionMaxSeconds were transcribed. */
  truncated?: boolean;
}

/**
 * How far the worker got with a customer's media: `pending` (stored message, media not fetched
 * yet), `stored` (in our bucket, and understood when its kind is), `failed` (with the reason).
 */
export const MEDIA_STATES = ['pending', 'stored', 'failed'] as const;
export type MediaState = (typeof MEDIA_STATES)[number];

/** A location a customer shared, or the business's location the agent sent. */
export interface MessageLocation {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
  url?: string;
}

/** A contact card a customer shared (name and numbers, as Meta sends them). */
export interface MessageContactCard {
  name: string;
  phones: string[];
}

/** One choice of reply buttons or a list; `id` comes back when the customer taps it. */
export interface InteractiveOption {
  id: string;
  title: string;
  description?: string;
}

/** Reply buttons (≤ 3) or a list (≤ 10 rows) sent with a text (an outgoing message of type 'interactive'). */
export interface MessageInteractive {
  kind: 'buttons' | 'list';
  options: InteractiveOption[];
  /** The list's button text ("Ver opciones"). */
  buttonLabel?: string;
}

/** The option a customer tapped (an inbound button_reply / list_reply; its title is also the message's body). */
export interface InteractiveReply {
  id: string;
  title: string;
}

/** The business location's field limits (the API and the form's inputs stop at the same ones). */
export const BUSINESS_LOCATION_LIMITS = { name: 100, address: 300, coordinates: 2000 } as const;

/** The business's location (Profile → Business location), sent by the agent's send_location tool. */
export interface BusinessLocation {
  name: string;
  address: string;
  latitude: number;
  longitude: number;
}

/** The agent's built-in WhatsApp tools, each switched per agent (all off by default). */
export interface AgentWhatsAppTools {
  /** send_file: files of the agent marked "can be sent to customers". */
  sendFiles: boolean;
  /** send_location: the business location from the profile. */
  sendLocation: boolean;
  /** offer_choices: reply buttons (≤ 3) or a list (≤ 10) when the agent offers options. */
  offerChoices: boolean;
}
export const WHATSAPP_TOOLS_OFF: AgentWhatsAppTools = { sendFiles: false, sendLocation: false, offerChoices: false };

/** Every server text of the feature (Spanish in the frontend catalogues, as the other features). */
export const mediaMessages = {
  // Business location (PUT /api/user/business-location)
  locationNameRequired: 'Business name is required',
  locationNameTooLong: `Business name must be ${BUSINESS_LOCATION_LIMITS.name} characters or less`,
  locationAddressRequired: 'Address is required',
  locationAddressTooLong: `Address must be ${BUSINESS_LOCATION_LIMITS.address} characters or less`,
  locationCoordinatesInvalid: 'Enter the coordinates as latitude, longitude (e.g. 40.4168, -3.7038) or paste a Google Maps link',
  locationSaved: 'Business location saved',
  locationCleared: 'Business location removed',
  // Agent tools and files
  whatsappToolsInvalid: 'WhatsApp tools must be switched on or off (true or false)',
  shareableInvalid: '"Can be sent to customers" must be true or false',
  fileShareableOn: 'The agent can now send this file to customers',
  fileShareableOff: 'The agent no longer sends this file',
  // Owner attachments (POST /api/conversations/{id}/attachments, then the reply)
  attachmentTypeInvalid: 'Attach an image (JPG, PNG) or a document (PDF, Word, Excel, text)',
  attachmentTooLarge: 'The file is too large: images up to 5 MB, documents up to 16 MB',
  attachmentFileNameRequired: 'File name is required',
  attachmentFileNameTooLong: 'File name must be 200 characters or less',
  attachmentNotUploaded: 'The file was not uploaded, or its upload expired. Attach it again.',
  attachmentIdInvalid: 'Attachment id is invalid',
  captionTooLong: `Caption must be ${MEDIA_LIMITS.captionChars} characters or less`,
  attachmentSent: 'File sent',
  // What the agent sends after its reply (a file, the location), stored failed with why
  outboundFileGone: 'The file was not sent: it is no longer stored. Check the agent’s files.',
  outboundFileTooLarge: 'The file was not sent: it is too large for WhatsApp (images up to 5 MB, documents up to 16 MB).',
} as const;

/**
 * What the agent reads for a media message it could not fully understand: short instructions in
 * English (the model answers in the customer's language), never shown to a person.
 */
export const MEDIA_AGENT_NOTES = {
  voiceUnheard: 'The customer sent a voice message that could not be transcribed. Apologise briefly and ask them to write their message.',
  voiceTruncated: `The customer's voice message was longer than ${MEDIA_LIMITS.transcriptionMaxSeconds / 60} minutes; only its beginning was heard. Answer it and tell them you heard only the first ${MEDIA_LIMITS.transcriptionMaxSeconds / 60} minutes.`,
  imageUnseen: 'The customer sent a photo that could not be opened. Ask them to send it again or describe it.',
  documentUnread: 'The customer sent a document that could not be read. Ask them to send it as a PDF or to write what it says.',
  documentTooLarge: 'The customer sent a document too large to read. Ask them what they need from it.',
  video: 'The customer sent a video, which you cannot watch. Acknowledge it politely and ask what they need.',
  sticker: 'The customer sent a sticker. React naturally and briefly.',
} as const;

// ---------------------------------------------------------------------------------------------
// Requests

const coordinate = (min: number, max: number) => z.number().check(z.gte(min), z.lte(max));

/** PUT /api/user/business-location: `coordinates` as "lat, lng" or a Google Maps link (parsed by the server); null clears it. */
export const businessLocationRequest = z.object({
  name: z.string({ error: mediaMessages.locationNameRequired }).check(z.trim(), z.minLength(1, mediaMessages.locationNameRequired), z.maxLength(BUSINESS_LOCATION_LIMITS.name, mediaMessages.locationNameTooLong)),
  address: z
    .string({ error: mediaMessages.locationAddressRequired })
    .check(z.trim(), z.minLength(1, mediaMessages.locationAddressRequired), z.maxLength(BUSINESS_LOCATION_LIMITS.address, mediaMessages.locationAddressTooLong)),
  coordinates: z.string({ error: mediaMessages.locationCoordinatesInvalid }).check(z.trim(), z.minLength(1, mediaMessages.locationCoordinatesInvalid), z.maxLength(BUSINESS_LOCATION_LIMITS.coordinates, mediaMessages.locationCoordinatesInvalid)),
});
export type BusinessLocationInput = z.infer<typeof businessLocationRequest>;

/** The stored location's schema (strict on the way in). */
export const businessLocationSchema = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(BUSINESS_LOCATION_LIMITS.name)),
  address: z.string().check(z.minLength(1), z.maxLength(BUSINESS_LOCATION_LIMITS.address)),
  latitude: coordinate(-90, 90),
  longitude: coordinate(-180, 180),
});

/**
 * "lat, lng" (a comma or a space between; a decimal comma is not accepted: "40,4168" is ambiguous),
 * or a Google Maps link with @lat,lng, ?q=lat,lng, ?ll= or !3dlat!4dlng. Null when none is found.
 */
export function parseCoordinates(text: string): { latitude: number; longitude: number } | null {
  const patterns = [/@(-?\d{1,3}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)/, /!3d(-?\d{1,3}(?:\.\d+)?)!4d(-?\d{1,3}(?:\.\d+)?)/, /[?&](?:q|ll|query|destination)=(-?\d{1,3}(?:\.\d+)?)(?:,|%2C)\s*(-?\d{1,3}(?:\.\d+)?)/i, /^\s*(-?\d{1,3}(?:\.\d+)?)\s*[,;\s]\s*(-?\d{1,3}(?:\.\d+)?)\s*$/];
  for (const pattern of patterns) {
    const m = pattern.exec(text);
    if (!m) continue;
    const latitude = Number(m[1]);
    const longitude = Number(m[2]);
    if (Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180) return { latitude, longitude };
  }
  return null;
}

/** PATCH /api/agents/{id}/files/{fileId}: the "can be sent to customers" switch. */
export const agentFileShareRequest = z.object({ shareable: z.boolean({ error: mediaMessages.shareableInvalid }) });

/** POST /api/conversations/{id}/attachments: a presigned upload for a file the owner attaches to a reply. */
export const attachmentUploadRequest = z.object({
  fileName: z
    .string({ error: mediaMessages.attachmentFileNameRequired })
    .check(z.trim(), z.minLength(1, mediaMessages.attachmentFileNameRequired), z.maxLength(200, mediaMessages.attachmentFileNameTooLong)),
  mimeType: z.string({ error: mediaMessages.attachmentTypeInvalid }).check(z.refine((t) => attachmentKindOf(t) !== null, mediaMessages.attachmentTypeInvalid)),
  size: z.number({ error: mediaMessages.attachmentTooLarge }).check(z.int(), z.gte(1, mediaMessages.attachmentTooLarge)),
});
export type AttachmentUploadInput = z.infer<typeof attachmentUploadRequest>;

/**
 * POST /api/conversations/{id}/attachments data: the browser POSTs `fields` then the file as
 * `file` (multipart/form-data) to `url` before `expiresAt`; storage refuses another type, a size
 * over `maxBytes` or another key. Then the reply carries `attachment: {uploadId}`.
 */
export interface AttachmentUploadTicket {
  uploadId: string;
  kind: 'image' | 'document';
  /** The file name the customer sees (as given, without a path). */
  fileName: string;
  mimeType: string;
  maxBytes: number;
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}

/** The attachment of a reply (POST /api/conversations/{id}/messages `attachment`): the upload's id. */
export const replyAttachment = z.object({
  uploadId: z.string({ error: mediaMessages.attachmentIdInvalid }).check(z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, mediaMessages.attachmentIdInvalid)),
});

/** 'image' or 'document' for an attachable MIME type; null otherwise. */
export function attachmentKindOf(mimeType: string): 'image' | 'document' | null {
  const type = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if ((ATTACHMENT_TYPES.image as readonly string[]).includes(type)) return 'image';
  if ((ATTACHMENT_TYPES.document as readonly string[]).includes(type)) return 'document';
  return null;
}

/** The Graph media kind of a customer's message type ('ptt' is a voice note: audio). */
export function mediaKindOf(messageType: string): MediaKind | null {
  if (messageType === 'ptt') return 'audio';
  return (MEDIA_KINDS as readonly string[]).includes(messageType) ? (messageType as MediaKind) : null;
}
