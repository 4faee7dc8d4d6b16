/**
 * A DOCX (a ZIP package) opened for mammoth within bounds, so a zip bomb is refused before
 * anything is unpacked and cannot grow while it is (issue 28: a 436 KB DOCX holding 150 MB of XML
 * took the worker to 4.5 GB).
 *
 * - From the central directory, before any inflation: at most `maxEntries` entries; no entry over
 *   `ratioFloorBytes` unpacking to more than `maxRatio` times its packed size; a stored entry's
 *   two sizes equal; the declared sizes at most `maxTotalBytes` together.
 * - While unpacking: mammoth reads the parts through this object (its `{ file }` input, the zip
 *   interface its own jszip wrapper implements), never through jszip, so every inflation here is
 *   stopped past the entry's declared size (a size that lies is a bomb), and what mammoth reads in
 *   all (its XML parts: images are never read, see word.ts) is at most `maxReadBytes` bytes and
 *   `maxReadTags` tags.
 */
import { inflateRawSync } from 'node:zlib';
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';
import { readZipDirectory, u16, u32, type ZipEntry } from '../../domain/knowledge/zip-directory.js';

export interface DocxLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxRatio: number;
  ratioFloorBytes: number;
  maxReadBytes: number;
  maxReadTags: number;
}

const MB = 1024 * 1024;

/**
 * - 5,000 entries: a Word file has a dozen parts plus one per embedded image or object.
 * - 100 MB declared in all: twice the 50 MB upload cap; the bulk of a large real DOCX is images,
 *   which barely compress (about 1:1), while its XML compresses 5–15:1 and is bounded below.
 * - 100:1 on entries of 1 MB or more: real document XML carries random paragraph ids and packs
 *   5–15:1; one repeated paragraph packs about 340:1 (the file), deflate's ceiling is
 *   ~1,030:1. Small parts may pack tighter (an empty table, a styles part): they cannot unpack to much.
 * - 400,000 tags and 20 MB read: mammoth parses the XML into a DOM at ~1.3 KB of memory per tag
 *   (measured: 450,000 tags, 10 MB of document.xml, took the process from 108 to 680 MB for 9 s),
 *   so the worst case adds about 520 MB, inside the worker's 1,024 MB. A 300-page formatted
 *   document has 100,000–200,000 (and would pass the 2,000-chunk cap anyway past a few hundred pages).
 */
export const DOCX_LIMITS: DocxLimits = {
  maxEntries: 5_000,
  maxTotalBytes: 100 * MB,
  maxRatio: 100,
  ratioFloorBytes: 1 * MB,
  maxReadBytes: 20 * MB,
  maxReadTags: 400_000,
};

const LOCAL_HEADER = 0x04034b50;
const ENCRYPTED = 0x1;
const STORED = 0;
const DEFLATED = 8;
const LT = 0x3c;

/** What mammoth's `{ file }` input must answer (lib/zipfile.js). */
export interface DocxPackage {
  exists(name: string): boolean;
  read(name: string, encoding?: string): Promise<Uint8Array | string>;
}

const bomb = () => new KnowledgeSourceError(knowledgeMessages.zipBomb);
const tooComplex = () => new KnowledgeSourceError(knowledgeMessages.documentTooComplex);

/**
 * The package, checked from its central directory. Throws KnowledgeSourceError (zipBomb,
 * documentTooComplex) for a package over the limits, a plain Error for one that is not a readable
 * ZIP (the caller says the file is not a Word document).
 */
export function openDocxPackage(bytes: Uint8Array, limits: DocxLimits = DOCX_LIMITS): DocxPackage {
  const directory = readZipDirectory(bytes, limits.maxEntries);
  if (!directory.ok) {
    if (directory.reason === 'tooManyEntries') throw bomb();
    throw new Error('The ZIP central directory cannot be read');
  }
  let total = 0;
  for (const entry of directory.entries) {
    if (entry.flags & ENCRYPTED || (entry.method !== STORED && entry.method !== DEFLATED)) throw new Error(`Unreadable ZIP entry ${entry.name}`);
    if (entry.method === STORED && entry.compressedSize !== entry.uncompressedSize) throw bomb();
    if (entry.uncompressedSize >= limits.ratioFloorBytes && entry.uncompressedSize > entry.compressedSize * limits.maxRatio) throw bomb();
    total += entry.uncompressedSize;
  }
  if (total > limits.maxTotalBytes) throw tooComplex();

  // The last entry of a name wins, as in jszip.
  const byName = new Map(directory.entries.map((entry) => [entry.name, entry]));
  let readBytes = 0;
  let readTags = 0;
  return {
    exists: (name) => byName.has(name),
    async read(name, encoding) {
      const entry = byName.get(name);
      if (!entry) throw new Error(`No ${name} in the package`);
      const data = unpack(bytes, entry);
      readBytes += data.length;
      for (let i = 0; i < data.length; i++) if (data[i] === LT) readTags++;
      if (readBytes > limits.maxReadBytes || readTags > limits.maxReadTags) throw tooComplex();
      if (encoding === 'base64') return data.toString('base64');
      return encoding ? new TextDecoder(encoding).decode(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    },
  };
}

/** One entry's bytes; its inflation is stopped one byte past its declared size. */
function unpack(bytes: Uint8Array, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || u32(bytes, at) !== LOCAL_HEADER) throw new Error(`No local header for ${entry.name}`);
  const start = at + 30 + u16(bytes, at + 26) + u16(bytes, at + 28);
  if (start + entry.compressedSize > bytes.length) throw new Error(`${entry.name} is cut off`);
  const packed = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === STORED) return Buffer.from(packed);
  let data: Buffer;
  try {
    data = inflateRawSync(packed, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw bomb();
    throw error;
  }
  if (data.length > entry.uncompressedSize) throw bomb();
  return data;
}
