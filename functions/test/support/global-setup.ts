/**
 * Integration global setup: one local stack (the same one `npm start` runs) on free ports
 * with a throw-away data dir, shared by every integration test file, plus a fake Google
 * identity provider the API trusts through GOOGLE_JWKS_URL. The stack's fake Stripe (local
 * billing mode) is the tests' Stripe: the handlers reach it through the official SDK. Likewise
 * the stack's fake OpenAI is the tests' OpenAI (OPENAI_BASE_URL), and a small web server
 * (web-fixtures.ts) serves the pages and tool endpoints tests register; both are on the outbound
 * guard's allow-list (OUTBOUND_ALLOW_HOSTS), every other loopback/private address stays refused.
 * The stack's fake WhatsApp Graph API is the tests' Graph API (WHATSAPP_GRAPH_URL), and its fake
 * Twilio REST API the tests' Twilio (TWILIO_API_URL). The handlers reach S3, SES and DynamoDB
 * through the stack's fault proxies (faultProxies, switched at faultsUrl); the tests' own seeding
 * and reads use the direct endpoints provided here.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startLocalStack } from '../../local/stack.js';
import { startFakeGoogle } from './fake-google.js';
import { startWebFixtures } from './web-fixtures.js';

const functionsDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

export default async function setup(project: TestProject) {
  const google = await startFakeGoogle();
  const web = await startWebFixtures();
  const dataDir = join(functionsDir, '.test-data', randomUUID());
  let stack;
  try {
    stack = await startLocalStack({
      dataDir,
      quiet: true,
      env: {
        GOOGLE_JWKS_URL: google.jwksUrl,
        GOOGLE_CLIENT_ID: google.clientId,
        WHATSAPP_USER_IDS: '',
        OUTBOUND_ALLOW_HOSTS: web.hosts.join(','),
        // Custom tool timeout 2 s instead of 10 s keeps the tool-timeout test fast.
        TOOL_TIMEOUT_MS: '2000',
        // Summary webhook retries after 50 ms and 100 ms instead of 2 s and 4 s.
        SUMMARY_RETRY_BASE_MS: '50',
        // The local queue's clock (issue 34): the retry schedule's 30 s … 15 min waits in 30 … 900 ms
        // (every try of a job within 3 s), a visibility timeout of 6 min in 360 ms.
        RETRY_TIME_SCALE: '0.001',
      },
      // Webhook retries after 50 ms and 200 ms instead of 1 s, 5 s, 20 s.
      stripe: { retryDelaysMs: [50, 200] },
      // Tests can make S3 / SES / DynamoDB fail for the app (local/fault-proxy.ts).
      faultProxies: true,
    });
  } catch (error) {
    await google.stop();
    await web.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  project.provide('apiUrl', stack.apiUrl);
  project.provide('mailboxUrl', stack.mailboxUrl);
  project.provide('dynamoEndpoint', stack.endpoints.dynamodb);
  project.provide('tableName', stack.tableName);
  project.provide('cognitoEndpoint', stack.endpoints.cognito);
  project.provide('cognitoIssuer', stack.issuer);
  project.provide('userPoolId', stack.userPoolId);
  project.provide('userPoolClientId', stack.userPoolClientId);
  project.provide('s3Endpoint', stack.endpoints.s3);
  project.provide('appS3Endpoint', stack.appEndpoints.s3);
  project.provide('uploadsBucket', stack.uploadsBucket);
  project.provide('sqsEndpoint', stack.endpoints.sqs);
  project.provide('queueUrls', stack.queueUrls);
  project.provide('googleClientId', google.clientId);
  project.provide('googlePrivateJwk', JSON.stringify(google.privateJwk));
  project.provide('googleIssuer', google.issuer);
  project.provide('deadLettersUrl', stack.deadLettersUrl);
  if (!stack.faultsUrl) throw new Error('the integration stack must run the fault proxies');
  project.provide('faultsUrl', stack.faultsUrl);
  if (!stack.stripe) throw new Error('the integration stack must run the fake Stripe');
  project.provide('stripeApiUrl', stack.stripe.apiUrl);
  project.provide('stripeSecretKey', stack.stripe.secretKey);
  project.provide('stripeWebhookSecret', stack.stripe.webhookSecret);
  project.provide('stripePrices', JSON.stringify(stack.stripe.prices));
  if (!stack.openaiUrl) throw new Error('the integration stack must run the fake OpenAI');
  project.provide('openaiUrl', stack.openaiUrl);
  project.provide('webFixturesUrl', web.url);
  if (!stack.whatsappGraphUrl) throw new Error('the integration stack must run the fake WhatsApp Graph API');
  project.provide('whatsappGraphUrl', stack.whatsappGraphUrl);
  if (!stack.twilioApiUrl) throw new Error('the integration stack must run the fake Twilio');
  project.provide('twilioApiUrl', stack.twilioApiUrl);
  if (!stack.pushServiceUrl || !stack.pushServiceCa) throw new Error('the integration stack must run the fake Web Push service');
  project.provide('pushServiceUrl', stack.pushServiceUrl);
  project.provide('pushServiceCa', stack.pushServiceCa);
  if (!stack.googleCalendarUrl) throw new Error('the integration stack must run the fake Google Calendar API');
  project.provide('googleCalendarUrl', stack.googleCalendarUrl);

  const running = stack;
  return async () => {
    await running.stop();
    await google.stop();
    await web.close();
    await rm(dataDir, { recursive: true, force: true });
  };
}
