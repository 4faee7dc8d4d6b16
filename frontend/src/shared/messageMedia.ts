/**
 * What a WhatsApp message carries besides text, as the inbox and the Message Hub show it (issue 31),
 * without React: the kind a message is shown as, the "🎤 Nota de voz" preview word, a duration
 * as m:ss, a size, the Google Maps link of a location, a contact card's tel: links, and when a
 * long text starts collapsed. Texts: shared/i18n/messageMedia.{en,es}.json (key `messageMedia`).
 */
import { MEDIA_FAILURE_REASONS, type MediaFailureReason, type MessageLocation } from '@agentdesk/functions/contract';
import i18n from '../i18n';
import { whatsappNumber } from './phone';
import en from './i18n/messageMedia.en.json';
import es from './i18n/messageMedia.es.json';

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('es', 'translation', es, true, false);

export const messageMediaStrings = { en, es };

/** The kinds a message is shown as (a ptt is a voice note; 'audio' an audio file). */
export const SHOWN_KINDS = ['ptt', 'audio', 'image', 'video', 'document', 'sticker', 'location', 'contacts', 'interactive'] as const;
export type ShownKind = (typeof SHOWN_KINDS)[number];

const EMOJI: Record<ShownKind, string> = {
  ptt: '🎤',
  audio: '🎵',
  image: '📷',
  video: '🎬',
  document: '📄',
  sticker: '💟',
  location: '📍',
  contacts: '👤',
  interactive: '🔘',
};

/** The kind a message type is shown as; null for text (and types the app does not know). */
export function shownKind(type: string | null | undefined): ShownKind | null {
  return (SHOWN_KINDS as readonly string[]).includes(type ?? '') ? (type as ShownKind) : null;
}

/** "🎤 Nota de voz": the board card's word before a media message's preview (its transcript, a file name…). */
export function kindPreview(type: string | null | undefined): string {
  const kind = shownKind(type);
  return kind && kind !== 'interactive' ? `${EMOJI[kind]} ${i18n.t(`messageMedia.kinds.${kind}`)}` : '';
}

/** The reason a customer's media could not be stored or understood, as a sentence for the owner. */
export function failureText(reason: string | undefined): string {
  if (!reason) return i18n.t('messageMedia.failures.unknown');
  return (MEDIA_FAILURE_REASONS as readonly string[]).includes(reason)
    ? i18n.t(`messageMedia.failures.${reason as MediaFailureReason}`)
    : i18n.t('messageMedia.failures.unknown');
}

/** 0:07, 3:25, 1:02:03. */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Google Maps at the coordinates (the Maps URLs API: opens the app on a phone). */
export function mapsUrl(location: Pick<MessageLocation, 'latitude' | 'longitude'>): string {
  return `https://www.google.com/maps/search/?api=1&query=${location.latitude},${location.longitude}`;
}

/** tel: link of a shared contact's number (as WhatsApp dials it: country code first), or null when it has no digits. */
export function telLink(phone: string): string | null {
  const digits = whatsappNumber(phone);
  return digits ? `tel:+${digits}` : null;
}

/** A transcript or a document preview longer than this starts collapsed. */
export const COLLAPSED_CHARS = 280;

export function startsCollapsed(text: string): boolean {
  return text.length > COLLAPSED_CHARS;
}
