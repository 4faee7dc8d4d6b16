/**
 * Content sniffing of uploaded documents: the first bytes must be what the file's kind (its
 * extension, else its declared type) says, before any parser sees them. A renamed program or
 * archive is refused with a reason written for the user, instead of being fed to the PDF or Word
 * libraries. Word files are accepted in either container (a .doc that is really a DOCX and the
 * reverse are common and the extractors read both), but only with Word content inside.
 */
import { agentMessages, type AgentFileKind } from '../../contract/agents.js';
import { readZipDirectory, u16, u32 } from './zip-directory.js';

export type SniffedKind = 'executable' | 'pdf' | 'docx' | 'doc' | 'zip' | 'ole2' | 'image' | 'text' | 'binary';

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) => magic.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const PDF = ascii('%PDF-');
/** Readers accept the %PDF- header anywhere in the first 1024 bytes. */
const PDF_HEADER_WINDOW = 1024;
const EXECUTABLES = [
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0xfe, 0xed, 0xfa, 0xce], // Mach-O 32/64, both byte orders
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
  [0xca, 0xfe, 0xba, 0xbe], // Mach-O universal binary (also a Java class file)
];
const IMAGES = [
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  ascii('GIF8'),
];
/** "WordDocument" as an OLE2 directory entry name (UTF-16LE): the stream every Word 97–2003 file has. */
const WORD_STREAM = Buffer.from('WordDocument', 'utf16le');
const SAMPLE = 8192;

/** A Windows/DOS program: "MZ" then binary header fields (a text file that starts with "MZ" has no NUL bytes). */
function isDosExecutable(bytes: Uint8Array): boolean {
  if (!startsWith(bytes, ascii('MZ'))) return false;
  const peOffset = u32(bytes, 0x3c);
  if (startsWith(bytes, [0x50, 0x45, 0, 0], peOffset)) return true;
  return bytes.subarray(0, 64).includes(0);
}

/** Names of the entries of a ZIP archive, from its central directory (or its local headers when that cannot be read). */
export function zipEntryNames(bytes: Uint8Array): string[] {
  // At most what a ZIP without ZIP64 can list: sniffing reads names, not a million of them.
  const directory = readZipDirectory(bytes, 0xffff);
  if (directory.ok && directory.entries.length > 0) return directory.entries.map((entry) => entry.name);
  const decoder = new TextDecoder();
  const names: string[] = [];
  // Truncated or unusual archive: each local file header is followed by its name.
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = buffer.indexOf(Buffer.from(ZIP)); at >= 0; at = buffer.indexOf(Buffer.from(ZIP), at + 4)) {
    names.push(decoder.decode(bytes.subarray(at + 30, at + 30 + u16(bytes, at + 26))));
  }
  return names;
}

/** Text as decodeText reads it: a UTF-16 byte order mark, UTF-16 without one (NULs in every other byte), or no NUL bytes at all. */
function looksLikeText(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return true;
  const sample = bytes.subarray(0, SAMPLE);
  return !sample.includes(0) || utf16WithoutBom(sample) !== undefined;
}

/**
 * UTF-16 text without a byte order mark, told by where its NULs fall in `sample` (the high byte
 * of Latin characters): mostly odd positions = little-endian, mostly even = big-endian.
 * Shared with the text extractor (adapters/extract/text.ts), so what passes here decodes there.
 */
export function utf16WithoutBom(sample: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  let even = 0;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2 === 0) even++;
    else odd++;
  }
  const half = sample.length / 2;
  if (odd > half * 0.3 && even < half * 0.05) return 'utf-16le';
  if (even > half * 0.3 && odd < half * 0.05) return 'utf-16be';
  return undefined;
}

const hasPdfHeader = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, PDF_HEADER_WINDOW)).includes(Buffer.from(PDF));

/** What the bytes are, by their magic numbers and structure. */
export function sniffKind(bytes: Uint8Array): SniffedKind {
  if (isDosExecutable(bytes) || EXECUTABLES.some((magic) => startsWith(bytes, magic))) return 'executable';
  if (startsWith(bytes, ZIP)) return zipEntryNames(bytes).some((name) => name.startsWith('word/')) ? 'docx' : 'zip';
  if (startsWith(bytes, OLE2)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(WORD_STREAM) ? 'doc' : 'ole2';
  if (IMAGES.some((magic) => startsWith(bytes, magic))) return 'image';
  if (startsWith(bytes, PDF)) return 'pdf';
  return looksLikeText(bytes) ? 'text' : 'binary';
}

const ACCEPTED: Record<AgentFileKind, readonly SniffedKind[]> = {
  pdf: ['pdf'],
  docx: ['docx', 'doc'],
  doc: ['doc', 'docx'],
  txt: ['text'],
};

const MISMATCH: Record<AgentFileKind, string> = {
  pdf: agentMessages.fileNotReallyPdf,
  docx: agentMessages.fileNotReallyWord,
  doc: agentMessages.fileNotReallyWord,
  txt: agentMessages.fileNotReallyText,
};

/** Why the bytes cannot be a document of `kind` (a reason for the user), or null when they can. */
export function contentMismatch(kind: AgentFileKind, bytes: Uint8Array): string | null {
  const sniffed = sniffKind(bytes);
  if (sniffed === 'executable') return agentMessages.fileIsProgram;
  if (ACCEPTED[kind].includes(sniffed)) return null;
  // A PDF header after some leading bytes (readers allow it), when nothing else was recognised.
  if (kind === 'pdf' && (sniffed === 'text' || sniffed === 'binary') && hasPdfHeader(bytes)) return null;
  return MISMATCH[kind];
}
