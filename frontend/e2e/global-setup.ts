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

const frontendDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

export default async function setup(project: TestProject) {
  if (!existsSync(path.join(frontendDir, 'index.html'))) {
    throw new Error('frontend/dist is missing: run `npm run build -w frontend` (npm run test:e2e does it).');
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'agentdesk-e2e-'));
  const stack = await startLocalStack({ dataDir, frontendDir, quiet: true });
  project.provide('appUrl', stack.apiUrl);
  project.provide('mailboxUrl', stack.mailboxUrl);
  project.provide('dynamoEndpoint', stack.endpoints.dynamodb);
  project.provide('tableName', stack.tableName);
  return async () => {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    mailboxUrl: string;
    dynamoEndpoint: string;
    tableName: string;
  }
}
