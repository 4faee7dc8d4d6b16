/**
 * How much a PDF's compressed streams unpack to, measured before pdf.js sees the file (issue 28):
 * pdf.js decodes a page's content stream whole into one growing buffer, and a Flate stream can
 * unpack ~1,000 times its size, so a small PDF can ask for gigabytes. Every stream whose first
 * filter is FlateDecode is inflated here with nothing kept (only its size is counted, stopped past
 * the limit); images are skipped (text extraction never decodes them). Streams pdf.js reads some
 * other way (encrypted, other first filters) are not measured: the page and text limits of
 * pdf.ts and the worker's memory bound them.
 */
import { constants, createInflate } from 'node:zlib';

export interface PdfStreamLimits {
  /** Largest unpacked stream. */
  maxStreamBytes: number;
  /** All unpacked streams together. */
  maxDecodedBytes: number;
}

export type PdfStreamVerdict = 'ok' | 'streamTooLarge' | 'tooMuchInAll';

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');
/** How far before the `stream` keyword its dictionary is looked for. */
const DICTIONARY_WINDOW = 4096;
const FLATE_FIRST = /\/Filter\s*(?:\[\s*)?\/Fl(?:ateDecode)?(?![A-Za-z])/;
const IMAGE = /\/Subtype\s*\/Image(?![A-Za-z])/;

/** Bytes `data` inflates to (zlib, as pdf.js's FlateStream reads it), counting stopped once past `limit`; a broken stream counts what came out. */
function inflatedSize(data: Uint8Array, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    let size = 0;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        inflate.destroy();
        resolve(size);
      }
    });
    inflate.on('end', () => resolve(size));
    inflate.on('error', () => resolve(size));
    inflate.end(data);
  });
}

export async function checkPdfStreams(bytes: Uint8Array, limits: PdfStreamLimits): Promise<PdfStreamVerdict> {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (let at = b.indexOf(STREAM); at >= 0; at = b.indexOf(STREAM, at + STREAM.length)) {
    // The keyword is followed by an end of line, then the data up to `endstream`.
    let start = at + STREAM.length;
    if (b[start] === 0x0d) start++;
    if (b[start] === 0x0a) start++;
    if (start === at + STREAM.length) continue;
    const end = b.indexOf(END_STREAM, start);
    if (end < 0) break;
    const dictionary = b.toString('latin1', Math.max(0, at - DICTIONARY_WINDOW), at);
    const own = dictionary.slice(dictionary.lastIndexOf('obj') + 1);
    // Past this stream's data either way: a `stream` inside it is not a keyword.
    at = end + END_STREAM.length - STREAM.length;
    if (!FLATE_FIRST.test(own) || IMAGE.test(own)) continue;
    const size = await inflatedSize(b.subarray(start, end), limits.maxStreamBytes);
    if (size > limits.maxStreamBytes) return 'streamTooLarge';
    total += size;
    if (total > limits.maxDecodedBytes) return 'tooMuchInAll';
  }
  return 'ok';
}
