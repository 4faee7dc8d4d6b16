/**
 * AWS SDK clients, created once per container. In AWS the endpoints are unset and the
 * SDK talks to the real services; locally they point at the emulators.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.js';

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

export const documentClient = once(() => {
  const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
  const client = new DynamoDBClient({ region: AWS_REGION, endpoint: DYNAMODB_ENDPOINT });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
});

export const cognitoClient = once(() => {
  const { AWS_REGION, COGNITO_ENDPOINT } = config();
  return new CognitoIdentityProviderClient({ region: AWS_REGION, endpoint: COGNITO_ENDPOINT });
});

export const s3Client = once(() => {
  const { AWS_REGION, S3_ENDPOINT } = config();
  // s3rver only understands path-style addressing.
  return new S3Client({ region: AWS_REGION, endpoint: S3_ENDPOINT, forcePathStyle: Boolean(S3_ENDPOINT) });
});

export const sesClient = once(() => {
  const { AWS_REGION, SES_ENDPOINT } = config();
  return new SESv2Client({ region: AWS_REGION, endpoint: SES_ENDPOINT });
});

export const sqsClient = once(() => {
  const { AWS_REGION, SQS_ENDPOINT } = config();
  return new SQSClient({ region: AWS_REGION, endpoint: SQS_ENDPOINT });
});
