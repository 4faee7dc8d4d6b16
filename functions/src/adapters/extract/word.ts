/**
 * Word documents → text: DOCX (Office Open XML, a zip) with mammoth.extractRawText (paragraphs
 * separated by blank lines); legacy Word 97–2003 .doc (an OLE2 compound file) with word-extractor.
 * Files are told apart by their first bytes, not their extension, so a .doc that is really a DOCX
 * (or the reverse, common with renamed files) still reads.
 */
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

export const isZip = (bytes: Uint8Array) => startsWith(bytes, ZIP);
export const isOle2 = (bytes: Uint8Array) => startsWith(bytes, OLE2);

export async function extractDocx(bytes: Uint8Array): Promise<string> {
  if (isOle2(bytes)) return extractDoc(bytes);
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return value;
  } catch {
    throw new KnowledgeSourceError(knowledgeMessages.notDocx);
  }
}

export async function extractDoc(bytes: Uint8Array): Promise<string> {
  if (!isOle2(bytes) && !isZip(bytes)) throw new KnowledgeSourceError(knowledgeMessages.notDoc);
  if (isZip(bytes)) {
    // A DOCX saved with a .doc name: mammoth reads it better (paragraph breaks).
    try {
      const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
      return value;
    } catch {
      throw new KnowledgeSourceError(knowledgeMessages.notDoc);
    }
  }
  try {
    const doc = await new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return [doc.getBody(), doc.getFootnotes(), doc.getEndnotes()].filter((t) => t.trim()).join('\n\n');
  } catch {
    throw new KnowledgeSourceError(knowledgeMessages.notDoc);
  }
}
