import { describe, expect, it } from 'vitest';
import { NO_ANSWER_REASONS, NOTIFICATION_KINDS } from '@agentdesk/functions/contract';
import en from './en.json';
import es from './es.json';
import { keyPaths as keys } from '../../../i18n/keyPaths';
import { notificationHref } from '../format';

describe('notifications strings', () => {
  it('has every English key in Spanish too, and a title for every kind', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    expect(Object.keys(en.kinds).sort()).toEqual([...NOTIFICATION_KINDS].sort());
    expect(Object.keys(en.noAnswerReasons).sort()).toEqual([...NO_ANSWER_REASONS].sort());
  });

  it('says it in Spanish as the customers read it', () => {
    expect([es.title, es.markAllRead, es.kinds.conversation_escalated, es.kinds.call_escalated, es.empty]).toEqual([
      'Notificaciones',
      'Marcar todo como leído',
      'Conversación escalada',
      'Llamada escalada',
      'No hay notificaciones',
    ]);
  });

  it('opens the conversation on the board and the call on its page', () => {
    expect(notificationHref({ kind: 'conversation_escalated', subjectId: '01ABC' })).toBe('/conversations?open=01ABC');
    expect(notificationHref({ kind: 'call_escalated', subjectId: 'C/1' })).toBe('/voice-conversations/C%2F1');
    // Issue 34: an integration whose credentials were refused opens the integrations page.
    expect(notificationHref({ kind: 'integration_needs_attention', subjectId: 'whatsapp-business' })).toBe('/integrations');
    // Issue 34: customers' messages the agent could not answer: the board with "Answer waiting messages".
    expect(notificationHref({ kind: 'messages_waiting', subjectId: 'openai' })).toBe('/conversations?waiting=1');
  });
});
