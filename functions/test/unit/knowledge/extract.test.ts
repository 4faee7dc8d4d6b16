import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../src/adapters/extract/html.js';
import { extractFileText } from '../../../src/adapters/extract/index.js';
import { extractPdf } from '../../../src/adapters/extract/pdf.js';
import { decodeText } from '../../../src/adapters/extract/text.js';
import { extractDoc, extractDocx } from '../../../src/adapters/extract/word.js';
import { chunkDocument, renderDocument } from '../../../src/domain/knowledge/chunking.js';
import { KnowledgeSourceError, knowledgeMessages } from '../../../src/domain/knowledge/errors.js';
import type { StructuredDocument } from '../../../src/domain/knowledge/ports.js';
import { buildDocx, buildPdf } from '../../fixtures/knowledge/builders.js';
import { DOC_DOCUMENT, DOCX_DOCUMENT, FIXTURE_FILES, PDF_PAGES, TXT_TEXT } from '../../fixtures/knowledge/content.js';

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/knowledge');
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(fixturesDir, name)));
/** The document as one text, tables rendered as their chunks show them. */
const textOf = (doc: StructuredDocument) => renderDocument(doc);

async function expectSourceError(promise: Promise<unknown> | (() => unknown), message: string) {
  const run = typeof promise === 'function' ? Promise.resolve().then(promise) : promise;
  await expect(run).rejects.toBeInstanceOf(KnowledgeSourceError);
  await expect(run).rejects.toThrow(message);
}

describe('PDF (unpdf)', () => {
  it('extracts every page of the committed multi-page PDF: each page heading a heading, each paragraph whole, with its page', async () => {
    const doc = await extractPdf(fixture(FIXTURE_FILES.pdf));
    PDF_PAGES.forEach((page, i) => {
      expect(doc.blocks).toContainEqual({ kind: 'heading', level: 1, text: page.heading, page: i + 1 });
      for (const p of page.paragraphs ?? []) expect(doc.blocks).toContainEqual({ kind: 'paragraph', text: p, page: i + 1 });
    });
    expect(doc.blocks).toHaveLength(3 + 9);
  });

  it('says the file is not a PDF when it is not one', async () => {
    await expectSourceError(extractPdf(new TextEncoder().encode('just some text, not a PDF')), knowledgeMessages.notPdf);
    await expectSourceError(extractPdf(new Uint8Array(0)), knowledgeMessages.notPdf);
  });

  it('returns no text for a PDF whose pages hold only drawings (like a scan)', async () => {
    const scanned = await buildPdf([{ paragraphs: [] }, { paragraphs: [] }]);
    expect((await extractPdf(scanned)).blocks).toEqual([]);
  });

  it('does not consume the caller’s buffer', async () => {
    const bytes = fixture(FIXTURE_FILES.pdf);
    await extractPdf(bytes);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(textOf(await extractPdf(bytes))).toContain('Sonrisa');
  });
});

describe('DOCX (mammoth) and DOC (word-extractor)', () => {
  it('extracts the committed DOCX one paragraph per paragraph (none merged)', async () => {
    const doc = await extractDocx(fixture(FIXTURE_FILES.docx));
    expect(doc.blocks).toEqual([DOCX_DOCUMENT.title, ...DOCX_DOCUMENT.paragraphs].map((text) => ({ kind: 'paragraph', text })));
  });

  it('extracts the committed Word 97 .doc (a real OLE2 file)', async () => {
    const bytes = fixture(FIXTURE_FILES.doc);
    expect([...bytes.subarray(0, 4)]).toEqual([0xd0, 0xcf, 0x11, 0xe0]);
    const doc = await extractDoc(bytes);
    // The title line stands over the paragraphs: a heading.
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: DOC_DOCUMENT.title },
      ...DOC_DOCUMENT.paragraphs.map((text) => ({ kind: 'paragraph', text })),
    ]);
  });

  it('reads a renamed file by its content: a DOCX named .doc and a DOC named .docx', async () => {
    expect(textOf(await extractDoc(fixture(FIXTURE_FILES.docx)))).toContain('Harbor Bakery');
    expect(textOf(await extractDocx(fixture(FIXTURE_FILES.doc)))).toContain('Lakeside Bike Rentals');
  });

  it('says when the bytes are not a Word document', async () => {
    await expectSourceError(extractDocx(new TextEncoder().encode('plain text')), knowledgeMessages.notDocx);
    await expectSourceError(extractDoc(new TextEncoder().encode('plain text')), knowledgeMessages.notDoc);
    await expectSourceError(extractDocx(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])), knowledgeMessages.notDocx);
  });

  it('returns empty text for an empty document', async () => {
    expect((await extractDocx(await buildDocx({ title: '', paragraphs: [] }))).blocks).toEqual([]);
  });
});

describe('TXT', () => {
  it('decodes the committed UTF-8 file with a BOM (BOM dropped, accents kept)', () => {
    const text = decodeText(fixture(FIXTURE_FILES.txt));
    expect(text).toBe(TXT_TEXT);
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
  });

  it('decodes UTF-16 LE and BE with their BOMs, and without a BOM', () => {
    const s = 'Garantía de 24 meses — ñandú';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
    const be = Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(s, 'utf16le').swap16()]));
    expect(decodeText(le)).toBe(s);
    expect(decodeText(be)).toBe(s);
    expect(decodeText(Buffer.from(s, 'utf16le'))).toBe(s);
  });

  it('falls back to Windows-1252 for legacy 8-bit text, and honours a declared charset', () => {
    expect(decodeText(Buffer.from([0x47, 0x61, 0x72, 0x61, 0x6e, 0x74, 0xed, 0x61, 0x20, 0x80]))).toBe('Garantía €');
    expect(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'iso-8859-1')).toBe('café');
  });

  it('refuses binary content as not text', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 500 }, (_, i) => (i * 37) % 256)]);
    expect(() => decodeText(png)).toThrow(knowledgeMessages.notText);
  });
});

describe('extractFileText dispatch', () => {
  it('dispatches each kind to its extractor, and each fixture chunks into searchable text', async () => {
    const cases = [
      ['pdf', FIXTURE_FILES.pdf, '$3,200'],
      ['docx', FIXTURE_FILES.docx, '72 hours'],
      ['doc', FIXTURE_FILES.doc, '150 euros'],
      ['txt', FIXTURE_FILES.txt, '24 meses'],
    ] as const;
    for (const [kind, file, fact] of cases) {
      const doc = await extractFileText(kind, fixture(file));
      const chunks = chunkDocument(doc);
      expect(chunks.length, kind).toBeGreaterThan(0);
      expect(chunks.some((c) => c.text.includes(fact)), kind).toBe(true);
    }
  });
});

describe('HTML (Readability + linkedom)', () => {
  const page = `<!doctype html><html><head><title>Acme Plumbing | Services</title><style>p{color:red}</style></head>
    <body><nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/blog">Blog</a></nav>
    <main><article><h1>Emergency plumbing</h1>
      <p>We fix burst pipes 24 hours a day, every day of the year. A call-out costs <b>$95</b> and includes the first hour of labour.</p>
      <p>Boiler servicing costs $140 and takes about an hour. We cover Springfield, Shelbyville and Capital City.</p>
      <p>All our plumbers are licensed and insured, and every repair comes with a twelve-month guarantee on parts and labour.</p>
    </article></main>
    <script>window.tracking = "secret-tracking-token";</script>
    <footer>Copyright 2025 Acme Plumbing. Privacy. Terms. Cookies.</footer></body></html>`;

  it('keeps the article text and the title, drops scripts, styles and navigation', () => {
    const extracted = extractHtml(page, 'https://acme.example/services');
    const text = textOf(extracted);
    expect(extracted.title).toBe('Acme Plumbing | Services');
    expect(text).toContain('A call-out costs $95 and includes the first hour of labour.');
    expect(text).toContain('Boiler servicing costs $140');
    expect(text).not.toContain('secret-tracking-token');
    expect(text).not.toContain('color:red');
    expect(text).not.toContain('About us');
    expect(text).toMatch(/year\. A call-out[^\n]*\n\nBoiler/);
  });

  it('falls back to the body text when there is no article to find', () => {
    const extracted = extractHtml('<html><body><div>Price list</div><table><tr><td>Tap</td><td>$80</td></tr></table></body></html>', 'https://x.example/');
    const text = textOf(extracted);
    expect(extracted.title).toBe('');
    expect(text).toContain('Price list');
    expect(text).toContain('Tap | $80');
  });

  it('extracts a 2 MB page in linear time (a few hundred ms, not minutes)', () => {
    const p = `<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(8)}</p>\n`;
    const html = `<html><head><title>Big</title></head><body><article>${p.repeat(Math.floor(2e6 / p.length))}</article></body></html>`;
    const t0 = performance.now();
    const text = textOf(extractHtml(html, 'https://x.example/'));
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(text.length).toBeGreaterThan(1.9e6);
  });

  it('reads a fragment without <html>', () => {
    expect(extractHtml('<p>Just a <em>fragment</em></p>', 'https://x.example/').blocks).toEqual([{ kind: 'paragraph', text: 'Just a fragment' }]);
  });
});
