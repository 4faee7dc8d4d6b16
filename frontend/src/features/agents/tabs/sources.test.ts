import { describe, expect, it } from 'vitest';
import { highlightPieces, isLongPassage, sourcePage } from './sources';
import { formatPercent } from '../../../shared/intl';

const marked = (pieces: { text: string; mark: boolean }[]) => pieces.filter((p) => p.mark).map((p) => p.text);
const joined = (pieces: { text: string }[]) => pieces.map((p) => p.text).join('');

describe('sources panel passage', () => {
  it('marks the ranges and keeps every character of the passage', () => {
    const text = 'Sábado | 10:00–14:00 (los sábados abrimos por la mañana)';
    const at = text.indexOf('sábados');
    const pieces = highlightPieces(text, [[0, 6], [at, at + 'sábados'.length]]);
    expect(marked(pieces)).toEqual(['Sábado', 'sábados']);
    expect(joined(pieces)).toBe(text);
    expect(pieces[0]).toEqual({ text: 'Sábado', mark: true });
  });

  it('merges overlapping ranges, sorts them, clamps them to the text and drops empty or inverted ones', () => {
    const text = 'Limpieza dental: 60 €';
    const pieces = highlightPieces(text, [[9, 15], [0, 4], [2, 8], [5, 5], [12, 3], [17, 99]]);
    expect(marked(pieces)).toEqual(['Limpieza', 'dental', '60 €']);
    expect(joined(pieces)).toBe(text);
  });

  it('shows the passage whole without highlights', () => {
    expect(highlightPieces('Sin coincidencias', [])).toEqual([{ text: 'Sin coincidencias', mark: false }]);
    expect(highlightPieces('Texto', undefined)).toEqual([{ text: 'Texto', mark: false }]);
    expect(highlightPieces('', [[0, 3]])).toEqual([{ text: '', mark: false }]);
  });

  it('clamps long passages only', () => {
    expect(isLongPassage('corto')).toBe(false);
    expect(isLongPassage('x'.repeat(400))).toBe(true);
    expect(isLongPassage('a\nb\nc\nd\ne\nf')).toBe(true);
  });

  it('reads the page only when it is a real page number', () => {
    expect(sourcePage({ page: 3 })).toBe(3);
    expect(sourcePage({})).toBeNull();
    expect(sourcePage({ page: 0 })).toBeNull();
  });

  it('formats the absolute score as a percentage in the UI language', () => {
    expect(formatPercent('es', 0.82).replace(/\s/g, ' ')).toBe('82 %');
    expect(formatPercent('en', 0.82)).toBe('82%');
  });
});
