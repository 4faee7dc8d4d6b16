/**
 * The Stripe configuration (API key, webhook signing secret, plan price ids). In AWS it is one
 * JSON secret in Secrets Manager (STRIPE_SECRET_ID), read at runtime once per container: the
 * keys never sit in the Lambda environment. Without STRIPE_SECRET_ID (local runtime, tests) the
 * same values come from the STRIPE_* variables, so both differ only by configuration.
 */
import * as z from 'zod/mini';
import type { PriceIds } from '../../domain/billing/plans.js';
import { onceAsync } from '../../lib/once.js';

export interface StripeSecrets {
  secretKey: string;
  webhookSecret: string;
  prices: PriceIds;
}

/** Reads a secret's string value by id (name or ARN): Secrets Manager in AWS, a fake in tests. */
export interface SecretReader {
  readSecretString(secretId: string): Promise<string>;
}

/** The secret's JSON keys (infra/lib/needs.ts documents them for operators). */
const required = z.string().check(z.trim(), z.minLength(1));
const secretJson = z.object({
  secretKey: required,
  webhookSecret: required,
  priceStarter: required,
  priceProfessional: required,
  priceEnterprise: required,
});

export class StripeSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StripeSecretError';
  }
}

/** Parses the secret's JSON; the error names the missing or empty keys, never a value. */
export function parseStripeSecret(secretId: string, text: string): StripeSecrets {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StripeSecretError(`Stripe secret ${secretId} is not JSON`);
  }
  const parsed = secretJson.safeParse(json);
  if (!parsed.success) {
    const keys = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)'))];
    throw new StripeSecretError(`Stripe secret ${secretId} is missing or has empty keys: ${keys.join(', ')}`);
  }
  const s = parsed.data;
  return {
    secretKey: s.secretKey,
    webhookSecret: s.webhookSecret,
    prices: { starter: s.priceStarter, professional: s.priceProfessional, enterprise: s.priceEnterprise },
  };
}

/**
 * The secret read once per container: concurrent callers share one read, and a failed read (or
 * a secret with missing keys) is forgotten so the next call tries again: a throttled read or a
 * secret fixed by the operator must not need a new container.
 */
export function cachedStripeSecrets(reader: SecretReader, secretId: string): () => Promise<StripeSecrets> {
  return onceAsync(async () => parseStripeSecret(secretId, await reader.readSecretString(secretId)));
}
