/**
 * dataDir/local-stack.json: what a running (or the last) local stack looks like. start.ts
 * writes it; the next start reuses the Cognito pool/client ids from it (so users survive) and
 * `npm run invoke` reads it to reach the running services.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StackState {
  apiUrl: string;
  mailboxUrl: string;
  endpoints: { dynamodb: string; cognito: string; s3: string; ses: string; sqs: string };
  tableName: string;
  uploadsBucket: string;
  userPoolId: string;
  userPoolClientId: string;
  /** The environment the handlers run with (no secrets: all local values). */
  env: Record<string, string>;
  pid: number;
  startedAt: string;
}

export const stateFile = (dataDir: string) => join(dataDir, 'local-stack.json');

export function readState(dataDir: string): Partial<StackState> | undefined {
  const file = stateFile(dataDir);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<StackState>;
  } catch {
    return undefined;
  }
}

export function writeState(dataDir: string, state: StackState): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(stateFile(dataDir), JSON.stringify(state, null, 2));
}
