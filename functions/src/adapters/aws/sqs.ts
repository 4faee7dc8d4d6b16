import { config } from '../../config.js';
import { once } from '../../lib/once.js';
import { awsJsonService } from './aws-json.js';

/**
 * SQS (its JSON 1.0 protocol) over fetch (aws-json.ts), as the SDK's SQS client sends it
 * (x-amzn-query-mode: the error codes of the older query protocol stay the same).
 * Pure: a bundle that never sends (e.g. the ingestion workers) drops it.
 */
export const sqsService = /* @__PURE__ */ once(() => {
  const { AWS_REGION, SQS_ENDPOINT } = config();
  return awsJsonService({
    service: 'sqs',
    targetPrefix: 'AmazonSQS',
    jsonVersion: '1.0',
    region: AWS_REGION,
    headers: { 'x-amzn-query-mode': 'true' },
    ...(SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT } : {}),
  });
});
