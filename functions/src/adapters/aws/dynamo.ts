/**
 * One module per AWS client, so a function bundles only the SDK clients it uses.
 * In AWS the endpoints are unset and the SDK talks to the real services; locally
 * they point at the emulators.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../../config.js';
import { once } from '../../lib/once.js';

export const documentClient = once(() => {
  const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
  const client = new DynamoDBClient({ region: AWS_REGION, endpoint: DYNAMODB_ENDPOINT });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
});
