/**
 * File bytes → structured document (headings, paragraphs, tables; pages for PDFs), by the file's
 * kind (contract agentFileKind: extension first, then MIME type). Each extractor is imported on
 * first use: a warm worker that only ever sees PDFs never evaluates the Word libraries, and the
 * reverse (they are still in the one bundle).
 */
import type { AgentFileKind } from '../../contract/agents.js';
import type { StructuredDocument } from '../../domain/knowledge/ports.js';

export async function extractFileText(kind: AgentFileKind, bytes: Uint8Array): Promise<StructuredDocument> {
  switch (kind) {
    case 'pdf':
      return (await import('./pdf.js')).extractPdf(bytes);
    case 'docx':
      return (await import('./word.js')).extractDocx(bytes);
    case 'doc':
      return (await import('./word.js')).extractDoc(bytes);
    case 'txt':
      return (await import('./text.js')).extractText(bytes);
  }
}
