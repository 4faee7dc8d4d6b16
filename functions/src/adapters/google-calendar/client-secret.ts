/**
 * The Google OAuth client of the Calendar connection. In AWS one JSON secret in Secrets Manager
 * (GOOGLE_CALENDAR_SECRET_ID: clientId, clientSecret), read at runtime once per container, so the
 * client secret never sits in the Lambda environment; without it (local runtime, tests) the
 * GOOGLE_CALENDAR_CLIENT_ID / _SECRET variables (the local stack points them at its fake Google).
 */
import * as z from 'zod/mini';
import { onceAsync } from '../../lib/once.js';
import type { SecretReader } from '../stripe/secrets.js';

export interface GoogleClientCredentials {
  clientId: string;
  clientSecret: string;
}

const required = z.string().check(z.trim(), z.minLength(1));
const secretJson = z.object({ clientId: required, clientSecret: required });

export class GoogleClientSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoogleClientSecretError';
  }
}

/** Parses the secret's JSON; the error names the bad keys, never a value. */
export function parseGoogleClientSecret(secretId: string, text: string): GoogleClientCredentials {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new GoogleClientSecretError(`Google Calendar secret ${secretId} is not JSON`);
  }
  const parsed = secretJson.safeParse(json);
  if (!parsed.success) {
    const keys = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)'))];
    throw new GoogleClientSecretError(`Google Calendar secret ${secretId} is missing or has invalid keys: ${keys.join(', ')}`);
  }
  return parsed.data;
}

/** The client, read once per container (a failed read is tried again next time); null when nothing is configured. */
export function cachedGoogleClient(source: {
  secretId: string;
  reader: () => SecretReader;
  env: GoogleClientCredentials;
}): () => Promise<GoogleClientCredentials | null> {
  if (source.secretId) return onceAsync(async () => parseGoogleClientSecret(source.secretId, await source.reader().readSecretString(source.secretId)));
  const { clientId, clientSecret } = source.env;
  const client = clientId && clientSecret ? { clientId, clientSecret } : null;
  return async () => client;
}
