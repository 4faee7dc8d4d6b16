/**
 * Ogg (RFC 3533) as far as a voice note needs it: its duration and a cut at a page boundary.
 * WhatsApp voice notes are Ogg Opus; Ogg Vorbis is read the same way.
 *
 * A page: "OggS", version 0, header type (0x04 = last page), granule position (int64 LE: for
 * Opus, 48 kHz samples since the start, pre-skip included; for Vorbis, samples at the stream's
 * rate), serial, sequence, CRC-32 (polynomial 0x04c11db7, computed with the field zeroed),
 * segment count, segment table, body. The duration is the last page's granule position (minus
 * Opus's pre-skip) over the rate: exact, and read from the page headers only (no decoding).
 */

const CAPTURE = [0x4f, 0x67, 0x67, 0x53]; // "OggS"
const HEADER = 27;
/** A page whose granule position is -1: no packet ends on it. */
const NO_GRANULE = -1n;

export interface OggPage {
  offset: number;
  /** Header and body. */
  length: number;
  granule: bigint;
  serial: number;
  headerType: number;
  body: Uint8Array;
}

export interface OggInfo {
  codec: 'opus' | 'vorbis' | 'unknown';
  /** Samples per second the granule positions count. */
  rate: number;
  /** Opus's pre-skip (samples at 48 kHz the decoder drops): not audio. */
  preSkip: number;
  /** Seconds of audio, from the last page's granule position; 0 when none was found. */
  durationSeconds: number;
  /** The first logical stream's pages, in order (a chained or multiplexed file: the others are left out). */
  pages: OggPage[];
}

const isCapture = (bytes: Uint8Array, at: number) => CAPTURE.every((b, i) => bytes[at + i] === b);

function view(bytes: Uint8Array) {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The pages from the start, stopping at the first that is not whole (a cut-off download keeps what came before). */
export function oggPages(bytes: Uint8Array): OggPage[] {
  const pages: OggPage[] = [];
  const data = view(bytes);
  let at = 0;
  while (at + HEADER <= bytes.length && isCapture(bytes, at) && bytes[at + 4] === 0) {
    const segments = bytes[at + 26]!;
    if (at + HEADER + segments > bytes.length) break;
    let bodyLength = 0;
    for (let i = 0; i < segments; i++) bodyLength += bytes[at + HEADER + i]!;
    const length = HEADER + segments + bodyLength;
    if (at + length > bytes.length) break;
    pages.push({
      offset: at,
      length,
      granule: data.getBigInt64(at + 6, true),
      serial: data.getUint32(at + 14, true),
      headerType: bytes[at + 5]!,
      body: bytes.subarray(at + HEADER + segments, at + length),
    });
    at += length;
  }
  return pages;
}

const startsWithText = (bytes: Uint8Array, text: string, at = 0) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** Codec, rate and duration of an Ogg file (null when it is not Ogg). */
export function readOgg(bytes: Uint8Array): OggInfo | null {
  const all = oggPages(bytes);
  const first = all[0];
  if (!first) return null;
  const pages = all.filter((p) => p.serial === first.serial);
  const head = first.body;
  let codec: OggInfo['codec'] = 'unknown';
  let rate = 48_000;
  let preSkip = 0;
  if (startsWithText(head, 'OpusHead') && head.length >= 19) {
    codec = 'opus';
    preSkip = head[10]! | (head[11]! << 8);
  } else if (head[0] === 1 && startsWithText(head, 'vorbis', 1) && head.length >= 16) {
    codec = 'vorbis';
    rate = view(head).getUint32(12, true) || 48_000;
  }
  const last = [...pages].reverse().find((p) => p.granule !== NO_GRANULE && p.granule > 0n);
  const samples = last ? Number(last.granule) - preSkip : 0;
  return { codec, rate, preSkip, durationSeconds: Math.max(0, samples / rate), pages };
}

// CRC-32 of Ogg: polynomial 0x04c11db7, not reflected, initial value 0, no final XOR.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]!) >>> 0;
  return crc >>> 0;
}

/** Stamps a page's CRC (the header's CRC field zeroed while it is computed). */
export function stampOggCrc(page: Uint8Array): void {
  page.fill(0, 22, 26);
  view(page).setUint32(22, oggCrc(page), true);
}

/**
 * The first `seconds` of an Ogg file, cut after the last page that ends by then (its granule
 * position): whole pages, which any decoder plays (as a recording that stopped; its last page is
 * not marked EOS). A view of `bytes`, not a copy: the worker holds one copy of a 16 MB voice note,
 * never two. Null when the file is not longer than `seconds` or is not Ogg.
 */
export function cutOgg(bytes: Uint8Array, seconds: number): { bytes: Uint8Array; durationSeconds: number } | null {
  const info = readOgg(bytes);
  if (!info || info.durationSeconds <= seconds) return null;
  const limit = BigInt(Math.floor(seconds * info.rate) + info.preSkip);
  let keep: OggPage | undefined;
  for (const page of info.pages) {
    if (page.granule === NO_GRANULE) continue;
    if (page.granule > limit) break;
    keep = page;
  }
  // Not even the first audio page fits: nothing worth sending.
  if (!keep || keep.granule <= 0n) return null;
  return { bytes: bytes.subarray(0, keep.offset + keep.length), durationSeconds: Math.max(0, (Number(keep.granule) - info.preSkip) / info.rate) };
}
