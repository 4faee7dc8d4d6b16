import { KMSClient } from '@aws-sdk/client-kms';
import { config } from '../../config.js';
import { once } from '../../lib/once.js';

/** KMS is only used in AWS (the local runtime seals with a key file), so no local endpoint. */
export const kmsClient = once(() => new KMSClient({ region: config().AWS_REGION }));
