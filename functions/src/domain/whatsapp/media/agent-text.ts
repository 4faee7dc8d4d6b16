/**
 * What the agent reads of a customer's message, as text (issue 31): its words, a voice note's
 * transcript, a document's text, a location, contact cards, or a short English note for what it
 * cannot read (MEDIA_AGENT_NOTES: the model answers in the customer's language). Pure: the
 * history's media messages are read from what is stored on them (a document's preview); only the
 * message being answered gets more (understand.ts forAgent: the document's text, the photo).
 */
import { MEDIA_AGENT_NOTES, mediaKindOf } from '../../../contract/whatsapp-media.js';
import type { StoredMessage } from '../../conversations/ports.js';

export type AgentTextMessage = Pick<StoredMessage, 'type' | 'body' | 'media' | 'location' | 'contactCards'>;

const note = (text: string) => `[${text}]`;
const withWords = (lead: string, words: string) => (words.trim() ? `${lead}\n${words.trim()}` : lead);

/** The message before issue 31 (media never fetched): its caption, or what was sent. */
function legacyText(m: AgentTextMessage): string {
  if (m.body.trim()) return m.type === 'chat' ? m.body : `[${m.type}] ${m.body}`;
  if (m.media?.filename) return `[The customer sent a ${m.type}: ${m.media.filename}]`;
  return `[The customer sent a ${m.type === 'ptt' ? 'voice message' : m.type}]`;
}

function locationText(m: AgentTextMessage): string {
  const l = m.location!;
  const place = [l.name, l.address].filter((s): s is string => !!s?.trim()).join(', ');
  const at = `${l.latitude}, ${l.longitude}`;
  return withWords(note(`The customer shared a location: ${place ? `${place} (${at})` : at}${l.url ? ` ${l.url}` : ''}`), m.type === 'location' ? '' : m.body);
}

function contactsText(m: AgentTextMessage): string {
  const cards = (m.contactCards ?? []).map((c) => `${c.name || 'no name'}: ${c.phones.length ? c.phones.join(', ') : 'no phone number'}`);
  return note(`The customer shared ${cards.length === 1 ? 'a contact card' : 'contact cards'}: ${cards.join('; ')}`);
}

/**
 * The message as the agent reads it. `documentText`: the document's text read now (the message
 * being answered); otherwise a document shows its stored preview.
 */
export function agentText(m: AgentTextMessage, documentText?: string): string {
  if (m.location) return locationText(m);
  if (m.contactCards?.length) return contactsText(m);
  const kind = mediaKindOf(m.type);
  const media = m.media;
  if (!kind || !media?.state) return kind ? legacyText(m) : m.body;
  const caption = m.body;
  if (media.state === 'pending') return legacyText(m);
  switch (kind) {
    case 'audio': {
      const transcript = media.transcript;
      if (media.state === 'failed' || !transcript?.text.trim()) return withWords(note(MEDIA_AGENT_NOTES.voiceUnheard), caption);
      return transcript.truncated ? `${transcript.text}\n\n${note(MEDIA_AGENT_NOTES.voiceTruncated)}` : transcript.text;
    }
    case 'image':
      return withWords(media.state === 'failed' ? note(MEDIA_AGENT_NOTES.imageUnseen) : note('The customer sent a photo'), caption);
    case 'document': {
      if (media.state === 'failed') return withWords(note(media.failure === 'document_too_large' ? MEDIA_AGENT_NOTES.documentTooLarge : MEDIA_AGENT_NOTES.documentUnread), caption);
      const text = documentText ?? media.textPreview ?? '';
      const name = media.filename ? ` ${media.filename}` : '';
      const doc = text.trim() ? `[The customer sent the document${name}:]\n${text.trim()}` : note(MEDIA_AGENT_NOTES.documentUnread);
      return caption.trim() ? `${caption.trim()}\n\n${doc}` : doc;
    }
    case 'video':
      return withWords(note(MEDIA_AGENT_NOTES.video), caption);
    case 'sticker':
      return note(MEDIA_AGENT_NOTES.sticker);
  }
}
