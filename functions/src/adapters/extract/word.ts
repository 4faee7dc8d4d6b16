/**
 * Word documents → structured document. DOCX (Office Open XML, a zip) through mammoth's HTML
 * (Heading styles → h1–h6, tables → rows, header rows → th), read by the HTML walker (html.ts);
 * legacy Word 97–2003 .doc (an OLE2 compound file) with word-extractor, whose body has one line per
 * paragraph and table cells ended by tabs (structure.ts). Files are told apart by their first
 * bytes, not their extension, so a .doc that is really a DOCX (or the reverse, common with renamed
 * files) still reads.
 */
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';
import type { StructuredDocument } from '../../domain/knowledge/ports.js';
import { openDocxPackage } from './docx-package.js';
import { checkCompoundFile } from './ole-guard.js';
import { htmlBlocks, parseHtmlBody } from './html.js';
import { docBlocks } from './structure.js';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

export const isZip = (bytes: Uint8Array) => startsWith(bytes, ZIP);
export const isOle2 = (bytes: Uint8Array) => startsWith(bytes, OLE2);

// Images are dropped, not inlined as base64 data URIs (megabytes of HTML for nothing).
const noImages = mammoth.images.imgElement(async () => ({ src: '' }));

async function docxToDocument(bytes: Uint8Array, failure: string): Promise<StructuredDocument> {
  let html: string;
  try {
    // Mammoth reads the parts through our bounded package (docx-package.ts), not its own jszip.
    const file = openDocxPackage(bytes);
    ({ value: html } = await mammoth.convertToHtml({ file } as unknown as Parameters<typeof mammoth.convertToHtml>[0], { convertImage: noImages }));
  } catch (error) {
    if (error instanceof KnowledgeSourceError) throw error;
    throw new KnowledgeSourceError(failure);
  }
  const body = parseHtmlBody(html);
  return { blocks: body ? htmlBlocks(body) : [] };
}

export async function extractDocx(bytes: Uint8Array): Promise<StructuredDocument> {
  if (isOle2(bytes)) return extractDoc(bytes);
  return docxToDocument(bytes, knowledgeMessages.notDocx);
}

export async function extractDoc(bytes: Uint8Array): Promise<StructuredDocument> {
  if (!isOle2(bytes) && !isZip(bytes)) throw new KnowledgeSourceError(knowledgeMessages.notDoc);
  // A DOCX saved with a .doc name: mammoth reads it better (styles, tables).
  if (isZip(bytes)) return docxToDocument(bytes, knowledgeMessages.notDoc);
  let parts: string[];
  try {
    // word-extractor trusts the file's chains and piece table: they are checked first (ole-guard.ts).
    checkCompoundFile(bytes);
    const doc = await new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    parts = [doc.getBody(), doc.getFootnotes(), doc.getEndnotes()];
  } catch (error) {
    if (error instanceof KnowledgeSourceError) throw error;
    throw new KnowledgeSourceError(knowledgeMessages.notDoc);
  }
  return { blocks: parts.flatMap((part) => docBlocks(part)) };
}
