/**
 * PDF → text with unpdf (a serverless build of Mozilla's pdf.js: no worker, no canvas, runs on
 * Node 20). Chosen over pdfjs-dist's legacy build because it needs no worker setup and measured
 * fast enough (a 100-page text PDF extracts in well under the 10 s budget: npm run bench).
 * Pages are joined by a blank line, so a page break is a paragraph break for chunking.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';

export async function extractPdf(bytes: Uint8Array): Promise<string> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js may take ownership of (detach) the buffer it is given. verbosity 0: no console warnings.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    if ((error as Error)?.name === 'PasswordException') throw new KnowledgeSourceError(knowledgeMessages.pdfEncrypted);
    throw new KnowledgeSourceError(knowledgeMessages.notPdf);
  }
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text.map((page) => page.trim()).filter(Boolean).join('\n\n');
  } catch {
    throw new KnowledgeSourceError(knowledgeMessages.notPdf);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}
