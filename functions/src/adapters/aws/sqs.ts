import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../../config.js';
import { once } from '../../lib/once.js';

// Pure: a bundle that never sends (e.g. the ingestion workers) drops the SQS client.
export const sqsClient = /* @__PURE__ */ once(() => {
  const { AWS_REGION, SQS_ENDPOINT } = config();
  return new SQSClient({ region: AWS_REGION, endpoint: SQS_ENDPOINT });
});
