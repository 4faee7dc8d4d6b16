/**
 * A customer's media on the fakes (issue 31), for the simulate script, the media bench and tests:
 * register the bytes with the fake Graph API (local/fake-whatsapp/media.ts, POST /_test/media:
 * GET /{media-id} then serves them), the transcript the fake OpenAI answers for an audio's bytes
 * and what its model sees in a photo (fake-openai/transcriptions.ts, POST /_test/transcripts and
 * /_test/images); and a synthetic WhatsApp voice note (Ogg Opus) of a given length or size.
 */
import { createHash, randomInt } from 'node:crypto';
import { stampOggCrc } from '../../src/domain/whatsapp/media/ogg.js';

export interface RegisteredMedia {
  /** The Meta media id for the delivery's {type: {id}}. */
  id: string;
  /** What the delivery declares (Meta's sha256 of the bytes). */
  sha256: string;
  size: number;
}

async function control<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Registers a customer's media with the fake Graph API at `graphUrl` (its origin). */
export async function registerFakeMedia(graphUrl: string, bytes: Uint8Array, options: { mimeType: string }): Promise<RegisteredMedia> {
  const item = await control<{ mediaId: string; sha256: string; size: number }>(`${new URL(graphUrl).origin}/_test/media`, {
    bytes: Buffer.from(bytes).toString('base64'),
    mimeType: options.mimeType,
  });
  return { id: item.mediaId, sha256: item.sha256, size: item.size };
}

/** What the fake OpenAI at `openaiUrl` (its origin) hears in these audio bytes. */
export async function registerFakeTranscript(openaiUrl: string, bytes: Uint8Array, transcript: { text: string; language?: string }): Promise<void> {
  await control(`${new URL(openaiUrl).origin}/_test/transcripts`, {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    text: transcript.text,
    ...(transcript.language ? { language: transcript.language } : {}),
  });
}

/** What the fake OpenAI's model says it sees in this photo (an image input with these bytes). */
export async function registerFakeImage(openaiUrl: string, bytes: Uint8Array, description: string): Promise<void> {
  await control(`${new URL(openaiUrl).origin}/_test/images`, { sha256: createHash('sha256').update(bytes).digest('hex'), description });
}

// ---------------------------------------------------------------------------------------------
// A synthetic Ogg Opus voice note (RFC 3533 pages, RFC 7845 headers): what matters to the app is
// the container (magic bytes, page structure, CRC, granule positions = the duration), not sound.

/** One Ogg page holding whole packets (each < 255 × 255 bytes in all). */
function oggPage(packets: Uint8Array[], granule: bigint, serial: number, sequence: number, headerType: number): Buffer {
  const lacing: number[] = [];
  for (const p of packets) {
    let left = p.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[4] = 0;
  header[5] = headerType;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  Buffer.from(lacing).copy(header, 27);
  const page = Buffer.concat([header, ...packets]);
  stampOggCrc(page);
  return page;
}

const PRE_SKIP = 312;
/** 20 ms Opus frames at 48 kHz. */
const FRAME_SAMPLES = 960;

/**
 * An Ogg Opus voice note of `seconds` (at about 16 kbit/s, as WhatsApp records: 40-byte frames),
 * or of `bytes` in size (at most, within one page; 1,275-byte frames, Opus's largest, so 16 MB is
 * ~4.4 minutes). Each call draws its own stream serial, so two notes of one length differ: the
 * fake OpenAI answers a transcript by the audio's sha256, and tests running side by side must not
 * answer each other's notes.
 */
export function syntheticVoiceNote(size: { seconds: number } | { bytes: number }, serial = randomInt(1, 0x7fffffff)): Buffer {
  const frameBytes = 'seconds' in size ? 40 : 1275;
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1; // version
  head[9] = 1; // channels
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(48_000, 12); // the input's rate (informational)
  head.writeInt16LE(0, 16); // gain
  head[18] = 0; // mapping family
  const vendor = 'agentdesk synthetic';
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  tags.write(vendor, 12, 'latin1');
  tags.writeUInt32LE(0, 12 + vendor.length);
  const pages = [oggPage([head], 0n, serial, 0, 0x02), oggPage([tags], 0n, serial, 1, 0)];
  let total = pages[0]!.length + pages[1]!.length;
  // A page has at most 255 lacing values; a frame takes floor(size / 255) + 1 of them.
  const lacing = Math.floor(frameBytes / 255) + 1;
  const framesPerPage = Math.min(50, Math.floor(255 / lacing));
  const pageBytes = 27 + framesPerPage * (lacing + frameBytes);
  const frameCount = 'seconds' in size ? Math.ceil((size.seconds * 48_000) / FRAME_SAMPLES) : Math.floor((size.bytes - total) / pageBytes) * framesPerPage;
  let frame = 0;
  let sequence = 2;
  while (frame < frameCount) {
    const count = Math.min(framesPerPage, frameCount - frame);
    const packets = Array.from({ length: count }, (_, i) => {
      const p = Buffer.alloc(frameBytes, (frame + i) & 0xff);
      p[0] = 0x78; // TOC: SILK-only wideband, 20 ms, mono, one frame
      return p;
    });
    frame += count;
    pages.push(oggPage(packets, BigInt(PRE_SKIP + frame * FRAME_SAMPLES), serial, sequence++, frame >= frameCount ? 0x04 : 0));
    total += pages.at(-1)!.length;
  }
  return Buffer.concat(pages, total);
}
