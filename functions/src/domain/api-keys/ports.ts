/**
 * Ports of the API keys (SPEC §7 API keys; issue 8). The key itself is never stored: only its
 * SHA-256 (hex) and its first API_KEY_PREFIX_LENGTH characters.
 */

export interface StoredApiKey {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  /** SHA-256 hex of the full key. */
  keyHash: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** What a key's hash resolves to (the lookup item). */
export interface ApiKeyIdentity {
  userId: string;
  keyId: string;
}

export type CreateOutcome = 'created' | 'tooMany';

export interface ApiKeyRepository {
  /** Newest first. */
  list(userId: string): Promise<StoredApiKey[]>;
  get(userId: string, id: string): Promise<StoredApiKey | null>;
  /** Key item + hash lookup + per-user count in one transaction; 'tooMany' when the count is at `max`. */
  create(key: StoredApiKey, max: number): Promise<CreateOutcome>;
  /** Swaps the hash (and prefix) in one transaction: the old lookup is removed, the new one written. False when the key changed or vanished meanwhile. */
  replaceSecret(userId: string, id: string, expected: { keyHash: string }, next: { keyHash: string; prefix: string }): Promise<boolean>;
  /** Key item + lookup + count in one transaction. False when the key does not exist. */
  remove(userId: string, id: string, keyHash: string): Promise<boolean>;
}

/** The lookup by hash (the authorizer). */
export interface ApiKeyLookup {
  findByHash(keyHash: string): Promise<ApiKeyIdentity | null>;
}

export type UseDecision =
  | { kind: 'allowed' }
  | { kind: 'limited'; retryAfterSeconds: number }
  /** The key was deleted or regenerated (the authorizer's view may be up to a minute old). */
  | { kind: 'invalid' };

/**
 * One request made with an API key: a fixed-window counter on the key item (checked against the
 * key's current hash, so a deleted or regenerated key stops at once), lastUsedAt written when a
 * new window opens (at most once per window).
 */
export interface ApiKeyUsage {
  recordUse(input: { userId: string; keyId: string; keyHash: string; nowMs: number; max: number; windowSeconds: number }): Promise<UseDecision>;
}
