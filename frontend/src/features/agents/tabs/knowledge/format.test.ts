import { describe, expect, it } from 'vitest';
import type { UnansweredGroup } from '@agentdesk/functions/contract';
import { askedWhere, formatRelative, fromPercent, groupChannels, otherWordings, toPercent } from './format';

const NOW = Date.parse('2026-05-05T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

const group: UnansweredGroup = {
  question: '¿Abrís los sábados?',
  count: 3,
  lastAskedAt: ago(120),
  questions: [
    { _id: 'q1', question: '¿Abrís los sábados?', channel: 'whatsapp', askedAt: ago(120) },
    { _id: 'q2', question: '¿abrís  los sábados?', channel: 'chat', askedAt: ago(3_600) },
    { _id: 'q3', question: '¿Y los sábados por la tarde?', channel: 'whatsapp', askedAt: ago(86_400) },
  ],
};

describe('knowledge tab formats', () => {
  it('says how long ago in the UI language', () => {
    expect(formatRelative('es', ago(180), NOW)).toBe('hace 3 minutos');
    expect(formatRelative('en', ago(180), NOW)).toBe('3 minutes ago');
    expect(formatRelative('es', ago(86_400), NOW)).toBe('ayer');
    expect(formatRelative('en', ago(5), NOW)).toBe('now');
    expect(formatRelative('es', 'not a date', NOW)).toBe('');
  });

  it('turns the threshold into a slider percentage and back', () => {
    expect(toPercent(0.35)).toBe(35);
    expect(toPercent(1.7)).toBe(100);
    expect(fromPercent(42)).toBe(0.42);
    expect(fromPercent(-5)).toBe(0);
  });

  it('lists a group\'s channels once and its other wordings', () => {
    expect(groupChannels(group)).toEqual(['chat', 'whatsapp']);
    expect(otherWordings(group)).toEqual(['¿Y los sábados por la tarde?']);
  });

  it('links the newest question that has a place: the WhatsApp conversation or the call', () => {
    expect(askedWhere(group)).toBeNull();
    const withPlaces = {
      questions: [
        { _id: 'a', question: '¿Y los sábados?', channel: 'chat' as const, askedAt: ago(10) },
        { _id: 'b', question: '¿Y los sábados?', channel: 'whatsapp' as const, askedAt: ago(20), conversationId: 'conv/1' },
        { _id: 'c', question: '¿Y los sábados?', channel: 'voice' as const, askedAt: ago(30), callId: 'CA1' },
      ],
    };
    expect(askedWhere(withPlaces)).toEqual({ kind: 'conversation', href: '/conversations?open=conv%2F1' });
    expect(askedWhere({ questions: withPlaces.questions.slice(2) })).toEqual({ kind: 'call', href: '/voice-conversations/CA1' });
  });
});
