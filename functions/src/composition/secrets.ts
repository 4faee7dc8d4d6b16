/** The SecretBox for this runtime: a key file under LOCAL_DATA_DIR locally, KMS envelope encryption in AWS. */
import { join, resolve } from 'node:path';
import { config } from '../config.js';
import { kmsService } from '../adapters/aws/kms.js';
import { KmsSecretBox } from '../adapters/secrets/kms-box.js';
import { LocalSecretBox } from '../adapters/secrets/local-box.js';
import type { SecretBox } from '../domain/secrets/ports.js';
import { once } from '../lib/once.js';

export const secretBox = once((): SecretBox => {
  const c = config();
  if (c.RUNTIME === 'local') return new LocalSecretBox(join(resolve(c.LOCAL_DATA_DIR), 'secrets.key'));
  return new KmsSecretBox(kmsService(), c.SECRETS_KEY_ID);
});
