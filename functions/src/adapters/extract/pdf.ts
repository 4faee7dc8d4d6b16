/**
 * PDF → structured document with unpdf (a serverless build of Mozilla's pdf.js: no worker, no
 * canvas, runs on Node 20), within limits (PDF_LIMITS: pages, unpacked streams, text). Each page's positioned text items go through the layout analysis
 * (pdf-layout.ts: lines, cells by x gaps, tables, headings by font size), so a price table stays
 * rows of "item | price" and every block knows its page. Measured fast enough: a 100-page text
 * PDF extracts in well under the 10 s budget (npm run bench).
 */
import { getDocumentProxy } from 'unpdf';
import { DEFAULT_CHUNKING, MAX_DOCUMENT_CHARS } from '../../domain/knowledge/chunking.js';
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';
import type { StructuredDocument } from '../../domain/knowledge/ports.js';
import { layoutBlocks, type PositionedText } from './pdf-layout.js';
import { checkPdfStreams, type PdfStreamLimits } from './pdf-streams.js';

export interface PdfLimits extends PdfStreamLimits {
  maxPages: number;
  /** Characters of text in all pages (more cannot be chunked: MAX_DOCUMENT_CHARS). */
  maxTextChars: number;
}

const MB = 1024 * 1024;

/**
 * Issue 28. 2,000 pages: past the 2,000-chunk cap for any page with text, and about what the
 * worker's 300 s allow. 16 MB per unpacked stream: pdf.js holds a page's content stream whole and
 * parses it at ~24 times its size in memory (measured: a 10 MB content stream took the process
 * from 80 to 316 MB), so the worst page stays near 400 MB inside the worker's 1,024 MB; real pages
 * are well under 1 MB, and embedded fonts are subsets of a few hundred KB. 256 MB in all: about
 * a minute of parsing (10 MB took 2.7 s).
 */
export const PDF_LIMITS: PdfLimits = { maxPages: 2_000, maxStreamBytes: 16 * MB, maxDecodedBytes: 256 * MB, maxTextChars: MAX_DOCUMENT_CHARS };

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

export async function extractPdf(bytes: Uint8Array, limits: PdfLimits = PDF_LIMITS): Promise<StructuredDocument> {
  if ((await checkPdfStreams(bytes, limits)) !== 'ok') throw new KnowledgeSourceError(knowledgeMessages.documentTooComplex);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js may take ownership of (detach) the buffer it is given. verbosity 0: no console warnings.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    if ((error as Error)?.name === 'PasswordException') throw new KnowledgeSourceError(knowledgeMessages.pdfEncrypted);
    throw new KnowledgeSourceError(knowledgeMessages.notPdf);
  }
  try {
    if (pdf.numPages > limits.maxPages) throw new KnowledgeSourceError(knowledgeMessages.pdfTooManyPages(limits.maxPages));
    const pages: PositionedText[][] = [];
    let chars = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items as Partial<TextItem>[]) chars += item.str?.length ?? 0;
      if (chars > limits.maxTextChars) throw new KnowledgeSourceError(knowledgeMessages.tooManyChunks(DEFAULT_CHUNKING.maxChunks));
      pages.push(
        (content.items as TextItem[])
          .filter((it) => typeof it.str === 'string' && it.transform)
          // Horizontal text only (rotated stamps and margins notes would scramble the lines).
          .filter((it) => Math.abs(it.transform[1]!) < 1e-3 && Math.abs(it.transform[2]!) < 1e-3)
          .map((it) => ({
            str: it.str,
            x: it.transform[4]!,
            y: it.transform[5]!,
            width: it.width,
            size: Math.abs(it.transform[3]!) || it.height,
            font: it.fontName,
          })),
      );
      page.cleanup();
    }
    return { blocks: layoutBlocks(pages) };
  } catch (error) {
    if (error instanceof KnowledgeSourceError) throw error;
    throw new KnowledgeSourceError(knowledgeMessages.notPdf);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}
