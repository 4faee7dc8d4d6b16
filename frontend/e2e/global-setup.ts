/**
 * Browser e2e setup: the whole local runtime (the same one `npm start` runs) on free
 * ports with a throw-away data directory, serving the built frontend. `npm run test:e2e`
 * builds the frontend first.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startLocalStack } from '../../functions/local/stack.js';
import { startWebFixtures } from '../../functions/test/support/web-fixtures.js';
import { startBrowserServer } from './browser.js';

// E2E_FRONTEND_DIR: a build of one's own (e.g. `npx vite build --outDir /tmp/my-dist` in frontend/), so
// a long run on a shared machine is not broken by someone else rebuilding frontend/dist meanwhile.
const frontendDir = process.env.E2E_FRONTEND_DIR ? path.resolve(process.env.E2E_FRONTEND_DIR) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

export default async function setup(project: TestProject) {
  if (!existsSync(path.join(frontendDir, 'index.html'))) {
    throw new Error('frontend/dist is missing: run `npm run build -w frontend` (npm run test:e2e does it).');
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'agentdesk-e2e-'));
  // The endpoints custom tools call in the agents flow: loopback, so allow-listed for the outbound guard.
  const web = await startWebFixtures();
  // One Chromium for every file (files run one after another and connect to it).
  const browserServer = await startBrowserServer().catch(async (error: unknown) => {
    await web.close();
    throw error;
  });
  // RETRY_TIME_SCALE: a failed job comes back after 30 ms, not 30 s (issue 34), as in the integration tests.
  const stack = await startLocalStack({ dataDir, frontendDir, quiet: true, env: { OUTBOUND_ALLOW_HOSTS: web.hosts.join(','), RETRY_TIME_SCALE: '0.001' } }).catch(
    async (error: unknown) => {
      await browserServer.close();
      await web.close();
      throw error;
    },
  );
  project.provide('browserWsEndpoint', browserServer.wsEndpoint());
  project.provide('appUrl', stack.apiUrl);
  project.provide('mailboxUrl', stack.mailboxUrl);
  project.provide('dynamoEndpoint', stack.endpoints.dynamodb);
  project.provide('tableName', stack.tableName);
  project.provide('webFixturesUrl', web.url);
  // The fake WhatsApp Graph API the stack starts by default (its /_test/sent records the sends).
  project.provide('whatsappGraphUrl', stack.whatsappGraphUrl ?? '');
  // The fake OpenAI's origin: POST /_test/faults makes the model fail (issue 34).
  project.provide('openaiUrl', stack.openaiUrl ?? '');
  // The fake Twilio REST API (TWILIO_API_URL): POST /_test/accounts registers a sid + token + numbers,
  // POST /_test/calls plays a simulated call to a configured number.
  project.provide('twilioApiUrl', stack.twilioApiUrl ?? '');
  // The fake Web Push service (https, its own certificate): /_test/subscriptions mints a device, /_test/messages (issue 29).
  project.provide('pushServiceUrl', stack.pushServiceUrl ?? '');
  project.provide('pushServiceCa', stack.pushServiceCa ?? '');
  // cognito-local and the pool, to put a user in the 'admin' group (as `npm run make-admin` does).
  project.provide('cognitoEndpoint', stack.endpoints.cognito);
  project.provide('userPoolId', stack.userPoolId);
  return async () => {
    await browserServer.close();
    await stack.stop();
    await web.close();
    await rm(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    mailboxUrl: string;
    dynamoEndpoint: string;
    tableName: string;
    /** The allow-listed fixture web server (functions/test/support/web-fixtures.ts): POST /_fixtures/routes. */
    webFixturesUrl: string;
    /** The fake WhatsApp Graph API's origin: GET /_test/sent?phoneId= lists what the app sent. */
    whatsappGraphUrl: string;
    /** The fake OpenAI's origin: /_test/faults arms its failure switches (functions/local/faults.ts). */
    openaiUrl: string;
    /** The fake Twilio REST API's origin: /_test/accounts, /_test/numbers, /_test/calls (functions/local/fake-twilio/server.ts). */
    twilioApiUrl: string;
    /** The fake Web Push service's origin (https) and certificate: functions/local/fake-push/server.ts. */
    pushServiceUrl: string;
    pushServiceCa: string;
    cognitoEndpoint: string;
    userPoolId: string;
    /** The shared Chromium server's endpoint (`connectBrowser`). */
    browserWsEndpoint: string;
  }
}
