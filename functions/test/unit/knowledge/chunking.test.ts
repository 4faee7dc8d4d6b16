import { describe, expect, it } from 'vitest';
import { chunkDocument, DEFAULT_CHUNKING, renderTable, type ChunkingOptions } from '../../../src/domain/knowledge/chunking.js';
import type { DocumentBlock } from '../../../src/domain/knowledge/ports.js';
import { KnowledgeSourceError } from '../../../src/domain/knowledge/errors.js';

/** A sentence of exactly `n` characters (ends with a period), distinct per `id`. */
const sentence = (id: number, n = 100) => {
  const head = `Sentence ${id} says`;
  return `${head}${' word'.repeat(Math.ceil(n / 5)).slice(0, n - head.length - 1)}.`;
};

/** Plain text as one paragraph block (what a TXT without tables or headings extracts to): the chunks' texts. */
const chunkText = (text: string, options: Partial<ChunkingOptions> = {}) => chunkDocument({ blocks: [{ kind: 'paragraph', text }] }, options).map((c) => c.text);

describe('chunkDocument: paragraphs', () => {
  it('returns nothing for empty or whitespace-only text', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText(' \n\t\r\n \u00a0 ')).toEqual([]);
  });

  it('keeps a short text as one chunk with its whitespace normalised', () => {
    const chunks = chunkText('  Opening   hours:\r\n\r\n\r\n\r\nMonday\tto Friday,\u00a09 to 5.  ');
    expect(chunks).toEqual(['Opening hours:\n\nMonday to Friday, 9 to 5.']);
  });

  it('makes chunks of ~1,000–1,500 characters that never cut a sentence', () => {
    const sentences = Array.from({ length: 120 }, (_, i) => sentence(i, 100 + (i % 7) * 13));
    const paragraphs = [];
    for (let i = 0; i < sentences.length; i += 4) paragraphs.push(sentences.slice(i, i + 4).join(' '));
    const chunks = chunkText(paragraphs.join('\n\n'));

    expect(chunks.length).toBeGreaterThan(8);
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThanOrEqual(1000);
      expect(chunk.length).toBeLessThanOrEqual(DEFAULT_CHUNKING.maxChars);
    }
    // Every chunk starts at a sentence and ends at one.
    for (const chunk of chunks) {
      expect(chunk).toMatch(/^Sentence \d+ says/);
      expect(chunk).toMatch(/\.$/);
    }
    // Every sentence is whole in some chunk.
    for (const s of sentences) expect(chunks.some((c) => c.includes(s))).toBe(true);
  });

  it('overlaps consecutive chunks by roughly 15% (whole trailing sentences)', () => {
    const text = Array.from({ length: 60 }, (_, i) => sentence(i, 90)).join(' ');
    const chunks = chunkText(text);

    expect(chunks.length).toBeGreaterThan(3);
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!;
      const next = chunks[i]!;
      // The next chunk starts with the last sentences of the previous one.
      const firstSentence = next.slice(0, next.indexOf('.') + 1);
      expect(prev).toContain(firstSentence);
      let shared = Math.min(prev.length, next.length);
      while (shared > 0 && !prev.endsWith(next.slice(0, shared))) shared--;
      expect(shared).toBeGreaterThanOrEqual(DEFAULT_CHUNKING.overlapChars);
      expect(shared).toBeLessThanOrEqual(DEFAULT_CHUNKING.overlapChars * 2);
    }
  });

  it('keeps paragraph breaks inside a chunk', () => {
    const chunks = chunkText('First paragraph here.\n\nSecond paragraph here.\nSame paragraph, next line.');
    expect(chunks).toEqual(['First paragraph here.\n\nSecond paragraph here.\nSame paragraph, next line.']);
  });

  it('splits an over-long sentence at line breaks, then between words, and hard-cuts one giant word', () => {
    const lines = Array.from({ length: 120 }, (_, i) => `Item ${i} costs ${i * 10} euros`).join('\n'); // no sentence end
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const giant = 'x'.repeat(4000);

    for (const text of [lines, words, giant]) {
      const chunks = chunkText(text);
      expect(chunks.length).toBeGreaterThan(1);
      for (const c of chunks) expect(c.length).toBeLessThanOrEqual(DEFAULT_CHUNKING.maxChars);
    }
    const lineChunks = chunkText(lines);
    for (let i = 0; i < 120; i++) expect(lineChunks.some((c) => c.includes(`Item ${i} costs ${i * 10} euros`))).toBe(true);
    expect(chunkText(words).every((c) => /^w\d+( w\d+)*$/.test(c))).toBe(true);
  });

  it('drops chunks without real content (page numbers, rules)', () => {
    expect(chunkText('12')).toEqual([]);
    expect(chunkText('----\n\n* * *')).toEqual([]);
    expect(chunkText('Open 9-5')).toEqual(['Open 9-5']);
  });

  it('fails with a reason for the user beyond the cap of chunks per source', () => {
    const text = Array.from({ length: 40 }, (_, i) => sentence(i, 400)).join(' ');

    expect(chunkText(text, { maxChunks: 100 }).length).toBeLessThanOrEqual(100);
    expect(() => chunkText(text, { maxChunks: 5 })).toThrow(KnowledgeSourceError);
    expect(() => chunkText(text, { maxChunks: 5 })).toThrow(/more than 5 sections/);
  });

  it('refuses a text far beyond the cap before working on it', () => {
    const huge = 'word '.repeat(2_500_000); // 12.5 M characters
    const t0 = performance.now();
    expect(() => chunkText(huge)).toThrow(/more than 2,000 sections/);
    expect(performance.now() - t0).toBeLessThan(100);
  });

  it('chunks a 1.8 MB text within the default cap quickly', () => {
    const text = Array.from({ length: 15_000 }, (_, i) => sentence(i, 120)).join(' ');
    const t0 = performance.now();
    const chunks = chunkText(text);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(chunks.length).toBeLessThanOrEqual(DEFAULT_CHUNKING.maxChunks);
    expect(chunks.length).toBeGreaterThan(1500);
  });
});

describe('chunkDocument: headings and tables', () => {
  const hours: DocumentBlock = {
    kind: 'table',
    header: true,
    rows: [['Día', 'Horario'], ['Lunes', 'Cerrado'], ['Viernes', '9:00–15:00'], ['Sábados', '10:00–14:00']],
  };

  it('starts a chunk at each heading, the heading path first in its text and in `headings`', () => {
    const chunks = chunkDocument({
      blocks: [
        { kind: 'heading', level: 1, text: 'La Tasca', page: 1 },
        { kind: 'paragraph', text: 'Cocina andaluza desde 1987.', page: 1 },
        { kind: 'heading', level: 2, text: 'Horario', page: 2 },
        { ...hours, page: 2 },
        { kind: 'heading', level: 2, text: 'Reservas', page: 3 },
        { kind: 'paragraph', text: 'Por WhatsApp o teléfono.', page: 3 },
      ],
    });
    expect(chunks).toEqual([
      { text: 'La Tasca\nCocina andaluza desde 1987.', page: 1, headings: ['La Tasca'] },
      { text: 'La Tasca › Horario\nDía | Horario\nLunes | Cerrado\nViernes | 9:00–15:00\nSábados | 10:00–14:00', page: 2, headings: ['La Tasca', 'Horario'] },
      { text: 'La Tasca › Reservas\nPor WhatsApp o teléfono.', page: 3, headings: ['La Tasca', 'Reservas'] },
    ]);
    expect(chunkDocument({ blocks: [{ kind: 'heading', level: 1, text: 'Horario' }, hours] }, { headingContext: 'none' })[0]!.text).toMatch(/^Día \| Horario\n/);
  });

  it('never splits a table row, closes table chunks at ~300 characters and repeats the header line atop each', () => {
    const rows = [['Tratamiento', 'Precio'], ...Array.from({ length: 80 }, (_, i) => [`Tratamiento dental número ${i} con anestesia local`, `${100 + i} €`])];
    const chunks = chunkDocument({ blocks: [{ kind: 'heading', level: 2, text: 'Tarifas' }, { kind: 'table', header: true, rows }] });

    expect(chunks.length).toBeGreaterThan(2);
    const seen: string[] = [];
    for (const chunk of chunks) {
      const lines = chunk.text.split('\n');
      expect(lines.slice(0, 2)).toEqual(['Tarifas', 'Tratamiento | Precio']);
      expect(chunk.text.length).toBeLessThanOrEqual(DEFAULT_CHUNKING.tableTargetChars + 60);
      for (const line of lines.slice(2)) {
        expect(line).toMatch(/^Tratamiento dental número \d+ con anestesia local \| \d+ €$/);
        seen.push(line);
      }
    }
    // Every row exactly once (rows need no overlap: each is whole).
    expect(seen).toEqual(rows.slice(1).map((r) => r.join(' | ')));
  });

  it('labels the cells of wide tables with their header and drops empty ones', () => {
    const allergens: DocumentBlock = {
      kind: 'table',
      header: true,
      rows: [['Plato', 'Gluten', 'Lactosa', 'Huevo'], ['Croquetas', 'X', 'X', ''], ['Tortilla', '', '', 'X']],
    };
    expect(renderTable(allergens as Extract<DocumentBlock, { kind: 'table' }>)).toEqual({ header: null, rows: ['Croquetas | Gluten: X | Lactosa: X', 'Tortilla | Huevo: X'] });
    expect(chunkDocument({ blocks: [allergens] })[0]!.text).toBe('Croquetas | Gluten: X | Lactosa: X\nTortilla | Huevo: X');
    // Without a header, rows are their cells.
    expect(renderTable({ kind: 'table', header: false, rows: [['Viernes', '9:00–15:00']] })).toEqual({ header: null, rows: ['Viernes | 9:00–15:00'] });
  });

  it('keeps the page where a chunk’s own content starts, and a title-only document as its title', () => {
    const chunks = chunkDocument({
      blocks: [
        { kind: 'paragraph', text: sentence(1, 700), page: 1 },
        { kind: 'paragraph', text: sentence(2, 700), page: 2 },
        { kind: 'paragraph', text: sentence(3, 700), page: 3 },
      ],
    });
    expect(chunks.map((c) => c.page)).toEqual([1, 3]);
    expect(chunkDocument({ blocks: [{ kind: 'heading', level: 1, text: 'Carta de vinos', page: 1 }] })).toEqual([{ text: 'Carta de vinos', page: 1, headings: [] }]);
  });
});
