/** Issue 33: a conversation as a person's export shows it (domain/privacy/transcript.ts). */
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../../src/domain/conversations/ports.js';
import { exportedMessage, transcriptLines } from '../../../src/domain/privacy/transcript.js';

const base = {
  conversationId: 'C',
  waMessageId: 'wamid.1',
  contactId: '',
  hasMedia: false,
  to: '+34910000000',
  from: '+34612345678',
  phoneNumberId: { id: '1', name: '+34910000000' },
  status: 'delivered',
} as const;

const message = (over: Partial<StoredMessage>): StoredMessage =>
  ({ ...base, id: 'C-1', type: 'chat', fromMe: false, body: '', timestamp: '2026-11-28T09:02:00.000Z', createdAt: '2026-11-28T09:02:00.000Z', ...over }) as StoredMessage;

describe('a conversation in a person\'s export', () => {
  const messages = [
    message({ body: 'Hola, ¿tenéis cita el jueves?\nGracias' }),
    message({ fromMe: true, body: 'Sí, a las 17:00.', createdAt: '2026-11-28T09:03:00.000Z' }),
    message({ fromMe: true, body: 'Le atiende la doctora.', sender: { kind: 'member', id: 'p-1', name: 'Dra. Núñez' }, createdAt: '2026-11-28T09:04:00.000Z' }),
    message({ type: 'image', hasMedia: true, media: { mimeType: 'image/jpeg', caption: 'La muela', storedKey: 'whatsapp-media/a/C/C-1' }, createdAt: '2026-11-28T23:30:00.000Z' }),
    message({ type: 'ptt', hasMedia: true, media: { mimeType: 'audio/ogg', transcript: { text: 'Me duele mucho' } as never }, createdAt: '2026-11-28T23:31:00.000Z' }),
  ].map((m, i) => exportedMessage(m, i === 3 ? 'conversations/x/media/1.jpg' : undefined));

  it('keeps time, direction, who, the words and the media kinds (never our storage key)', () => {
    expect(messages[0]).toEqual({ time: '2026-11-28T09:02:00.000Z', direction: 'in', sender: 'customer', type: 'chat', text: 'Hola, ¿tenéis cita el jueves?\nGracias', status: 'delivered', media: null, location: null });
    expect(messages[1]).toMatchObject({ direction: 'out', sender: 'agent' });
    expect(messages[2]).toMatchObject({ direction: 'out', sender: 'Dra. Núñez' });
    expect(messages[3]).toMatchObject({ text: 'La muela', media: { kind: 'image', mimeType: 'image/jpeg', caption: 'La muela', file: 'conversations/x/media/1.jpg' } });
    expect(messages[4]).toMatchObject({ text: 'Me duele mucho', media: { kind: 'ptt', transcript: 'Me duele mucho' } });
    expect(JSON.stringify(messages)).not.toContain('whatsapp-media/');
  });

  it('reads as a transcript in the account\'s language and time zone', () => {
    expect(transcriptLines(messages, 'es', 'Europe/Madrid').split('\n')).toEqual([
      '2026-11-28 10:02 Cliente: Hola, ¿tenéis cita el jueves? Gracias',
      '2026-11-28 10:03 Agente: Sí, a las 17:00.',
      '2026-11-28 10:04 Agente (Dra. Núñez): Le atiende la doctora.',
      '2026-11-29 00:30 Cliente: [Imagen] La muela',
      '2026-11-29 00:31 Cliente: [Nota de voz] Me duele mucho',
    ]);
    expect(transcriptLines(messages.slice(0, 2), 'en', 'Not/AZone').split('\n')).toEqual(['2026-11-28 09:02 Customer: Hola, ¿tenéis cita el jueves? Gracias', '2026-11-28 09:03 Agent: Sí, a las 17:00.']);
  });
});
