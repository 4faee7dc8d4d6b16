/**
 * PDF limits (issue 28): pages, what the compressed streams unpack to (measured before pdf.js
 * reads the file), and the text of all pages.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractPdf, PDF_LIMITS } from '../../../src/adapters/extract/pdf.js';
import { checkPdfStreams } from '../../../src/adapters/extract/pdf-streams.js';
import { DEFAULT_CHUNKING } from '../../../src/domain/knowledge/chunking.js';
import { KnowledgeSourceError, knowledgeMessages } from '../../../src/domain/knowledge/errors.js';
import { FIXTURE_FILES } from '../../fixtures/knowledge/content.js';

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/knowledge');
const fixture = () => new Uint8Array(readFileSync(path.join(fixturesDir, FIXTURE_FILES.pdf)));
const MB = 1024 * 1024;

async function refused(promise: Promise<unknown>, message: string) {
  await expect(promise).rejects.toBeInstanceOf(KnowledgeSourceError);
  await expect(promise).rejects.toThrow(message);
}

/** A one-page PDF whose content stream is `content`, stored Flate-compressed as given (pdf-lib would compress it with pako). */
async function pdfWithContent(content: Buffer, extra: (pdf: PDFDocument) => void = () => undefined): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawText('Price list', { x: 50, y: 800, size: 12, font });
  page.node.set(PDFName.of('Contents'), pdf.context.register(pdf.context.stream(deflateSync(content), { Filter: 'FlateDecode' })));
  extra(pdf);
  return pdf.save({ useObjectStreams: false });
}

async function pdfWithPages(count: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < count; i++) pdf.addPage([200, 200]).drawText(`Opening hours of shop ${i + 1}`, { x: 20, y: 100, size: 10, font });
  return pdf.save();
}

describe('PDF limits', () => {
  it('reads the committed PDF within the limits', async () => {
    expect(await checkPdfStreams(fixture(), PDF_LIMITS)).toBe('ok');
    expect((await extractPdf(fixture())).blocks.length).toBeGreaterThan(0);
  });

  it('refuses a PDF with more than 2,000 pages (its own page count, before any page is read)', { timeout: 60_000 }, async () => {
    await refused(extractPdf(await pdfWithPages(PDF_LIMITS.maxPages + 1)), knowledgeMessages.pdfTooManyPages(2_000));
    expect(knowledgeMessages.pdfTooManyPages(2_000)).toBe('The PDF has more than 2,000 pages. Split it into smaller files');
    // The same rule on a small document, with a lower limit: the count is the document's pages.
    const four = await pdfWithPages(4);
    await refused(extractPdf(four, { ...PDF_LIMITS, maxPages: 3 }), knowledgeMessages.pdfTooManyPages(3));
    expect((await extractPdf(four, { ...PDF_LIMITS, maxPages: 4 })).blocks.map((b) => b.page)).toEqual([1, 2, 3, 4]);
  });

  it('refuses a content stream that unpacks past 16 MB (a Flate bomb: 40 MB in a few dozen KB), before pdf.js reads it', async () => {
    const content = Buffer.from('BT /F1 12 Tf 50 700 Td (a) Tj ET\n'.repeat(Math.ceil((40 * MB) / 33)));
    const bomb = await pdfWithContent(content);
    expect(bomb.length).toBeLessThan(MB);

    expect(await checkPdfStreams(bomb, PDF_LIMITS)).toBe('streamTooLarge');
    const started = performance.now();
    await refused(extractPdf(bomb), knowledgeMessages.documentTooComplex);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('counts the streams together, and skips images (text extraction never unpacks them)', async () => {
    const content = Buffer.from('BT /F1 12 Tf 50 700 Td (Opening hours) Tj ET\n'.repeat(3_000));
    const pdf = await pdfWithContent(content, (doc) => {
      const image = doc.context.stream(deflateSync(Buffer.alloc(4 * MB)), { Type: 'XObject', Subtype: 'Image', Width: 1024, Height: 1024, BitsPerComponent: 8, ColorSpace: 'DeviceRGB', Filter: 'FlateDecode' });
      doc.context.register(image);
    });
    expect(await checkPdfStreams(pdf, { maxStreamBytes: MB, maxDecodedBytes: content.length * 2 })).toBe('ok');
    expect(await checkPdfStreams(pdf, { maxStreamBytes: MB, maxDecodedBytes: content.length - 1 })).toBe('tooMuchInAll');
    await refused(extractPdf(pdf, { ...PDF_LIMITS, maxDecodedBytes: content.length - 1 }), knowledgeMessages.documentTooComplex);
  });

  it('stops at the text budget of all pages', async () => {
    await refused(extractPdf(fixture(), { ...PDF_LIMITS, maxTextChars: 20 }), knowledgeMessages.tooManyChunks(DEFAULT_CHUNKING.maxChunks));
  });
});
