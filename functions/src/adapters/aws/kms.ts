import { config } from '../../config.js';
import { once } from '../../lib/once.js';
import { awsJsonService } from './aws-json.js';

/**
 * KMS (JSON 1.1) over fetch (aws-json.ts): only used in AWS (the local runtime seals with a key
 * file), so no local endpoint.
 */
export const kmsService = once(() => awsJsonService({ service: 'kms', targetPrefix: 'TrentService', jsonVersion: '1.1', region: config().AWS_REGION }));
