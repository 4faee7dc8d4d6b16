/**
 * Meta's webhook signatures (ARCHITECTURE §8-9): X-Hub-Signature-256 is 'sha256=' + the hex
 * HMAC-SHA256 of the RAW body bytes with the app secret; the handshake's verify token is compared
 * in constant time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE_RE = /^sha256=([0-9a-f]{64})$/i;

/** 'sha256=' + hex HMAC-SHA256 of the raw body with the app secret (what Meta sends). */
export function metaSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** Whether X-Hub-Signature-256 matches the raw body, compared in constant time. */
export function isValidMetaSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  const match = SIGNATURE_RE.exec(header?.trim() ?? '');
  if (!match || !appSecret) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

/** Constant-time equality of two strings of any length (compares their SHA-256 digests). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected)) && expected.length > 0;
}
