/**
 * Test HTTP client for the integration tests (through the local gateway) and helpers:
 * unique e-mails, the SES mailbox, registering a user, direct DynamoDB access.
 * Values come from the global setup's provide() (read with inject()).
 */
import { createHash, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import type { AuthSession } from '../../src/contract/auth.js';
import { testDocumentClientAt, type TestDocumentClient } from './document-clients.js';

/** What a test file's own stack puts in place of the shared stack's values (useOwnStack). */
const ownStack = new Map<string, string>();

/**
 * Points every helper of this test file at a stack it started itself (e.g. one whose clock it
 * moves, which on the shared stack would expire the other files' tokens).
 */
export function useOwnStack(stack: {
  apiUrl: string;
  mailboxUrl: string;
  endpoints: { dynamodb: string };
  tableName: string;
  /** The stack's fakes and fault proxies, when the file uses them (support/faults.ts, whatsapp.ts). */
  openaiUrl?: string | null;
  whatsappGraphUrl?: string | null;
  twilioApiUrl?: string | null;
  faultsUrl?: string | null;
  deadLettersUrl?: string;
}): void {
  ownStack.set('apiUrl', stack.apiUrl).set('mailboxUrl', stack.mailboxUrl);
  ownStack.set('dynamoEndpoint', stack.endpoints.dynamodb).set('tableName', stack.tableName);
  for (const key of ['openaiUrl', 'whatsappGraphUrl', 'twilioApiUrl', 'faultsUrl', 'deadLettersUrl'] as const) {
    const value = stack[key];
    if (value) ownStack.set(key, value);
  }
}

/** A value provided by the global setup (typed loosely so this file does not depend on its declarations). */
export function provided(key: string): string {
  const own = ownStack.get(key);
  if (own) return own;
  const value = (inject as unknown as (k: string) => unknown)(key);
  if (typeof value !== 'string' || !value) throw new Error(`The integration global setup did not provide '${key}'`);
  return value;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: { success: boolean; message?: string; data?: T; field?: string } & Record<string, unknown>;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Sent as is (e.g. FormData for multipart). */
  rawBody?: RequestInit['body'];
}

export async function api<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: RequestInit['body'] = options.rawBody;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(`${provided('apiUrl')}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: ApiResponse<T>['body'];
  try {
    parsed = JSON.parse(text) as ApiResponse<T>['body'];
  } catch {
    parsed = { success: false, message: text };
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export const post = <T = unknown>(path: string, body?: unknown, token?: string) => api<T>('POST', path, { body, token });
export const get = <T = unknown>(path: string, token?: string) => api<T>('GET', path, { token });

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`.toLowerCase();
}

export const STRONG_PASSWORD = 'Secret#123';

// ---- the SES mailbox ----

interface MailboxEmail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

export async function mailsTo(email: string): Promise<MailboxEmail[]> {
  const res = await fetch(`${provided('mailboxUrl')}/store`);
  const { emails } = (await res.json()) as { emails: MailboxEmail[] };
  return emails.filter((m) => m.destination.to.some((to) => to.toLowerCase().includes(email.toLowerCase())));
}

const CODE_PATTERNS = { verify: /\b[A-Z2-9]{10}\b/, reset: /\b[0-9a-f]{10}\b/ } as const;

/** The code in the latest e-mail of that kind sent to the address (waits briefly for it). */
export async function readCode(email: string, kind: keyof typeof CODE_PATTERNS = 'verify'): Promise<string> {
  const subject = kind === 'verify' ? /verification code|código de verificación/i : /reset|restablece/i;
  for (let i = 0; i < 20; i++) {
    const mails = (await mailsTo(email)).filter((m) => subject.test(m.subject));
    const last = mails[mails.length - 1];
    const code = last?.body.text?.match(CODE_PATTERNS[kind])?.[0];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No ${kind} code was mailed to ${email}`);
}

// ---- users ----

export interface RegisteredUser {
  name: string;
  email: string;
  password: string;
  session: AuthSession;
}

export async function registerUser(input: { name?: string; email?: string; password?: string } = {}): Promise<RegisteredUser> {
  const email = input.email ?? uniqueEmail();
  const name = input.name ?? 'Test User';
  const password = input.password ?? STRONG_PASSWORD;
  const sent = await post('/api/send-verification', { email });
  if (sent.status !== 200) throw new Error(`send-verification failed: ${sent.status} ${sent.body.message}`);
  const verificationCode = await readCode(email, 'verify');
  const res = await post<AuthSession>('/api/register', { name, email, password, verificationCode });
  if (res.status !== 201 || !res.body.data) throw new Error(`register failed: ${res.status} ${res.body.message}`);
  return { name, email, password, session: res.body.data };
}

// ---- the table ----

let client: TestDocumentClient | undefined;
/** The SDK's document client for the tests' own reads and writes, which the app's repositories take too. */
export function db(): TestDocumentClient {
  client ??= testDocumentClientAt(provided('dynamoEndpoint'), { marshallOptions: {} });
  return client;
}

export const tableName = () => provided('tableName');
export const emailPk = (email: string) => `EMAIL#${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;

export async function getItem(pk: string, sk: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk }, ConsistentRead: true }));
  return Item;
}

export async function itemsOf(pk: string): Promise<Record<string, unknown>[]> {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

/** Lets the time of a rate window pass: deletes the e-mail's counters for an action. */
export async function clearRateLimits(email: string, action: string): Promise<void> {
  const items = await itemsOf(emailPk(email));
  await Promise.all(
    items
      .filter((i) => String(i.sk).startsWith(`RATE#${action}#`))
      .map((i) => db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: i.pk, sk: i.sk } }))),
  );
}

/** Polls until `check` returns a value (not undefined/false) or the time is up. */
export async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
