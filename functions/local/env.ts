/**
 * The environment the handlers see locally: the same variables the CDK stack sets on the
 * Lambda functions, pointed at the emulators. Applied to process.env before any handler is
 * imported (config() caches its first read; resetConfig() clears a stale one).
 */
import { resetConfig } from '../src/config.js';
import type { QueueName } from '../src/routes.js';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './services.js';

export const queueEnvName = (queue: QueueName | string) => `QUEUE_URL_${queue.toUpperCase().replace(/-/g, '_')}`;

export interface HandlerEnvInput {
  appUrl: string;
  dataDir: string;
  tableName: string;
  uploadsBucket: string;
  userPoolId: string;
  userPoolClientId: string;
  endpoints: { dynamodb: string; cognito: string; s3: string; ses: string; sqs: string };
  queueUrls: Record<string, string>;
  /** Local billing mode: the fake Stripe the SDK is pointed at (omit to leave STRIPE_* alone). */
  stripe?: { apiUrl: string; secretKey: string; webhookSecret: string; prices: Record<string, string> };
  extra?: Record<string, string>;
}

export function handlerEnv(input: HandlerEnvInput): Record<string, string> {
  const env: Record<string, string> = {
    RUNTIME: 'local',
    AWS_REGION: LOCAL_REGION,
    APP_URL: input.appUrl,
    LOCAL_DATA_DIR: input.dataDir,
    TABLE_NAME: input.tableName,
    UPLOADS_BUCKET: input.uploadsBucket,
    USER_POOL_ID: input.userPoolId,
    USER_POOL_CLIENT_ID: input.userPoolClientId,
    DYNAMODB_ENDPOINT: input.endpoints.dynamodb,
    COGNITO_ENDPOINT: input.endpoints.cognito,
    S3_ENDPOINT: input.endpoints.s3,
    SES_ENDPOINT: input.endpoints.ses,
    SQS_ENDPOINT: input.endpoints.sqs,
  };
  for (const [queue, url] of Object.entries(input.queueUrls)) env[queueEnvName(queue)] = url;
  if (input.stripe) {
    env.STRIPE_API_URL = input.stripe.apiUrl;
    env.STRIPE_SECRET_KEY = input.stripe.secretKey;
    env.STRIPE_WEBHOOK_SECRET = input.stripe.webhookSecret;
    for (const [plan, priceId] of Object.entries(input.stripe.prices)) env[`STRIPE_PRICE_${plan.toUpperCase()}`] = priceId;
  }
  return { ...env, ...input.extra };
}

/** Install the handler environment in this process. */
export function applyHandlerEnv(env: Record<string, string>): void {
  Object.assign(process.env, env);
  // Dummy credentials: the emulators need a signature, never real keys (and s3rver wants these).
  process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  process.env.AWS_REGION = env.AWS_REGION ?? LOCAL_REGION;
  resetConfig();
}
