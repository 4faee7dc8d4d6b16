/**
 * Is it really audio, and how long is it? From the first bytes (the container's magic) and the
 * container's own headers, without decoding: a customer's "audio" that is a PDF or a program is
 * refused before it costs a transcription, and the plan's minutes are reserved before the call.
 *
 * WhatsApp voice notes are Ogg Opus (ogg.ts: exact duration, cut at a page boundary); customers
 * also send MP3, M4A/AAC, AMR and WAV files as audio. Their duration: WAV and AMR exact, M4A from
 * its movie header, MP3 estimated from its first frame's bitrate; unknown otherwise (the
 * provider's figure settles the minutes afterwards).
 */
import { readOgg } from './ogg.js';

export type AudioContainer = 'ogg' | 'mp3' | 'aac' | 'mp4' | 'amr' | 'amr-wb' | 'wav' | 'flac' | 'webm';

const ascii = (bytes: Uint8Array, text: string, at = 0) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** The audio container the bytes start with, or null when they are not audio we know. */
export function sniffAudio(bytes: Uint8Array): AudioContainer | null {
  if (ascii(bytes, 'OggS')) return 'ogg';
  if (ascii(bytes, '#!AMR-WB\n')) return 'amr-wb';
  if (ascii(bytes, '#!AMR\n')) return 'amr';
  if (ascii(bytes, 'RIFF') && ascii(bytes, 'WAVE', 8)) return 'wav';
  if (ascii(bytes, 'fLaC')) return 'flac';
  if (ascii(bytes, 'ftyp', 4)) return 'mp4';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'webm';
  if (ascii(bytes, 'ID3')) return 'mp3';
  // Frame sync: 11 bits set. ADTS AAC has layer 00 (0xFFF0/0xFFF1 and MPEG-2 0xFFF8/0xFFF9).
  if (bytes[0] === 0xff && bytes[1] !== undefined && (bytes[1] & 0xe0) === 0xe0) return (bytes[1] & 0x06) === 0 ? 'aac' : 'mp3';
  return null;
}

/** The file name and MIME type OpenAI is sent (it recognises the format by the name's extension). */
export const AUDIO_FILES: Record<AudioContainer, { extension: string; mimeType: string }> = {
  ogg: { extension: 'ogg', mimeType: 'audio/ogg' },
  mp3: { extension: 'mp3', mimeType: 'audio/mpeg' },
  aac: { extension: 'aac', mimeType: 'audio/aac' },
  mp4: { extension: 'm4a', mimeType: 'audio/mp4' },
  amr: { extension: 'amr', mimeType: 'audio/amr' },
  'amr-wb': { extension: 'amr', mimeType: 'audio/amr-wb' },
  wav: { extension: 'wav', mimeType: 'audio/wav' },
  flac: { extension: 'flac', mimeType: 'audio/flac' },
  webm: { extension: 'webm', mimeType: 'audio/webm' },
};

/**
 * What OpenAI's transcription takes (flac, mp3, mp4/m4a, ogg, wav, webm): raw ADTS AAC and AMR
 * (old Android recorders; rare on WhatsApp today) are audio it refuses, so they are not sent.
 */
export const TRANSCRIBABLE: ReadonlySet<AudioContainer> = new Set(['ogg', 'mp3', 'mp4', 'wav', 'flac', 'webm']);

const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

function wavSeconds(b: Uint8Array): number | undefined {
  let byteRate = 0;
  for (let at = 12; at + 8 <= b.length; ) {
    const size = u32le(b, at + 4);
    if (ascii(b, 'fmt ', at)) byteRate = u32le(b, at + 16);
    if (ascii(b, 'data', at)) return byteRate > 0 ? Math.min(size, b.length - at - 8) / byteRate : undefined;
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** moov → mvhd: duration / timescale. */
function mp4Seconds(b: Uint8Array): number | undefined {
  const find = (from: number, to: number, type: string): number | undefined => {
    for (let at = from; at + 8 <= to; ) {
      const size = u32be(b, at);
      if (ascii(b, type, at + 4)) return at;
      if (size < 8) return undefined;
      at += size;
    }
    return undefined;
  };
  const moov = find(0, b.length, 'moov');
  if (moov === undefined) return undefined;
  const mvhd = find(moov + 8, Math.min(b.length, moov + u32be(b, moov)), 'mvhd');
  if (mvhd === undefined) return undefined;
  const version = b[mvhd + 8];
  const [scaleAt, durationAt] = version === 1 ? [mvhd + 28, mvhd + 32] : [mvhd + 20, mvhd + 24];
  if (durationAt + 8 > b.length) return undefined;
  const timescale = u32be(b, scaleAt);
  const duration = version === 1 ? u32be(b, durationAt) * 2 ** 32 + u32be(b, durationAt + 4) : u32be(b, durationAt);
  return timescale > 0 ? duration / timescale : undefined;
}

// Speech frame bytes (after the 1-byte header) by frame type; 20 ms each.
const AMR_NB = [12, 13, 15, 17, 19, 20, 26, 31, 5, 0, 0, 0, 0, 0, 0, 0];
const AMR_WB = [17, 23, 32, 36, 40, 46, 50, 58, 60, 5, 0, 0, 0, 0, 0, 0];

function amrSeconds(b: Uint8Array, wide: boolean): number {
  const sizes = wide ? AMR_WB : AMR_NB;
  let frames = 0;
  for (let at = wide ? 9 : 6; at < b.length; frames++) at += 1 + sizes[(b[at]! >> 3) & 0x0f]!;
  return frames * 0.02;
}

const MP3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_KBPS_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

/** The first frame's bitrate over the rest of the file (constant bitrate assumed: an estimate). */
function mp3Seconds(b: Uint8Array): number | undefined {
  let at = 0;
  if (ascii(b, 'ID3') && b.length >= 10) at = 10 + ((b[6]! << 21) | (b[7]! << 14) | (b[8]! << 7) | b[9]!);
  for (; at + 4 <= b.length && at < 64 * 1024; at++) {
    if (b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) continue;
    const mpeg1 = (b[at + 1]! & 0x18) === 0x18;
    const kbps = (mpeg1 ? MP3_KBPS : MP3_KBPS_V2)[b[at + 2]! >> 4];
    if (kbps) return ((b.length - at) * 8) / (kbps * 1000);
  }
  return undefined;
}

/** Seconds of audio as its container says (undefined: not known before the provider tells). */
export function audioSeconds(bytes: Uint8Array, container: AudioContainer): number | undefined {
  switch (container) {
    case 'ogg': {
      const seconds = readOgg(bytes)?.durationSeconds;
      return seconds ? seconds : undefined;
    }
    case 'wav':
      return wavSeconds(bytes);
    case 'mp4':
      return mp4Seconds(bytes);
    case 'amr':
    case 'amr-wb':
      return amrSeconds(bytes, container === 'amr-wb');
    case 'mp3':
      return mp3Seconds(bytes);
    default:
      return undefined;
  }
}
