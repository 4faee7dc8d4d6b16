/**
 * PDF → structured document with unpdf (a serverless build of Mozilla's pdf.js: no worker, no
 * canvas, runs on Node 20). Each page's positioned text items go through the layout analysis
 * (pdf-layout.ts: lines, cells by x gaps, tables, headings by font size), so a price table stays
 * rows of "item | price" and every block knows its page. Measured fast enough: a 100-page text
 * PDF extracts in well under the 10 s budget (npm run bench).
 */
import { getDocumentProxy } from 'unpdf';
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';
import type { StructuredDocument } from '../../domain/knowledge/ports.js';
import { layoutBlocks, type PositionedText } from './pdf-layout.js';

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

export async function extractPdf(bytes: Uint8Array): Promise<StructuredDocument> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js may take ownership of (detach) the buffer it is given. verbosity 0: no console warnings.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    if ((error as Error)?.name === 'PasswordException') throw new KnowledgeSourceError(knowledgeMessages.pdfEncrypted);
    throw new KnowledgeSourceError(knowledgeMessages.notPdf);
  }
  try {
    const pages: PositionedText[][] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
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
  } catch {
    throw new KnowledgeSourceError(knowledgeMessages.notPdf);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}
