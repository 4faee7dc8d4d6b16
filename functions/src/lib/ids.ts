/**
 * 26-character time-sortable ids (ULID layout, Crockford base 32): 10 characters of
 * milliseconds since the epoch, then 16 characters (80 bits) of randomness. Ids made later
 * sort after earlier ones as plain strings, so "oldest first" is key order in DynamoDB.
 *
 * Within one millisecond in one process the random part is incremented instead of redrawn
 * (ULID's monotonic mode), so a burst of ids from one Lambda still sorts in creation order.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;
export const ID_LENGTH = TIME_CHARS + RANDOM_CHARS;
/** The largest time a 10-character prefix holds (2^48 - 1 ms, year 10889). */
const MAX_TIME = 2 ** 48 - 1;

export const ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** True for a well-formed id (used to refuse path parameters that cannot be ids before any read). */
export const isId = (value: string): boolean => ID_PATTERN.test(value);

/** A Cognito sub (and an integration id): a lowercase or uppercase hex UUID. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a well-formed UUID: webhook path parameters are refused on shape before any read. */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

function encodeTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_TIME) throw new RangeError(`Cannot encode time ${ms}`);
  let out = '';
  let rest = ms;
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** 16 base-32 digits (5 bits each) from 10 random bytes. */
function randomDigits(): number[] {
  const bytes = randomBytes(10);
  const digits: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      digits.push((buffer >> bits) & 31);
    }
    buffer &= (1 << bits) - 1;
  }
  return digits;
}

/** Adds one to a base-32 digit string; false when it overflows (all digits were 31). */
function increment(digits: number[]): boolean {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i]! < 31) {
      digits[i]! += 1;
      return true;
    }
    digits[i] = 0;
  }
  return false;
}

let lastTime = -1;
let lastRandom: number[] = [];

/** A new id for time `now` (ms; defaults to the clock). */
export function newId(now: number = Date.now()): string {
  let time = now;
  if (time <= lastTime) {
    // Same (or an earlier, clock went back) millisecond: continue the last sequence.
    time = lastTime;
    if (!increment(lastRandom)) {
      time = lastTime + 1;
      lastRandom = randomDigits();
    }
  } else {
    lastRandom = randomDigits();
  }
  lastTime = time;
  return encodeTime(time) + lastRandom.map((d) => ALPHABET[d]).join('');
}

/** The creation time (ms) encoded in an id. */
export function idTime(id: string): number {
  let ms = 0;
  for (const ch of id.slice(0, TIME_CHARS)) ms = ms * 32 + ALPHABET.indexOf(ch);
  return ms;
}
