/**
 * Helpers for integration tests talking to the local stack started by global-setup.ts:
 * AWS SDK clients pointed at the emulators, the SES mailbox and the SQS dead-letter list.
 */
import { inject } from 'vitest';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DeadLetter, QueueStats } from '../../local/sqs-dispatcher.js';
import { testDocumentClientAt, type TestDocumentClient } from './document-clients.js';

/** s3rver checks signatures made with this pair; the other emulators accept any. */
export const localCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const region = 'us-east-1';

/** The SDK's document client for the tests' own reads and writes, which the app's repositories take too. */
export function testDocumentClient(): TestDocumentClient {
  return testDocumentClientAt(inject('dynamoEndpoint'), { credentials: localCredentials });
}

export function testCognitoClient(): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ endpoint: inject('cognitoEndpoint'), region, credentials: localCredentials });
}

export function testS3Client(): S3Client {
  return new S3Client({ endpoint: inject('s3Endpoint'), region, credentials: localCredentials, forcePathStyle: true });
}

export function testSqsClient(): SQSClient {
  return new SQSClient({ endpoint: inject('sqsEndpoint'), region, credentials: localCredentials });
}

// ------------------------------------------------------------------ mailbox (aws-ses-v2-local)

export interface MailboxEmail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  /** Epoch seconds. */
  at: number;
}

/** Every e-mail the SES emulator received (optionally only those to `to`, since epoch seconds). */
export async function readMailbox(filter: { to?: string; since?: number } = {}): Promise<MailboxEmail[]> {
  const url = new URL('/store', inject('mailboxUrl'));
  if (filter.since !== undefined) url.searchParams.set('since', String(Math.floor(filter.since)));
  const response = await fetch(url);
  if (!response.ok) throw new Error(`mailbox answered ${response.status}`);
  const { emails } = (await response.json()) as { emails: MailboxEmail[] };
  const to = filter.to?.toLowerCase();
  return to ? emails.filter((e) => e.destination.to.some((addr) => addr.toLowerCase().includes(to))) : emails;
}

/** Wait for the newest e-mail to `to` (matching `match`, if given); fails after timeoutMs. */
export async function waitForEmail(
  to: string,
  { timeoutMs = 5000, since, match }: { timeoutMs?: number; since?: number; match?: (e: MailboxEmail) => boolean } = {},
): Promise<MailboxEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readMailbox({ to, since })).filter((e) => !match || match(e)).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ------------------------------------------------------------------ queues

export async function deadLetters(queue?: string): Promise<DeadLetter[]> {
  const url = new URL(inject('deadLettersUrl'));
  if (queue) url.searchParams.set('queue', queue);
  return (await (await fetch(url)).json()) as DeadLetter[];
}


/** POST /_local/dead-letters/redrive[?queue=][&messageId=…]: the dead letters back on their queues; the response's status and body. */
export async function redriveDeadLetters(queue?: string, messageIds: string[] = []): Promise<{ status: number; body: { redriven?: number; message?: string } }> {
  const url = new URL(`${inject('deadLettersUrl')}/redrive`);
  if (queue) url.searchParams.set('queue', queue);
  for (const id of messageIds) url.searchParams.append('messageId', id);
  const response = await fetch(url, { method: 'POST' });
  return { status: response.status, body: (await response.json()) as { redriven?: number; message?: string } };
}

/** Wait until every queued message has been processed (or dead-lettered); returns per-queue stats. */
export async function drainQueues(): Promise<Record<string, QueueStats>> {
  const response = await fetch(new URL('/_local/queues/drain', inject('apiUrl')), { method: 'POST' });
  return (await response.json()) as Record<string, QueueStats>;
}

export async function queueStats(): Promise<Record<string, QueueStats>> {
  return (await (await fetch(new URL('/_local/queues', inject('apiUrl')))).json()) as Record<string, QueueStats>;
}
