/** Secrets Manager reads (only in AWS: the local runtime configures Stripe through STRIPE_* instead). */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '../../config.js';
import { once } from '../../lib/once.js';
import type { SecretReader } from '../stripe/secrets.js';

export const secretsManagerClient = once(() => new SecretsManagerClient({ region: config().AWS_REGION }));

export class SecretsManagerReader implements SecretReader {
  constructor(private readonly client: SecretsManagerClient) {}

  async readSecretString(secretId: string): Promise<string> {
    const out = await this.client.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (typeof out.SecretString !== 'string') throw new Error(`Secret ${secretId} has no string value`);
    return out.SecretString;
  }
}
