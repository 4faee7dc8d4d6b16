import { describe, expect, it } from 'vitest';
import type { SavedReply } from '@agentdesk/functions/contract';
import { fold, insertSavedReply, matchSavedReplies, slashTrigger } from './match';

const reply = (title: string, text = `${title}…`): SavedReply => ({ _id: title, title, text, createdAt: '', updatedAt: '' });
const replies = [reply('Cita médica'), reply('Horario de apertura'), reply('Año nuevo'), reply('Precios'), reply('Recordatorio de cita')];
const titles = (query: string) => matchSavedReplies(replies, query).map((r) => r.title);

describe('saved replies: the / trigger', () => {
  it('opens at the start of the text or after a space, with what was typed up to the caret', () => {
    expect(slashTrigger('/cit', 4)).toEqual({ start: 0, end: 4, query: 'cit' });
    expect(slashTrigger('Hola /ci', 8)).toEqual({ start: 5, end: 8, query: 'ci' });
    expect(slashTrigger('Hola\n/', 6)).toEqual({ start: 5, end: 6, query: '' });
    // The caret decides: text after it is not part of the query.
    expect(slashTrigger('/cita y más', 3)).toEqual({ start: 0, end: 3, query: 'ci' });
  });

  it('stays closed inside a word, a URL or a date, without a slash, and across a line break', () => {
    expect(slashTrigger('y/o', 3)).toBeNull();
    expect(slashTrigger('https://example.com', 19)).toBeNull();
    expect(slashTrigger('el 12/05', 8)).toBeNull();
    expect(slashTrigger('Hola', 4)).toBeNull();
    expect(slashTrigger('/cita\nmañana', 12)).toBeNull();
  });
});

describe('saved replies: matching titles', () => {
  it('ignores case and accents both ways ("cita" finds "Cita médica", "medica" and "MÉDICA" too)', () => {
    expect(titles('cita')).toEqual(['Cita médica', 'Recordatorio de cita']);
    expect(titles('medica')).toEqual(['Cita médica']);
    expect(titles('MÉDICA')).toEqual(['Cita médica']);
    expect(titles('ano')).toEqual(['Año nuevo']);
    expect(titles('año')).toEqual(['Año nuevo']);
    expect(fold('Cita Médica Ñandú')).toBe('cita medica nandu');
  });

  it('puts titles that start with the query first, matches every word in any order, lists all for an empty query', () => {
    expect(titles('cit')).toEqual(['Cita médica', 'Recordatorio de cita']);
    expect(titles('cita recordatorio')).toEqual(['Recordatorio de cita']);
    expect(titles('')).toEqual(replies.map((r) => r.title));
    expect(titles('zapato')).toEqual([]);
  });
});

describe('saved replies: inserting the text', () => {
  it('replaces the /query with the reply and puts the caret after it, keeping the text around', () => {
    const text = 'Hola Lucía, /cit gracias';
    const trigger = slashTrigger(text, 16);
    expect(trigger).not.toBeNull();
    const out = insertSavedReply(text, trigger!, 'Su cita está confirmada.');
    expect(out.text).toBe('Hola Lucía, Su cita está confirmada. gracias');
    expect(out.caret).toBe('Hola Lucía, Su cita está confirmada.'.length);
  });

  it('replaces a / that opens the text', () => {
    expect(insertSavedReply('/ci', { start: 0, end: 3, query: 'ci' }, 'Mañana a las 10:00')).toEqual({ text: 'Mañana a las 10:00', caret: 18 });
  });
});
