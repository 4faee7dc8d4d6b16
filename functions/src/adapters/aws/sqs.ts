import type { SQSRecord } from 'aws-lambda';
import { config } from '../../config.js';
import { once } from '../../lib/once.js';
import { awsJsonService, publicEndpoint, type AwsJsonService } from './aws-json.js';

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

/**
 * The URL of the queue an SQS event record came from (its eventSourceARN
 * arn:aws:sqs:{region}:{account}:{name}) at `endpoint`: SQS's public endpoint in AWS
 * (https://sqs.{region}.amazonaws.com/{account}/{name}), the local SQS endpoint locally.
 */
export function queueUrlOfArn(arn: string, endpoint: string): string {
  const [, , , region, account, name] = arn.split(':');
  if (!region || !account || !name) throw new Error(`Not an SQS queue ARN: ${arn}`);
  return `${endpoint.replace(/\/+$/, '')}/${account}/${name}`;
}

/** ChangeMessageVisibility (the SDK's request): the received message becomes visible again `seconds` from now. */
export async function changeMessageVisibility(sqs: AwsJsonService, queueUrl: string, receiptHandle: string, seconds: number): Promise<void> {
  await sqs.call('ChangeMessageVisibility', { QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds });
}

/**
 * Sets when a failed record of the running invocation comes back (issue 34: the retry schedule,
 * workers/sqs-worker.ts). Needs sqs:ChangeMessageVisibility on the worker's own queue, which the
 * Lambda event source's consume grant includes.
 */
export const recordVisibility = /* @__PURE__ */ once(() => {
  const { AWS_REGION, SQS_ENDPOINT } = config();
  const endpoint = SQS_ENDPOINT || publicEndpoint('sqs', AWS_REGION);
  return (record: SQSRecord, seconds: number) => changeMessageVisibility(sqsService(), queueUrlOfArn(record.eventSourceARN, endpoint), record.receiptHandle, seconds);
});
