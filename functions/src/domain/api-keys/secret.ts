/** Making and recognising API keys: 'ak_' + 32 random bytes in base64url (43 characters). */
import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX, API_KEY_PREFIX_LENGTH } from '../../contract/api-keys.js';

export const API_KEY_PATTERN = /^ak_[A-Za-z0-9_-]{43}$/;

export function newApiKey(): { key: string; keyHash: string; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, keyHash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX_LENGTH) };
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/**
 * The API key a request presents, if any: `x-api-key: ak_…` or `Authorization: Bearer ak_…`
 * (header names lower-cased). Only the shape is checked here; the hash lookup decides.
 */
export function presentedApiKey(headers: Record<string, string | undefined>): string | null {
  const direct = headers['x-api-key']?.trim();
  if (direct) return direct;
  const match = /^Bearer\s+(ak_\S*)\s*$/i.exec(headers.authorization ?? '');
  return match?.[1] ?? null;
}
