import { describe, expect, it } from 'vitest';
import { bestPassage } from '../../../src/domain/knowledge/passage.js';

const marked = (p: { excerpt: string; highlights: [number, number][] }) => p.highlights.map(([a, b]) => p.excerpt.slice(a, b));

describe('bestPassage', () => {
  const hours = [
    'Horario de atención',
    'Día | Horario',
    'Lunes | 9:00–20:00',
    'Martes | 9:00–20:00',
    'Miércoles | 9:00–20:00',
    'Jueves | 9:00–20:00',
    'Viernes | 9:00–15:00',
    'Sábados | 10:00–14:00',
    'Domingos y festivos | cerrado',
    'Las citas se pueden cambiar hasta 24 horas antes sin coste alguno. Después se cobra una penalización de 20 €.',
  ].join('\n');

  it('picks the table row holding the answer and highlights it accent-insensitively', () => {
    const p = bestPassage(hours, '¿abrís los sabados?', 'es', 30);
    expect(p.excerpt).toContain('Sábados | 10:00–14:00');
    expect(p.excerpt.length).toBeLessThanOrEqual(30);
    expect(marked(p)).toEqual(['Sábados', '10:00', '14:00']); // "abrís" asks for the hours: the times are marked too
  });

  it('merges overlapping marks (a clock time and its digits) into one range', () => {
    const p = bestPassage('Sábados | 10:00–14:00', '¿abrís a las 10:00?', 'es', 100);
    expect(p.highlights).toEqual([[10, 15], [16, 21]]);
    expect(marked(p)).toEqual(['10:00', '14:00']);
  });

  it('widens the window with context while it fits, the answer kept', () => {
    const p = bestPassage(hours, 'horario del viernes', 'es', 80);
    expect(p.excerpt).toContain('Viernes | 9:00–15:00');
    expect(p.excerpt.length).toBeLessThanOrEqual(80);
    expect(marked(p)).toContain('Viernes');
  });

  it('prefers the sentence covering more query terms over one repeating a single term', () => {
    const p = bestPassage(hours, 'penalización por cambiar la cita', 'es', 120);
    expect(p.excerpt).toContain('penalización de 20 €');
    expect(marked(p).map((w) => w.toLowerCase())).toEqual(expect.arrayContaining(['citas', 'cambiar', 'penalización']));
  });

  it('cuts an over-long sentence around its first matching word, marking the cuts', () => {
    const long = `${'palabra '.repeat(60)}el depósito es de 150 € ${'otra '.repeat(60)}`.trim();
    const p = bestPassage(long, 'deposito', 'es', 60);
    expect(p.excerpt.length).toBeLessThanOrEqual(60);
    expect(p.excerpt.startsWith('…')).toBe(true);
    expect(p.excerpt.endsWith('…')).toBe(true);
    expect(marked(p)).toEqual(['depósito']);
  });

  it('falls back to the start of the text when no word matches, with no highlights', () => {
    const p = bestPassage(hours, 'aparcamiento', 'es', 40);
    expect(p.excerpt.startsWith('Horario de atención')).toBe(true);
    expect(p.excerpt.length).toBeLessThanOrEqual(40);
    expect(p.highlights).toEqual([]);
  });

  it('highlights English words by their stem', () => {
    const p = bestPassage('Rates. Electric bikes cost 30 per day. Helmets are included.', 'bike price per day', 'en', 200);
    expect(marked(p)).toEqual(['Rates', 'bikes', 'cost', 'day']); // "price" asks for the price: "Rates" and "cost" say it
  });
});
