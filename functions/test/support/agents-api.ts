/**
 * Agents helpers for the integration tests: typed calls of the agents API, the raw items of an
 * agent, its chunk partition, its objects in s3rver and the local queues.
 */
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, NotFound } from '@aws-sdk/client-s3';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import type { Agent, AgentFile, AgentTool, AgentUrl, FileUploadTicket } from '../../src/contract/agents.js';
import { api, db, tableName, type ApiResponse } from './api.js';
import { paidUser } from './billing.js';
import { queueStats, testS3Client } from './stack-clients.js';

export interface AgentsUser {
  token: string;
  userId: string;
}

/** A registered user with an active subscription: agents are a paid feature (402 without one). */
export async function agentsUser(): Promise<AgentsUser> {
  const { token, userId } = await paidUser();
  return { token, userId };
}

export const call = <T = unknown>(user: AgentsUser, method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
  api<T>(method, path, { token: user.token, body });

export async function createAgent(user: AgentsUser, name = 'Support'): Promise<Agent> {
  const res = await call<Agent>(user, 'POST', '/api/agents', { name });
  if (res.status !== 201 || !res.body.data) throw new Error(`create agent failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

/** An agent that answers: new agents start disabled until they have instructions (issue 19). */
export async function createEnabledAgent(user: AgentsUser, name = 'Support', instructions = 'Answer briefly and kindly.'): Promise<Agent> {
  const agent = await createAgent(user, name);
  const saved = await call<Agent>(user, 'PUT', `/api/agents/${agent._id}`, { instructions });
  const enabled = await call<Agent>(user, 'POST', `/api/agents/${agent._id}/enable`);
  if (saved.status !== 200 || enabled.status !== 200 || !enabled.body.data) throw new Error(`enable agent failed: ${enabled.status} ${enabled.body.message}`);
  return enabled.body.data;
}

/** createEnabledAgent() for the channel tests that hold only a token (WhatsApp, voice): the agent that answers. */
export const createAnsweringAgent = (token: string, name = 'Sonia'): Promise<Agent> => createEnabledAgent({ token, userId: '' }, name);

export const validTool = (overrides: Record<string, unknown> = {}) => ({
  name: 'check_order',
  description: 'Looks up the status of an order',
  type: 'http_request',
  endpoint: 'https://api.example.com/orders',
  method: 'GET',
  headerKey: '',
  headerValue: '',
  properties: { orderId: { type: 'string', description: 'The order number' } },
  required: ['orderId'],
  ...overrides,
});

export async function createTool(user: AgentsUser, agentId: string, overrides: Record<string, unknown> = {}): Promise<AgentTool> {
  const res = await call<AgentTool>(user, 'POST', `/api/agents/${agentId}/tools`, validTool(overrides));
  if (res.status !== 201 || !res.body.data) throw new Error(`create tool failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

export async function addUrls(user: AgentsUser, agentId: string, urls: string | string[]): Promise<AgentUrl[]> {
  const res = await call<AgentUrl[]>(user, 'POST', `/api/agents/${agentId}/urls`, { urls });
  if (res.status !== 201 || !res.body.data) throw new Error(`add URLs failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

/** POST /api/agents/{id}/files (the spec's multipart, field `files`). */
export function uploadMultipart(user: AgentsUser, agentId: string, files: { name: string; type: string; bytes: Uint8Array | string }[]) {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([f.bytes], { type: f.type }), f.name);
  return api<AgentFile[]>('POST', `/api/agents/${agentId}/files`, { token: user.token, rawBody: form });
}

/** The browser's form upload to S3 with a ticket: its fields first, the file last (S3 ignores fields after it). */
export function postToTicket(ticket: Pick<FileUploadTicket, 'url' | 'fields'>, bytes: Uint8Array | string, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', new Blob([bytes]), 'upload');
  return fetch(ticket.url, { method: 'POST', body: form, headers });
}

/** The presigned flow: ask for a ticket, POST the bytes to S3 (as the browser does), confirm. */
export async function uploadDirect(user: AgentsUser, agentId: string, file: { name: string; type: string; bytes: Uint8Array | string }) {
  const bytes = typeof file.bytes === 'string' ? new TextEncoder().encode(file.bytes) : file.bytes;
  const tickets = await call<FileUploadTicket[]>(user, 'POST', `/api/agents/${agentId}/files/uploads`, {
    files: [{ name: file.name, size: bytes.length, type: file.type }],
  });
  if (tickets.status !== 201 || !tickets.body.data?.[0]) throw new Error(`upload ticket failed: ${tickets.status} ${tickets.body.message}`);
  const ticket = tickets.body.data[0];
  const post = await postToTicket(ticket, bytes);
  if (!post.ok) throw new Error(`POST to the presigned form failed: ${post.status} ${await post.text()}`);
  const done = await call<AgentFile>(user, 'POST', `/api/agents/${agentId}/files/${ticket.file._id}/complete`);
  return { ticket, done };
}

// ---- the table ----

export async function agentItems(userId: string, agentId: string): Promise<Record<string, unknown>[]> {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':a': `AGENT#${agentId}`, ':b': `AGENT#${agentId}~` },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

export const chunkPk = (userId: string, agentId: string) => `USER#${userId}#KB#${agentId}`;

/** Chunk items as ACCESS-PATTERNS.md lays them out (what the knowledge helper's store writes). */
export async function seedChunks(userId: string, agentId: string, kind: 'file' | 'url', sourceId: string, count = 2): Promise<void> {
  for (let index = 0; index < count; index++) {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: chunkPk(userId, agentId),
          sk: `${kind}#${sourceId}#${String(index).padStart(5, '0')}`,
          text: `chunk ${index} of ${sourceId}`,
          sourceName: sourceId,
          kind,
          sourceId,
          index,
        },
      }),
    );
  }
}

export async function chunkKeys(userId: string, agentId: string): Promise<string[]> {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': chunkPk(userId, agentId) },
      ProjectionExpression: 'sk',
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((i) => String(i.sk));
}

// ---- s3rver ----

export async function objectBytes(key: string): Promise<Buffer | null> {
  try {
    const res = await testS3Client().send(new GetObjectCommand({ Bucket: inject('uploadsBucket'), Key: key }));
    return Buffer.from(await res.Body!.transformToByteArray());
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
}

export async function objectExists(key: string): Promise<boolean> {
  try {
    await testS3Client().send(new HeadObjectCommand({ Bucket: inject('uploadsBucket'), Key: key }));
    return true;
  } catch (error) {
    if (error instanceof NotFound || (error as { name?: string }).name === 'NotFound') return false;
    throw error;
  }
}

// ---- queues ----

export async function sentTo(queue: string): Promise<number> {
  return (await queueStats())[queue]?.sent ?? 0;
}

/**
 * How many of the messages lately sent to `queue` (GET /_local/queues/sent) name `id`: what this
 * test's request queued, whatever other test files running on the same stack send meanwhile.
 */
export async function sentNaming(queue: string, id: string): Promise<number> {
  const res = await fetch(`${inject('apiUrl')}/_local/queues/sent?queue=${encodeURIComponent(queue)}`);
  return ((await res.json()) as { body: string }[]).filter((m) => m.body.includes(id)).length;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` passes (returns its value) or fails after timeoutMs. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Connects the fake OpenAI as the user's ChatGPT integration (gpt-4o, plus `settings`); answers the key, which scripts the fake per test. */
export async function connectChatGpt(user: AgentsUser, key = `sk-test-${randomUUID()}`, settings: Record<string, unknown> = {}): Promise<string> {
  const res = await api('POST', '/api/integrations/chatgpt/setup', { token: user.token, body: { apiKey: key, model: 'gpt-4o', ...settings } });
  if (res.status !== 200) throw new Error(`ChatGPT setup failed: ${res.status} ${res.body.message}`);
  return key;
}
