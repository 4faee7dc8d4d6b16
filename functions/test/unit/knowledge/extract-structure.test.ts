/**
 * Structure-preserving extraction (issue 18): the same Spanish document with headings and tables,
 * built as a real PDF, DOCX, Word 97 .doc and TXT, comes back as headings, paragraphs and tables
 * whose rows keep their cells and header, with PDF pages right.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractHtml, htmlBlocks, parseHtmlBody } from '../../../src/adapters/extract/html.js';
import { extractPdf } from '../../../src/adapters/extract/pdf.js';
import { layoutBlocks, type PositionedText } from '../../../src/adapters/extract/pdf-layout.js';
import { docBlocks } from '../../../src/adapters/extract/structure.js';
import { extractText } from '../../../src/adapters/extract/text.js';
import { extractDoc, extractDocx } from '../../../src/adapters/extract/word.js';
import { chunkDocument } from '../../../src/domain/knowledge/chunking.js';
import type { DocumentBlock, StructuredDocument } from '../../../src/domain/knowledge/ports.js';
import { buildDocxFromSpec, buildPdfFromSpec, textFromSpec, type DocSpec } from '../../fixtures/knowledge/builders.js';
import { TABLES_DOC_FILE, TABLES_DOCUMENT } from '../../fixtures/knowledge/content.js';

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/knowledge');
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(fixturesDir, name)));
const utf8 = (s: string) => new TextEncoder().encode(s);

type Table = Extract<DocumentBlock, { kind: 'table' }>;
const tablesOf = (doc: StructuredDocument) => doc.blocks.filter((b): b is Table => b.kind === 'table');
const headingsOf = (doc: StructuredDocument) => doc.blocks.flatMap((b) => (b.kind === 'heading' ? [`${b.level} ${b.text}`] : []));
const paragraphsOf = (doc: StructuredDocument) => doc.blocks.flatMap((b) => (b.kind === 'paragraph' ? [b.text] : []));
const withoutPages = (doc: StructuredDocument) => doc.blocks.map(({ page: _page, ...rest }) => rest);

const SPEC_TABLES = tablesOf({ blocks: TABLES_DOCUMENT.blocks }).map((t) => t.rows);
const SPEC_HEADINGS = headingsOf({ blocks: TABLES_DOCUMENT.blocks });
const SPEC_PARAGRAPHS = paragraphsOf({ blocks: TABLES_DOCUMENT.blocks });

describe('PDF: layout-aware extraction', () => {
  it.each([false, true])('gives back the tables as rows of cells with their header, headings by size (ruling lines: %s)', async (ruled) => {
    const doc = await extractPdf(await buildPdfFromSpec(TABLES_DOCUMENT, { ruled }));

    expect(tablesOf(doc).map((t) => t.rows)).toEqual(SPEC_TABLES);
    expect(tablesOf(doc).every((t) => t.header && t.page === 1)).toBe(true);
    expect(headingsOf(doc)).toEqual(SPEC_HEADINGS);
    expect(paragraphsOf(doc)).toEqual(SPEC_PARAGRAPHS);
  });

  it('puts every block on its page and chunks know their page and heading path (3 pages)', async () => {
    const spec: DocSpec = {
      title: 'Clínica',
      blocks: [
        { kind: 'heading', level: 1, text: 'Clínica Dental Sonrisa' },
        { kind: 'paragraph', text: 'Atendemos urgencias el mismo día con cita previa.' },
        { kind: 'heading', level: 2, text: 'Tarifas', page: 2 },
        { kind: 'table', header: true, rows: [['Tratamiento', 'Precio'], ['Limpieza', '60 €'], ['Blanqueamiento', '250 €']], page: 2 },
        { kind: 'heading', level: 2, text: 'Formas de pago', page: 3 },
        { kind: 'paragraph', text: 'Aceptamos tarjeta, Bizum y transferencia; financiamos tratamientos de más de 1.000 euros.', page: 3 },
      ],
    };
    const doc = await extractPdf(await buildPdfFromSpec(spec));

    expect(doc.blocks).toEqual(spec.blocks.map((b) => ({ ...b, page: b.page ?? 1 })));
    const chunks = chunkDocument(doc);
    expect(chunks.map(({ page, headings }) => ({ page, headings }))).toEqual([
      { page: 1, headings: ['Clínica Dental Sonrisa'] },
      { page: 2, headings: ['Clínica Dental Sonrisa', 'Tarifas'] },
      { page: 3, headings: ['Clínica Dental Sonrisa', 'Formas de pago'] },
    ]);
    expect(chunks[1]!.text).toBe('Clínica Dental Sonrisa › Tarifas\nTratamiento | Precio\nLimpieza | 60 €\nBlanqueamiento | 250 €');
  });

  it('keeps a wrapped cell in its row, and a table going on over the next page keeps its header there', async () => {
    const rows = [['Tratamiento', 'Duración', 'Precio']];
    for (let i = 1; i <= 60; i++) rows.push([`Tratamiento ${i}`, `${20 + i} min`, `${30 + i} €`]);
    rows[3]![0] = 'Endodoncia de molar con reconstrucción completa y radiografías de control incluidas en el precio final';
    const doc = await extractPdf(await buildPdfFromSpec({ title: 'Tarifas', blocks: [{ kind: 'table', header: true, rows }] }, { ruled: true }));

    const [first, second, ...rest] = tablesOf(doc);
    expect(rest).toEqual([]);
    expect(first!.page).toBe(1);
    expect(second!.page).toBe(2);
    expect(first!.rows[3]).toEqual(rows[3]);
    // The rows of page 2 carry the header of page 1 again, and no row is lost or split.
    expect(second!.header).toBe(true);
    expect(second!.rows[0]).toEqual(rows[0]);
    expect([...first!.rows, ...second!.rows.slice(1)]).toEqual(rows);
  });

  it('reads two columns of running text column by column, not as a table', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    const left = ['La clínica abre de lunes a viernes de nueve', 'de la mañana a ocho de la tarde sin cerrar', 'a mediodía, y los sábados por la mañana.'];
    const right = ['El aparcamiento más cercano es el parking', 'de la plaza mayor, con una hora gratis para', 'nuestros pacientes que sellen el tíquet.'];
    left.forEach((line, i) => page.drawText(line, { x: 56, y: 780 - i * 14, size: 10, font }));
    right.forEach((line, i) => page.drawText(line, { x: 310, y: 780 - i * 14, size: 10, font }));

    expect((await extractPdf(await pdf.save())).blocks).toEqual([
      { kind: 'paragraph', text: left.join(' '), page: 1 },
      { kind: 'paragraph', text: right.join(' '), page: 1 },
    ]);
  });
});

describe('PDF layout of positioned text', () => {
  /** One line of text items: [text, x] pairs at baseline y, 11 pt, in `font`. */
  const line = (y: number, font: string, ...cells: [string, number][]): PositionedText[] =>
    cells.map(([str, x]) => ({ str, x, y, width: str.length * 5.5, size: 11, font }));

  it('takes a short line wholly in another font (bold) over body text for a heading, and drops page numbers', () => {
    const page = [
      ...line(780, 'F2', ['Formas de pago', 56]),
      ...line(765, 'F1', ['Aceptamos efectivo, tarjeta y Bizum en la recepción de la clínica.', 56]),
      ...line(750, 'F1', ['Financiamos los tratamientos de más de 600 euros.', 56]),
      ...line(40, 'F1', ['Página 2 de 3', 270]),
    ];
    expect(layoutBlocks([page])).toEqual([
      { kind: 'heading', level: 1, text: 'Formas de pago', page: 1 },
      { kind: 'paragraph', text: 'Aceptamos efectivo, tarjeta y Bizum en la recepción de la clínica. Financiamos los tratamientos de más de 600 euros.', page: 1 },
    ]);
  });
});

describe('DOCX (mammoth HTML → blocks)', () => {
  it('gives back headings with their levels, paragraphs unmerged and table rows intact', async () => {
    const doc = await extractDocx(await buildDocxFromSpec(TABLES_DOCUMENT));
    expect(doc.blocks).toEqual(TABLES_DOCUMENT.blocks);
  });

  it('takes a bold first row (no header mark) or words over figures as the header; a grid of figures has none', async () => {
    const spec: DocSpec = {
      title: 't',
      blocks: [
        { kind: 'table', header: false, rows: [['Servicio', 'Precio'], ['Corte', '15 €'], ['Tinte', '35 €']] },
        { kind: 'table', header: false, rows: [['2024', '15 €'], ['2025', '16 €']] },
      ],
    };
    const [words, figures] = tablesOf(await extractDocx(await buildDocxFromSpec(spec)));
    expect(words).toMatchObject({ header: true, rows: spec.blocks[0]!.kind === 'table' ? spec.blocks[0]!.rows : [] });
    expect(figures!.header).toBe(false);
  });
});

describe('DOC (word-extractor)', () => {
  it('reads the committed Word 97 file with tables: rows of cells with headers, and its headings', async () => {
    const bytes = fixture(TABLES_DOC_FILE);
    expect([...bytes.subarray(0, 4)]).toEqual([0xd0, 0xcf, 0x11, 0xe0]);
    const doc = await extractDoc(bytes);

    // word-extractor writes the en dash as '-'.
    expect(tablesOf(doc).map((t) => t.rows)).toEqual(SPEC_TABLES.map((rows) => rows.map((r) => r.map((c) => c.replace(/–/g, '-')))));
    expect(tablesOf(doc).every((t) => t.header)).toBe(true);
    expect(headingsOf(doc).map((h) => h.slice(2))).toEqual(SPEC_HEADINGS.map((h) => h.slice(2)));
    expect(paragraphsOf(doc)).toEqual(SPEC_PARAGRAPHS);
  });
});

describe('DOC body lines', () => {
  it('takes the first line for the title even over a short heading, and short lines over text or a table as headings', () => {
    const body = 'Condiciones para pacientes\nFormas de pago\nAceptamos efectivo, tarjeta y Bizum. No aceptamos cheques.\nHorario\nDía\tHorario\t\nViernes\t9:00-15:00\t\n';
    expect(docBlocks(body)).toEqual([
      { kind: 'heading', level: 1, text: 'Condiciones para pacientes' },
      { kind: 'heading', level: 2, text: 'Formas de pago' },
      { kind: 'paragraph', text: 'Aceptamos efectivo, tarjeta y Bizum. No aceptamos cheques.' },
      { kind: 'heading', level: 2, text: 'Horario' },
      { kind: 'table', header: true, rows: [['Día', 'Horario'], ['Viernes', '9:00-15:00']] },
    ]);
  });
});

describe('TXT: delimited tables and headings', () => {
  it.each([
    ['|', ' | '],
    ['tab', '\t'],
    [';', ';'],
  ])('reads %s-separated rows as a table with its header', (_name, delimiter) => {
    const doc = extractText(utf8(textFromSpec(TABLES_DOCUMENT, { delimiter, markdown: true })));
    expect(tablesOf(doc).map((t) => t.rows)).toEqual(SPEC_TABLES);
    expect(tablesOf(doc).every((t) => t.header)).toBe(true);
    expect(withoutPages(doc)).toEqual(TABLES_DOCUMENT.blocks);
  });

  it('reads a Markdown table (its |---| rule marks the header) and CAPITALS / colon-ended lines as headings', () => {
    const text = [
      'HORARIO DE VERANO',
      'Del 1 de julio al 31 de agosto abrimos solo por la mañana.',
      '',
      '| Día | Horario |',
      '|-----|:-------:|',
      '| Viernes | 9:00–15:00 |',
      '| Sábados | 10:00–14:00 |',
      '',
      'Pagos aceptados:',
      'Efectivo y tarjeta. No aceptamos cheques.',
    ].join('\r\n');
    expect(extractText(utf8(text)).blocks).toEqual([
      { kind: 'heading', level: 2, text: 'HORARIO DE VERANO' },
      { kind: 'paragraph', text: 'Del 1 de julio al 31 de agosto abrimos solo por la mañana.' },
      { kind: 'table', header: true, rows: [['Día', 'Horario'], ['Viernes', '9:00–15:00'], ['Sábados', '10:00–14:00']] },
      { kind: 'heading', level: 3, text: 'Pagos aceptados' },
      { kind: 'paragraph', text: 'Efectivo y tarjeta. No aceptamos cheques.' },
    ]);
  });

  it('takes labels with figures over columns of amounts as a header, and a short line over a table as its heading', () => {
    const text = 'Tarifas\n\nBicicleta | 2 horas | 1 día\nUrbana | 8 € | 18 €\nEléctrica | 15 € | 35 €\n\nLunes | 9:00–14:00\nMartes | 9:00–20:00';
    expect(extractText(utf8(text)).blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Tarifas' },
      { kind: 'table', header: true, rows: [['Bicicleta', '2 horas', '1 día'], ['Urbana', '8 €', '18 €'], ['Eléctrica', '15 €', '35 €']] },
      // A first row of values is a row, not a header.
      { kind: 'table', header: false, rows: [['Lunes', '9:00–14:00'], ['Martes', '9:00–20:00']] },
    ]);
  });

  it('makes a FAQ’s questions the headings of their answers', () => {
    const text = 'Preguntas frecuentes\n\n¿Abrís los sábados?\n\nSí, de 10:00 a 14:00.\n\n¿Hay aparcamiento?\n\nNo, pero el parking Triana está a 200 metros.';
    expect(extractText(utf8(text)).blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Preguntas frecuentes' },
      { kind: 'heading', level: 2, text: '¿Abrís los sábados?' },
      { kind: 'paragraph', text: 'Sí, de 10:00 a 14:00.' },
      { kind: 'heading', level: 2, text: '¿Hay aparcamiento?' },
      { kind: 'paragraph', text: 'No, pero el parking Triana está a 200 metros.' },
    ]);
  });

  it('leaves prose with the odd semicolon or pipe as paragraphs', () => {
    const text = 'Abrimos de lunes a viernes; los sábados solo por la mañana.\nLos domingos cerramos | salvo en agosto.\n\nGracias.';
    expect(extractText(utf8(text)).blocks.every((b) => b.kind === 'paragraph')).toBe(true);
  });
});

describe('Web pages (HTML)', () => {
  it('keeps headings and data tables (th header, colspan) and reads layout tables as paragraphs', () => {
    const body = parseHtmlBody(`
      <h1>Peluquería Rizos</h1><p>Pide cita por <b>WhatsApp</b>.<br>Sin recargo.</p>
      <h2>Horario</h2>
      <table><thead><tr><th>Día</th><th>Horario</th></tr></thead>
        <tbody><tr><td>Viernes</td><td>9:00–15:00</td></tr><tr><td colspan="2">Sábados cerrado</td></tr></tbody></table>
      <table><tr><td><p>${'Texto de maquetación muy largo. '.repeat(20)}</p></td><td>Menú</td></tr></table>`)!;
    const blocks = htmlBlocks(body);
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Peluquería Rizos' },
      { kind: 'paragraph', text: 'Pide cita por WhatsApp.\nSin recargo.' },
      { kind: 'heading', level: 2, text: 'Horario' },
      { kind: 'table', header: true, rows: [['Día', 'Horario'], ['Viernes', '9:00–15:00'], ['Sábados cerrado', '']] },
      { kind: 'paragraph', text: 'Texto de maquetación muy largo. '.repeat(20).trim() },
      { kind: 'paragraph', text: 'Menú' },
    ]);
  });

  it('keeps the article’s headings and price table through Readability, navigation dropped', () => {
    const intro = 'Nuestro equipo de estilistas lleva más de veinte años cuidando el pelo de Triana con productos profesionales. '.repeat(3);
    const html = `<html><head><title>Precios | Peluquería Rizos</title></head><body>
      <nav><a href="/">Inicio</a> <a href="/blog">Blog</a></nav>
      <article><h1>Precios</h1><p>${intro}</p>
        <h2>Cortes</h2><table><tr><th>Servicio</th><th>Precio</th></tr><tr><td>Corte de señora</td><td>18 €</td></tr><tr><td>Corte de caballero</td><td>12 €</td></tr></table>
        <p>Los precios incluyen IVA y lavado.</p></article>
      <footer>Aviso legal</footer></body></html>`;
    const doc = extractHtml(html, 'https://rizos.example/precios');
    expect(doc.title).toBe('Precios | Peluquería Rizos');
    expect(tablesOf(doc)).toEqual([{ kind: 'table', header: true, rows: [['Servicio', 'Precio'], ['Corte de señora', '18 €'], ['Corte de caballero', '12 €']] }]);
    expect(headingsOf(doc)).toContain('2 Cortes');
    expect(JSON.stringify(doc.blocks)).not.toContain('Inicio');
  });
});
