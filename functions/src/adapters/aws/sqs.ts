import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../../config.js';
import { once } from '../../lib/once.js';

export const sqsClient = once(() => {
  const { AWS_REGION, SQS_ENDPOINT } = config();
  return new SQSClient({ region: AWS_REGION, endpoint: SQS_ENDPOINT });
});
