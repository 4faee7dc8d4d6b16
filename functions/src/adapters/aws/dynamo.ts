/**
 * One module per AWS service, so a function bundles only what it uses.
 * In AWS the endpoints are unset and the client talks to the real services; locally
 * they point at the emulators.
 */
import { config } from '../../config.js';
import { once } from '../../lib/once.js';
import { createDocumentClient } from './dynamo-document.js';

export const documentClient = once(() => {
  const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
  return createDocumentClient({
    region: AWS_REGION,
    ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {}),
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
});
