/**
 * Bytes of a text file or page → string. A byte order mark decides (UTF-8, UTF-16 LE/BE);
 * otherwise the declared charset (HTTP Content-Type or <meta charset>), otherwise UTF-8 when the
 * bytes are valid UTF-8, UTF-16 when every other byte is NUL, and Windows-1252 (the usual
 * legacy encoding of .txt files) as the last resort. Binary content (many control characters) is
 * refused as not text.
 */
import { DEFAULT_CHUNKING, MAX_DOCUMENT_CHARS } from '../../domain/knowledge/chunking.js';
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';
import type { StructuredDocument } from '../../domain/knowledge/ports.js';
import { utf16WithoutBom } from '../../domain/knowledge/sniff.js';
import { textBlocks } from './structure.js';

/** A text file → headings, paragraphs and delimited tables (structure.ts). */
export function extractText(bytes: Uint8Array, declaredCharset?: string): StructuredDocument {
  const text = decodeText(bytes, declaredCharset);
  // More than can ever be chunked: refused before it is split into blocks (issue 28).
  if (text.length > MAX_DOCUMENT_CHARS) throw new KnowledgeSourceError(knowledgeMessages.tooManyChunks(DEFAULT_CHUNKING.maxChunks));
  return { blocks: textBlocks(text) };
}

export function decodeText(bytes: Uint8Array, declaredCharset?: string): string {
  const text = decode(bytes, declaredCharset);
  if (looksBinary(text)) throw new KnowledgeSourceError(knowledgeMessages.notText);
  return text;
}

function decode(bytes: Uint8Array, declaredCharset?: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const label = declaredCharset?.trim().toLowerCase();
  // HTML's rule: a declared ISO-8859-1/ASCII means Windows-1252.
  if (label && ['windows-1252', 'cp1252', 'iso-8859-1', 'latin1', 'us-ascii', 'ascii'].includes(label)) return decodeWindows1252(bytes);
  const declared = label ? decoderFor(label) : null;
  if (declared) return declared.decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // not UTF-8
  }
  const utf16 = utf16WithoutBom(bytes.subarray(0, 4096));
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  return decodeWindows1252(bytes);
}

/** 0x80–0x9F of Windows-1252 (the rest is Latin-1). Node 20's TextDecoder('windows-1252') decodes plain Latin-1, so map these by hand. */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

function decoderFor(label: string): InstanceType<typeof TextDecoder> | null {
  try {
    return new TextDecoder(label.trim().toLowerCase());
  } catch {
    return null;
  }
}

/** More than 5% control characters (other than tab, line breaks and form feed) in the first 8 KB. */
function looksBinary(text: string): boolean {
  const sample = text.slice(0, 8192);
  if (!sample) return false;
  // eslint-disable-next-line no-control-regex -- counting control characters is the point
  const controls = sample.match(/[\u0000-\u0008\u000b\u000e-\u001f\ufffd]/g)?.length ?? 0;
  return controls > sample.length * 0.05;
}
