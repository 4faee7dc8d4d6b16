/**
 * The central directory of a ZIP archive (a DOCX is one): every entry's name, method, sizes and
 * where its local header is, read from the end-of-central-directory record (ZIP64 included)
 * without inflating anything. Pure: the sniffer reads names from it, the DOCX reader checks the
 * declared sizes against its limits before any byte is unpacked (adapters/extract/docx-package.ts).
 */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (anything else is unreadable here and for jszip). */
  method: number;
  /** General purpose flags (bit 0: encrypted). */
  flags: number;
  compressedSize: number;
  /** As declared: the reader must not trust it (an inflated stream is stopped past it). */
  uncompressedSize: number;
  localHeaderOffset: number;
}

export type ZipDirectory =
  | { ok: true; entries: ZipEntry[] }
  /** `unreadable`: no end record, or a directory that does not hold together; `tooManyEntries`: more than asked for. */
  | { ok: false; reason: 'unreadable' | 'tooManyEntries' };

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const ZIP64_EXTRA = 0x0001;
const MAX_COMMENT = 0xffff;

export const u16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
export const u32 = (b: Uint8Array, at: number) => (u16(b, at) + u16(b, at + 2) * 0x10000) >>> 0;
/** A little-endian 64-bit field as a number (exact up to 2^53, which no 50 MB archive reaches). */
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 0x100000000;

function endRecord(bytes: Uint8Array): number {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - MAX_COMMENT); at--) {
    if (u32(bytes, at) === EOCD) return at;
  }
  return -1;
}

/** The archive's entries from its central directory, or why they cannot be had. Reads at most `maxEntries` entries. */
export function readZipDirectory(bytes: Uint8Array, maxEntries = Number.MAX_SAFE_INTEGER): ZipDirectory {
  const eocd = endRecord(bytes);
  if (eocd < 0) return { ok: false, reason: 'unreadable' };
  let count = u16(bytes, eocd + 10);
  let at = u32(bytes, eocd + 16);
  // ZIP64: the fields that do not fit are 0xFFFF / 0xFFFFFFFF, the real values in the ZIP64 end record.
  if (count === 0xffff || at === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || u32(bytes, locator) !== EOCD64_LOCATOR) return { ok: false, reason: 'unreadable' };
    const record = u64(bytes, locator + 8);
    if (record + 56 > bytes.length || u32(bytes, record) !== EOCD64) return { ok: false, reason: 'unreadable' };
    count = u64(bytes, record + 32);
    at = u64(bytes, record + 48);
  }
  if (count > maxEntries) return { ok: false, reason: 'tooManyEntries' };
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== CENTRAL) return { ok: false, reason: 'unreadable' };
    const nameLength = u16(bytes, at + 28);
    const extraLength = u16(bytes, at + 30);
    const next = at + 46 + nameLength + extraLength + u16(bytes, at + 32);
    if (next > bytes.length) return { ok: false, reason: 'unreadable' };
    const entry: ZipEntry = {
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: u16(bytes, at + 10),
      flags: u16(bytes, at + 8),
      compressedSize: u32(bytes, at + 20),
      uncompressedSize: u32(bytes, at + 24),
      localHeaderOffset: u32(bytes, at + 42),
    };
    if (!readZip64Extra(bytes, at + 46 + nameLength, extraLength, entry)) return { ok: false, reason: 'unreadable' };
    entries.push(entry);
    at = next;
  }
  return { ok: true, entries };
}

/** Fills the sizes and offset that did not fit in 32 bits from the entry's ZIP64 extra field (in that order); false when it is missing. */
function readZip64Extra(bytes: Uint8Array, start: number, length: number, entry: ZipEntry): boolean {
  const fields = (['uncompressedSize', 'compressedSize', 'localHeaderOffset'] as const).filter((f) => entry[f] === 0xffffffff);
  if (fields.length === 0) return true;
  for (let at = start; at + 4 <= start + length; at += 4 + u16(bytes, at + 2)) {
    if (u16(bytes, at) !== ZIP64_EXTRA) continue;
    if (u16(bytes, at + 2) < fields.length * 8) return false;
    fields.forEach((field, i) => (entry[field] = u64(bytes, at + 4 + i * 8)));
    return true;
  }
  return false;
}
