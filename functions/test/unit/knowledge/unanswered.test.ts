import { describe, expect, it } from 'vitest';
import type { UnansweredQuestion } from '../../../src/contract/agents.js';
import { isRealQuestion } from '../../../src/domain/agents/runtime/question.js';
import { createUnansweredRecorder, groupUnanswered } from '../../../src/domain/knowledge/unanswered.js';

const q = (id: string, question: string, askedAt: string, over: Partial<UnansweredQuestion> = {}): UnansweredQuestion => ({
  _id: id,
  question,
  channel: 'chat',
  askedAt,
  ...over,
});

describe('groupUnanswered', () => {
  it('puts wordings of one question in one group (accents, plurals, stop words aside), most asked first, newest wording first', () => {
    const groups = groupUnanswered(
      [
        q('1', '¿Tenéis aparcamiento para clientes?', '2026-05-01T10:00:00Z'),
        q('2', '¿Aceptáis perros?', '2026-05-01T11:00:00Z'),
        q('3', '¿Hay aparcamiento para los clientes?', '2026-05-01T12:00:00Z'),
        q('4', 'tenéis aparcamiento', '2026-05-01T09:00:00Z'),
      ],
      'es',
    );

    expect(groups.map((g) => [g.question, g.count, g.lastAskedAt])).toEqual([
      ['¿Hay aparcamiento para los clientes?', 3, '2026-05-01T12:00:00Z'],
      ['¿Aceptáis perros?', 1, '2026-05-01T11:00:00Z'],
    ]);
    expect(groups[0]!.questions.map((x) => x._id)).toEqual(['3', '1', '4']);
  });

  it('different questions sharing one word stay apart', () => {
    const groups = groupUnanswered(
      [q('1', '¿Cuánto cuesta el parking?', '2026-05-01T10:00:00Z'), q('2', '¿Cuánto cuesta una limpieza dental?', '2026-05-01T11:00:00Z')],
      'es',
    );
    expect(groups).toHaveLength(2);
  });

  it('English questions group with the English analysis', () => {
    const groups = groupUnanswered([q('1', 'Do you have parking?', '2026-05-01T10:00:00Z'), q('2', 'Is there parking for customers?', '2026-05-01T11:00:00Z')], 'en');
    expect(groups).toHaveLength(1);
  });

  it('nothing → no groups', () => {
    expect(groupUnanswered([], 'es')).toEqual([]);
  });
});

describe('isRealQuestion', () => {
  it.each(['Hola', 'hola!', '¡Muchas gracias!', 'ok', 'Vale, gracias', 'Buenos días', 'thanks', 'Thank you!', 'hi there', '👍', ''])('small talk: %j', (m) => {
    expect(isRealQuestion(m, 'es')).toBe(false);
  });
  it.each(['¿y los sábados?', '¿Tenéis aparcamiento para clientes?', 'Hola, ¿abrís los domingos?', 'precio limpieza dental', 'Do you take credit cards?'])(
    'a question: %j',
    (m) => {
      expect(isRealQuestion(m, 'es')).toBe(true);
    },
  );
});

describe('the unanswered recorder', () => {
  it('stores the question with where it was asked (time-sortable id, ISO time)', async () => {
    const added: unknown[] = [];
    const record = createUnansweredRecorder({ store: { add: async (...args) => void added.push(args) }, newId: (now) => `id-${now}`, now: () => Date.parse('2026-05-01T10:00:00Z') });

    await record('u1', 'a1', { question: '¿Hay parking?' }, { channel: 'whatsapp', conversationId: 'c1' });
    await record('u1', 'a1', null, { channel: 'chat' });

    expect(added).toEqual([
      ['u1', 'a1', { _id: `id-${Date.parse('2026-05-01T10:00:00Z')}`, question: '¿Hay parking?', channel: 'whatsapp', askedAt: '2026-05-01T10:00:00.000Z', conversationId: 'c1' }],
    ]);
  });

  it('a failed write is logged and never thrown (the customer still gets the reply)', async () => {
    const errors: string[] = [];
    const record = createUnansweredRecorder({
      store: { add: () => Promise.reject(new Error('throttled')) },
      newId: () => 'x',
      onError: (m) => errors.push(m),
    });

    await expect(record('u1', 'a1', { question: '¿Hay parking?' }, { channel: 'voice', callId: 'k1' })).resolves.toBeUndefined();
    expect(errors).toEqual(['Could not record an unanswered question']);
  });
});
