/**
 * A Word 97–2003 .doc (an OLE2 compound file) checked before word-extractor reads it, the way
 * that library reads it (lib/ole-*.js, word-ole-extractor.js), because it trusts the file:
 * - it follows sector chains with no cycle check (A → B → A grows its list until the process runs
 *   out of memory, in a synchronous loop that stalls everything else meanwhile) and sizes its
 *   buffers from the header's counts and the chains' lengths;
 * - its piece table may point any number of pieces at the same bytes, so a small file can ask for
 *   gigabytes of text.
 * Here every chain it walks (FAT sectors through the DIFAT, directory, mini FAT, mini stream, each
 * stream) must stay inside the file and never repeat a sector, every count and stream size must
 * fit in the file, and the text the piece table describes must fit the text budget. A file that
 * fails a structural check is not a readable .doc (a plain Error); one with too much text is a
 * KnowledgeSourceError.
 */
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';
import { DEFAULT_CHUNKING, MAX_DOCUMENT_CHARS } from '../../domain/knowledge/chunking.js';

const HEADER_MSAT_ENTRIES = 109;
const DIRECTORY_ENTRY = 128;
const STREAM = 2;
const ROOT = 5;
const NO_SECTOR = -1;
/** FIB offsets in the WordDocument stream. */
const FIB_FLAGS = 0x000a;
const FIB_WHICH_TABLE = 0x0200;
const FIB_FC_CLX = 0x01a2;

class Corrupt extends Error {}

interface DirEntry {
  name: string;
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

export function checkCompoundFile(bytes: Uint8Array, maxTextChars = MAX_DOCUMENT_CHARS): void {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 512) throw new Corrupt('Shorter than an OLE2 header');
  const shift = b.readInt16LE(30);
  if ((shift !== 9 && shift !== 12) || b.readInt16LE(32) !== 6) throw new Corrupt('Unusual sector sizes');
  const secSize = 1 << shift;
  const perSector = secSize / 4;
  // Sector n starts at (n + 1) * secSize (the header fills sector -1): these lie in the file.
  const sectors = Math.ceil(b.length / secSize) - 1;
  const [satSize, dirStart, cutoff, ssatStart, ssatSize, msatStart, msatSize] = [44, 48, 56, 60, 64, 68, 72].map((at) => b.readInt32LE(at)) as [
    number, number, number, number, number, number, number,
  ];
  for (const count of [satSize, ssatSize, msatSize]) if (count < 0 || count > sectors) throw new Corrupt('A table larger than the file');

  const sector = (id: number): Buffer => {
    if (!Number.isInteger(id) || id < 0 || id >= sectors) throw new Corrupt(`Sector ${id} is outside the file`);
    const start = (id + 1) * secSize;
    const out = Buffer.alloc(secSize);
    b.copy(out, 0, start, Math.min(b.length, start + secSize));
    return out;
  };
  const ints = (buf: Buffer) => Array.from({ length: buf.length / 4 }, (_, i) => buf.readInt32LE(i * 4));

  // The FAT's own sectors: 109 in the header, the rest in the DIFAT chain.
  const msat = Array.from({ length: HEADER_MSAT_ENTRIES }, (_, i) => b.readInt32LE(76 + i * 4)).slice(0, satSize);
  if (satSize > HEADER_MSAT_ENTRIES && msatSize > 0) {
    const seen = new Set<number>();
    let id = msatStart;
    for (let i = 0; i < msatSize && msat.length < satSize; i++) {
      if (seen.has(id)) throw new Corrupt('The DIFAT chain loops');
      seen.add(id);
      const entries = ints(sector(id));
      msat.push(...entries.slice(0, perSector - 1).slice(0, satSize - msat.length));
      id = entries[perSector - 1]!;
    }
  }
  if (msat.length < satSize) throw new Corrupt('The DIFAT is cut short');
  const fat = msat.flatMap((id) => ints(sector(id)));

  /** The chain from `start` as word-extractor follows it (until a negative id or one past the table), checked. */
  const chain = (table: readonly number[], start: number, limit: number): number[] => {
    const ids: number[] = [];
    const seen = new Set<number>();
    for (let id = start; id > NO_SECTOR; ) {
      if (id >= limit || seen.has(id)) throw new Corrupt('A sector chain leaves the file or loops');
      seen.add(id);
      ids.push(id);
      const next = table[id];
      // word-extractor stops where the table ends and where a sector points at itself.
      if (next === undefined || next === id) break;
      id = next;
    }
    return ids;
  };

  const ssatChain = chain(fat, ssatStart, sectors);
  if (ssatChain.length !== ssatSize) throw new Corrupt('The mini FAT has the wrong size');
  const miniFat = ssatChain.flatMap((id) => ints(sector(id)));

  const directory = Buffer.concat(chain(fat, dirStart, sectors).map(sector));
  const entries: DirEntry[] = [];
  for (let at = 0; at + DIRECTORY_ENTRY <= directory.length; at += DIRECTORY_ENTRY) {
    entries.push({
      name: directory.toString('utf16le', at, at + Math.min(64, Math.max(directory.readInt16LE(at + 64) - 1, 0))),
      type: directory.readInt8(at + 66),
      left: directory.readInt32LE(at + 68),
      right: directory.readInt32LE(at + 72),
      child: directory.readInt32LE(at + 76),
      start: directory.readInt32LE(at + 116),
      size: directory.readInt32LE(at + 120),
    });
  }
  const root = entries.find((e) => e.type === ROOT);
  if (!root || root.size < 0 || root.size > b.length) throw new Corrupt('No usable root entry');
  const miniStream = chain(fat, root.start, sectors);
  const miniSectors = (miniStream.length * secSize) / 64;

  /** A stream's sectors (mini sectors below the cutoff, as word-extractor reads it), its size checked. */
  const streamChain = (entry: DirEntry) => {
    if (entry.size < 0 || entry.size > b.length) throw new Corrupt(`Stream ${entry.name} is larger than the file`);
    return entry.size < cutoff ? { mini: true, ids: chain(miniFat, entry.start, miniSectors) } : { mini: false, ids: chain(fat, entry.start, sectors) };
  };
  // Every stream's chain and size, whether or not word-extractor opens it (nothing is copied here).
  for (const entry of entries) if (entry.type === STREAM) streamChain(entry);
  const streamBytes = (entry: DirEntry): Buffer => {
    const { mini, ids } = streamChain(entry);
    if (!mini) return Buffer.concat(ids.map(sector)).subarray(0, entry.size);
    const container = Buffer.concat(miniStream.map(sector));
    return Buffer.concat(ids.map((id) => container.subarray(id * 64, id * 64 + 64))).subarray(0, entry.size);
  };

  // The text the piece table asks for, read from the root's own streams as word-extractor finds them.
  const top = rootStreams(entries, root);
  const word = top.get('WordDocument');
  if (!word) return;
  const fib = streamBytes(word);
  const table = top.get((fib.readUInt16LE(FIB_FLAGS) & FIB_WHICH_TABLE) !== 0 ? '1Table' : '0Table');
  if (!table) return;
  if (pieceTableChars(fib, streamBytes(table)) > maxTextChars) {
    throw new KnowledgeSourceError(knowledgeMessages.tooManyChunks(DEFAULT_CHUNKING.maxChunks));
  }
}

/** The root storage's streams by name (its children: the red-black tree under `child`), as word-extractor's hierarchy has them. */
function rootStreams(entries: readonly DirEntry[], root: DirEntry): Map<string, DirEntry> {
  const out = new Map<string, DirEntry>();
  const seen = new Set<number>();
  const stack = [root.child];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id < 0 || id >= entries.length || seen.has(id)) continue;
    seen.add(id);
    const entry = entries[id]!;
    if (entry.type === STREAM) out.set(entry.name, entry);
    stack.push(entry.left, entry.right);
  }
  return out;
}

/** Characters word-extractor would cut from the WordDocument stream for the piece table (its writePieces, summed). */
function pieceTableChars(word: Buffer, table: Buffer): number {
  let pos = word.readUInt32LE(FIB_FC_CLX);
  while (table.readUInt8(pos) === 1) pos += 3 + table.readUInt16LE(pos + 1);
  if (table.readUInt8(pos) !== 2) throw new Corrupt('No piece table');
  const pieces = (table.readUInt32LE(pos + 1) - 4) / 12;
  pos += 5;
  let total = 0;
  for (let x = 0; x < pieces; x++) {
    let filePos = table.readUInt32LE(pos + (pieces + 1) * 4 + x * 8 + 2);
    const compressed = (filePos & 0x40000000) !== 0;
    if (compressed) filePos = Math.floor((filePos & ~0x40000000) / 2);
    const bpc = compressed ? 1 : 2;
    const length = table.readUInt32LE(pos + (x + 1) * 4) - table.readUInt32LE(pos + x * 4);
    // A slice of the stream: never past its end, nothing for a backwards piece.
    total += Math.max(0, Math.min(length * bpc, word.length - filePos)) / bpc;
  }
  return total;
}
