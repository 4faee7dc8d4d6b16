/** File bytes → text, by the file's kind (contract agentFileKind: extension first, then MIME type). */
import type { AgentFileKind } from '../../contract/agents.js';
import { extractPdf } from './pdf.js';
import { decodeText } from './text.js';
import { extractDoc, extractDocx } from './word.js';

export async function extractFileText(kind: AgentFileKind, bytes: Uint8Array): Promise<string> {
  switch (kind) {
    case 'pdf':
      return extractPdf(bytes);
    case 'docx':
      return extractDocx(bytes);
    case 'doc':
      return extractDoc(bytes);
    case 'txt':
      return decodeText(bytes);
  }
}
