/**
 * A person's WhatsApp conversation as their export shows it (issue 33): each message as a plain
 * record (time, direction, who, text, media) for the JSON, and a readable transcript for the TXT,
 * one line per message in the account's language and time zone:
 *   2026-11-28 10:02 Cliente: Hola, ¿tenéis cita el jueves?
 *   2026-11-28 10:02 Agente: Sí, a las 17:00.
 */
import type { Language } from '../../contract/auth.js';
import type { StoredMessage } from '../conversations/ports.js';
import { storedSender } from '../conversations/sender.js';

export interface ExportedMessage {
  time: string;
  direction: 'in' | 'out';
  /** 'customer', 'agent' (the AI) or the member / API key that wrote it, by name. */
  sender: string;
  type: string;
  text: string;
  status: string;
  media: { kind: string; mimeType?: string; fileName?: string; caption?: string; transcript?: string; file?: string } | null;
  location: { name?: string; address?: string; latitude?: number; longitude?: number } | null;
}

const WORDS: Record<Language, { customer: string; agent: string; kinds: Record<string, string> }> = {
  en: {
    customer: 'Customer',
    agent: 'Agent',
    kinds: { image: 'Image', video: 'Video', audio: 'Audio', ptt: 'Voice note', document: 'Document', sticker: 'Sticker', location: 'Location', contacts: 'Contact card' },
  },
  es: {
    customer: 'Cliente',
    agent: 'Agente',
    kinds: { image: 'Imagen', video: 'Vídeo', audio: 'Audio', ptt: 'Nota de voz', document: 'Documento', sticker: 'Sticker', location: 'Ubicación', contacts: 'Tarjeta de contacto' },
  },
};

/** The message's own words: its text, else its caption, its transcript, its place. */
function textOf(m: StoredMessage): string {
  return (m.body || m.media?.caption || m.media?.transcript?.text || [m.location?.name, m.location?.address].filter(Boolean).join(', ') || '').trim();
}

/** `file`: where the media file is inside the export, when there is one. */
export function exportedMessage(m: StoredMessage, file?: string): ExportedMessage {
  const sender = storedSender(m.sender);
  const media = m.media
    ? {
        kind: m.type,
        ...(m.media.mimeType ? { mimeType: m.media.mimeType } : {}),
        ...(m.media.filename ? { fileName: m.media.filename } : {}),
        ...(m.media.caption ? { caption: m.media.caption } : {}),
        ...(m.media.transcript?.text ? { transcript: m.media.transcript.text } : {}),
        ...(file ? { file } : {}),
      }
    : null;
  return {
    time: m.createdAt,
    direction: m.fromMe ? 'out' : 'in',
    sender: !m.fromMe ? 'customer' : sender ? sender.name : 'agent',
    type: m.type,
    text: textOf(m),
    status: m.status,
    media,
    location: m.location ? { ...m.location } : null,
  };
}

/** "2026-11-28 10:02" in the zone (UTC when the zone is unknown). */
function localMinute(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  try {
    // Swedish writes dates as ISO does.
    return new Intl.DateTimeFormat('sv-SE', { ...options, timeZone }).format(at);
  } catch {
    return new Intl.DateTimeFormat('sv-SE', { ...options, timeZone: 'UTC' }).format(at);
  }
}

/** One transcript line per message (messages in time order). */
export function transcriptLines(messages: readonly ExportedMessage[], language: Language, timeZone: string): string {
  const words = WORDS[language] ?? WORDS.en;
  return messages
    .map((m) => {
      const who = m.direction === 'in' ? words.customer : m.sender === 'agent' ? words.agent : `${words.agent} (${m.sender})`;
      const kind = m.media || m.location ? words.kinds[m.type] : undefined;
      const mediaNote = kind ? `[${kind}${m.media?.fileName ? `: ${m.media.fileName}` : ''}]` : '';
      const text = [mediaNote, m.text.replace(/\s*\n\s*/g, ' ')].filter(Boolean).join(' ');
      return `${localMinute(m.time, timeZone)} ${who}: ${text}`;
    })
    .join('\n');
}
