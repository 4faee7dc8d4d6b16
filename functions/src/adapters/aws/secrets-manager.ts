/**
 * Secrets Manager reads (only in AWS: the local runtime configures Stripe through STRIPE_* instead),
 * over fetch (aws-json.ts, JSON 1.1) instead of the SDK's client (issue 28).
 */
import { config } from '../../config.js';
import { once } from '../../lib/once.js';
import type { SecretReader } from '../stripe/secrets.js';
import { awsJsonService, type AwsJsonService } from './aws-json.js';

export const secretsManagerService = once(() =>
  awsJsonService({ service: 'secretsmanager', targetPrefix: 'secretsmanager', jsonVersion: '1.1', region: config().AWS_REGION }),
);

export class SecretsManagerReader implements SecretReader {
  constructor(private readonly service: AwsJsonService) {}

  async readSecretString(secretId: string): Promise<string> {
    const out = await this.service.call<{ SecretString?: unknown }>('GetSecretValue', { SecretId: secretId });
    if (typeof out.SecretString !== 'string') throw new Error(`Secret ${secretId} has no string value`);
    return out.SecretString;
  }
}
