/** The Stripe secret read from Secrets Manager: once per container, retried after a failure, all keys required. */
import { describe, expect, it } from 'vitest';
import { StripeSecretError, cachedStripeSecrets, type SecretReader } from '../../../src/adapters/stripe/secrets.js';

const SECRET_ID = 'agentdesk/stripe';
const complete = {
  secretKey: 'sk_live_abc',
  webhookSecret: 'whsec_abc',
  priceStarter: 'price_s',
  priceProfessional: 'price_p',
  priceEnterprise: 'price_e',
};

/** A SecretReader whose answers are scripted (a string, or an error to throw) and counted. */
class ScriptedReader implements SecretReader {
  reads: string[] = [];
  constructor(private readonly answers: (string | Error)[]) {}
  async readSecretString(secretId: string): Promise<string> {
    this.reads.push(secretId);
    const answer = this.answers.length > 1 ? this.answers.shift()! : this.answers[0]!;
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

describe('Stripe secret provider', () => {
  it('reads the secret once per container (concurrent first calls share the read) and parses its fields', async () => {
    const reader = new ScriptedReader([JSON.stringify(complete)]);
    const secrets = cachedStripeSecrets(reader, SECRET_ID);

    const [a, b] = await Promise.all([secrets(), secrets()]);
    const c = await secrets();

    expect(a).toEqual({
      secretKey: 'sk_live_abc',
      webhookSecret: 'whsec_abc',
      prices: { starter: 'price_s', professional: 'price_p', enterprise: 'price_e' },
    });
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(reader.reads).toEqual([SECRET_ID]);
  });

  it('does not keep a failed read: the next call reads again', async () => {
    const reader = new ScriptedReader([new Error('ThrottlingException'), JSON.stringify(complete)]);
    const secrets = cachedStripeSecrets(reader, SECRET_ID);

    await expect(secrets()).rejects.toThrow('ThrottlingException');
    const second = await secrets();

    expect(second.secretKey).toBe('sk_live_abc');
    expect(reader.reads).toHaveLength(2);
  });

  it('refuses a secret missing keys (or with empty ones) with an error naming them, never a value', async () => {
    const { priceEnterprise: _dropped, ...missing } = complete;
    const reader = new ScriptedReader([JSON.stringify({ ...missing, webhookSecret: ' ' }), JSON.stringify(complete)]);
    const secrets = cachedStripeSecrets(reader, SECRET_ID);

    const error = await secrets().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(StripeSecretError);
    expect((error as Error).message).toBe('Stripe secret agentdesk/stripe is missing or has empty keys: webhookSecret, priceEnterprise');
    expect((error as Error).message).not.toContain('sk_live_abc');
    // Once the operator fixes the secret, the same container picks it up.
    expect((await secrets()).prices.enterprise).toBe('price_e');
  });

  it('refuses a secret that is not JSON', async () => {
    const secrets = cachedStripeSecrets(new ScriptedReader(['sk_live_abc']), SECRET_ID);
    await expect(secrets()).rejects.toThrow('Stripe secret agentdesk/stripe is not JSON');
  });
});
