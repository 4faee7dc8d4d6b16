/**
 * AES-256-GCM for the secret boxes: a fresh 96-bit IV per seal, the 128-bit tag appended to the
 * ciphertext, and the format prefix ("v1:kms" / "v1:local") as additional authenticated data,
 * so a sealed value cannot be replayed under another format. Parts are base64url (no ':').
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The sealed value could not be opened: tampered with, truncated, or sealed with another key. */
export class SecretOpenError extends Error {
  constructor(message = 'The secret could not be decrypted') {
    super(message);
    this.name = 'SecretOpenError';
  }
}

export const b64 = (buf: Uint8Array) => Buffer.from(buf).toString('base64url');

export function fromB64(text: string | undefined): Buffer {
  if (!text || !/^[A-Za-z0-9_-]+$/.test(text)) throw new SecretOpenError('Malformed sealed secret');
  return Buffer.from(text, 'base64url');
}

/** Returns [iv, ciphertext+tag] as base64url parts. */
export function encrypt(key: Uint8Array, plaintext: string, aad: string): [string, string] {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return [b64(iv), b64(body)];
}

export function decrypt(key: Uint8Array, ivPart: string | undefined, bodyPart: string | undefined, aad: string): string {
  const iv = fromB64(ivPart);
  const body = fromB64(bodyPart);
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new SecretOpenError('Malformed sealed secret');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretOpenError();
  }
}
