/**
 * `npm start` honours OUTBOUND_ALLOW_HOSTS: a local stack started with the options start.ts builds
 * from the environment (localStartConfig) scrapes a page and calls a custom tool served on this
 * machine when their host:port is listed, and still refuses a loopback port that is not listed,
 * with the guard's message. Its own stack (not the shared one): the allow-list is what is under test.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentUrl } from '../../src/contract/agents.js';
import { startLocalStack, type LocalStack } from '../../local/stack.js';
import { localStartConfig } from '../../local/start-options.js';

const functionsDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const PRICES_PAGE = `<!doctype html><html lang="es"><head><title>Clínica Peña - Precios</title></head><body><main>
<h1>Precios</h1><p>La limpieza dental cuesta 45 euros y la revisión es gratuita los martes.</p>
<p>Pide cita con la doctora Muñoz en el 600 111 333.</p></main></body></html>`;

let stack: LocalStack;
let dataDir: string;
let listed: Server;
let unlisted: Server;
let tool: Server;
const toolRequests: string[] = [];
let token: string;

async function serve(body: string): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data?: T; message?: string }> {
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: T; message?: string };
  return { status: res.status, ...json };
}

/** A registered user (code from this stack's mailbox) with an active subscription item. */
async function paidUserOnThisStack(): Promise<string> {
  const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
  expect((await api('POST', '/api/send-verification', { email })).status).toBe(200);
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    const { emails } = (await (await fetch(`${stack.mailboxUrl}/store`)).json()) as { emails: { destination: { to: string[] }; body: { text?: string } }[] };
    code = emails.find((m) => m.destination.to.some((to) => to.includes(email)))?.body.text?.match(/\b[A-Z2-9]{10}\b/)?.[0];
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  const registered = await api<{ token: string; user: { _id: string } }>('POST', '/api/register', { name: 'Lucía Peña', email, password: 'Secret#123', verificationCode: code });
  expect(registered.status).toBe(201);
  const userId = registered.data!.user._id;
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: stack.endpoints.dynamodb, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
  const now = new Date();
  await db.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: {
        pk: `USER#${userId}`, sk: 'SUBSCRIPTION', entity: 'subscription', userId, plan: 'enterprise', status: 'active',
        currentPeriodStart: now.toISOString(), currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
        cancelAtPeriodEnd: false, trialEnd: null, version: 1,
      },
    }),
  );
  return registered.data!.token;
}

async function settled(agentId: string, urlId: string): Promise<AgentUrl> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const url = (await api<AgentUrl[]>('GET', `/api/agents/${agentId}/urls`)).data?.find((u) => u._id === urlId);
    if (url && url.status !== 'pending') return url;
    if (Date.now() > deadline) throw new Error(`URL ${urlId} still pending`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A booking endpoint a custom tool calls (the README's http://127.0.0.1:9000/reservas). */
async function serveTool(): Promise<Server> {
  const server = createServer((req, res) => {
    toolRequests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ disponible: true, hora: '10:30' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  [listed, unlisted, tool] = await Promise.all([serve(PRICES_PAGE), serve('<html><title>Intranet</title><body>secreto</body></html>'), serveTool()]);
  // What `OUTBOUND_ALLOW_HOSTS=localhost:<page>,127.0.0.1:<tool> npm start` builds, on free ports and a throw-away data dir.
  const { stackOptions } = localStartConfig({ OUTBOUND_ALLOW_HOSTS: `localhost:${portOf(listed)},127.0.0.1:${portOf(tool)}` }, { dev: false });
  const { ports: _ports, portEnvVars: _vars, appUrl: _appUrl, ...options } = stackOptions;
  dataDir = join(functionsDir, '.test-data', `outbound-${randomUUID()}`);
  stack = await startLocalStack({ ...options, schedules: false, dataDir, quiet: true });
  token = await paidUserOnThisStack();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  listed?.close();
  unlisted?.close();
  tool?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('npm start with OUTBOUND_ALLOW_HOSTS', () => {
  it('scrapes a URL source served on a listed local host:port (localhost and 127.0.0.1 alike)', async () => {
    const agent = await api<{ _id: string }>('POST', '/api/agents', { name: 'Recepción' });
    expect(agent.status).toBe(201);
    const page = `http://localhost:${portOf(listed)}/precios.html`;
    const samePort = `http://127.0.0.1:${portOf(listed)}/precios.html?v=2`;

    const added = await api<AgentUrl[]>('POST', `/api/agents/${agent.data!._id}/urls`, { urls: `${page}\n${samePort}` });
    const [byName, byAddress] = await Promise.all(added.data!.map((u) => settled(agent.data!._id, u._id)));

    expect(byName).toMatchObject({ status: 'completed', title: 'Clínica Peña - Precios', link: page });
    expect(byName!.chunkCount).toBeGreaterThan(0);
    expect(byAddress).toMatchObject({ status: 'completed', link: samePort });
  });

  it('refuses a loopback port that is not listed with the guard message', async () => {
    const agent = await api<{ _id: string }>('POST', '/api/agents', { name: 'Intranet' });
    const other = `http://localhost:${portOf(unlisted)}/`;

    const added = await api<AgentUrl[]>('POST', `/api/agents/${agent.data!._id}/urls`, { urls: other });
    const url = await settled(agent.data!._id, added.data![0]!._id);

    expect(url.status).toBe('failed');
    expect(url.error).toBe('Blocked: the address points to a private or local network and cannot be reached');
  });

  it('calls a custom tool served on a listed local host:port, and refuses one on a port that is not listed', async () => {
    expect((await api('POST', '/api/integrations/chatgpt/setup', { apiKey: `sk-local-${randomUUID()}`, model: 'gpt-4o' })).status).toBe(200);
    const agent = await api<{ _id: string }>('POST', '/api/agents', { name: 'Citas' });
    const addTool = (name: string, endpoint: string) =>
      api('POST', `/api/agents/${agent.data!._id}/tools`, {
        name, description: 'Comprueba si hay hueco para una cita', type: 'http_request', endpoint, method: 'GET', headerKey: '', headerValue: '',
        properties: { fecha: { type: 'string', description: 'Día de la cita' } }, required: ['fecha'],
      });
    expect((await addTool('reservas', `http://127.0.0.1:${portOf(tool)}/reservas`)).status).toBe(201);
    expect((await addTool('intranet', `http://127.0.0.1:${portOf(unlisted)}/`)).status).toBe(201);
    type ToolCall = { name: string; ok: boolean; result: string };

    const booked = await api<{ toolCalls: ToolCall[] }>('POST', `/api/agents/${agent.data!._id}/chat`, { message: 'reservas fecha=2026-12-01', messages: [] });
    const refused = await api<{ toolCalls: ToolCall[] }>('POST', `/api/agents/${agent.data!._id}/chat`, { message: 'intranet fecha=2026-12-01', messages: [] });

    expect(booked.data!.toolCalls[0]).toMatchObject({ name: 'reservas', ok: true });
    expect(toolRequests).toEqual(['/reservas?fecha=2026-12-01']);
    expect(refused.data!.toolCalls[0]).toMatchObject({
      name: 'intranet',
      ok: false,
      result: 'The tool could not be called: the address points to a private or local network and cannot be reached',
    });
  });
});
