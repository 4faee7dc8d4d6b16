/**
 * The VAPID key pair of Web Push (issue 29). In AWS one JSON secret in Secrets Manager
 * (PUSH_SECRET_ID: publicKey, privateKey, subject), read at runtime once per container, so the
 * private key never sits in the Lambda environment; without it (local runtime, tests) the
 * VAPID_* variables, which the local runtime fills from a pair it generated once under .data.
 */
import * as z from 'zod/mini';
import type { PushKeys } from '../../domain/notifications/push.js';
import { onceAsync } from '../../lib/once.js';
import type { SecretReader } from '../stripe/secrets.js';

const key = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9_-]+$/));
const secretJson = z.object({ publicKey: key, privateKey: key, subject: z.string().check(z.trim(), z.regex(/^(mailto:|https:)/)) });

export class PushKeysError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PushKeysError';
  }
}

/** Parses the secret's JSON; the error names the bad keys, never a value. */
export function parsePushKeys(secretId: string, text: string): PushKeys {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PushKeysError(`Push secret ${secretId} is not JSON`);
  }
  const parsed = secretJson.safeParse(json);
  if (!parsed.success) {
    const keys = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)'))];
    throw new PushKeysError(`Push secret ${secretId} is missing or has invalid keys: ${keys.join(', ')}`);
  }
  return parsed.data;
}

export interface PushKeySource {
  secretId: string;
  reader: () => SecretReader;
  env: { publicKey: string; privateKey: string; subject: string };
}

/**
 * The keys, read once per container (a failed read is forgotten, so the next call tries again);
 * null when nothing is configured (the push routes answer 503, the worker logs and drops).
 */
export function cachedPushKeys(source: PushKeySource): () => Promise<PushKeys | null> {
  if (source.secretId) {
    const read = onceAsync(async () => parsePushKeys(source.secretId, await source.reader().readSecretString(source.secretId)));
    return read;
  }
  const { publicKey, privateKey, subject } = source.env;
  const keys = publicKey && privateKey ? { publicKey, privateKey, subject: subject || 'mailto:alerts@agentdesk.local' } : null;
  return async () => keys;
}
