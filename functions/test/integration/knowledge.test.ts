/**
 * Knowledge end to end on the local stack: files uploaded through the real API (presigned ticket
 * → PUT to s3rver → complete) and URLs added through it are ingested by the real workers (local
 * SQS dispatcher) with embeddings from the fake OpenAI server, stored in DynamoDB Local, and
 * found by the hybrid retriever (in-process, against the same table) for a question about them.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_FILE_TYPES, type Agent, type AgentFile, type AgentFileKind, type AgentUrl, type ChatReply } from '../../src/contract/agents.js';
import { DynamoChunkStore } from '../../src/adapters/dynamo/knowledge-chunks.js';
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODEL } from '../../src/domain/ai/ports.js';
import type { RetrievedChunk } from '../../src/domain/knowledge/ports.js';
import { CachedKnowledgeRetriever } from '../../src/domain/knowledge/retrieval.js';
import { api, db, getItem, provided, tableName } from '../support/api.js';
import { addUrls, agentsUser, call, chunkKeys, chunkPk, createAgent, eventually, uploadDirect, type AgentsUser } from '../support/agents-api.js';
import { webFixtures, type WebFixtureSite } from '../support/web-fixtures.js';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { buildPdf, buildPdfFromSpec } from '../fixtures/knowledge/builders.js';
import { FIXTURE_FILES, FIXTURE_QUESTIONS, TABLES_DOC_FILE, TABLES_DOCUMENT } from '../fixtures/knowledge/content.js';

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/knowledge');
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(fixturesDir, name)));

interface KnowledgeUser extends AgentsUser {
  apiKey: string | null;
}

let withAi: KnowledgeUser;
let withoutAi: KnowledgeUser;
let site: WebFixtureSite;

async function connectChatGpt(user: AgentsUser, apiKey: string): Promise<void> {
  const res = await api('POST', '/api/integrations/chatgpt/setup', { token: user.token, body: { apiKey } });
  if (res.status !== 200) throw new Error(`ChatGPT setup failed: ${res.status} ${res.body.message}`);
}

beforeAll(async () => {
  const [a, b] = await Promise.all([agentsUser(), agentsUser()]);
  const apiKey = `sk-test-knowledge-${randomBytes(6).toString('hex')}`;
  await connectChatGpt(a, apiKey);
  withAi = { ...a, apiKey };
  withoutAi = { ...b, apiKey: null };
  site = webFixtures();
});

// ------------------------------------------------------------------ helpers

/** The question's embedding from the fake OpenAI server (what the chat runtime would compute). */
async function embed(apiKey: string, text: string): Promise<Float32Array> {
  const res = await fetch(`${provided('openaiUrl')}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: EMBEDDING_MODEL, input: [text] }),
  });
  const body = (await res.json()) as { data: { embedding: number[] }[] };
  return Float32Array.from(body.data[0]!.embedding);
}

const knowledgeVersion = async (user: AgentsUser, agentId: string) => Number((await getItem(`USER#${user.userId}`, `AGENT#${agentId}`))?.knowledgeVersion ?? 0);

/** Hybrid search with the production retriever over the same DynamoDB Local table (a fresh cache per call). */
async function search(user: KnowledgeUser, agentId: string, question: string, options: { vector?: boolean } = {}): Promise<RetrievedChunk[]> {
  const retriever = new CachedKnowledgeRetriever(new DynamoChunkStore(db(), tableName()));
  const vector = options.vector !== false && user.apiKey ? await embed(user.apiKey, question) : null;
  return retriever.search({ userId: user.userId, agentId, knowledgeVersion: await knowledgeVersion(user, agentId), language: 'en' }, question, vector, 3);
}

async function chunkItems(user: AgentsUser, agentId: string): Promise<Record<string, unknown>[]> {
  const { Items } = await db().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': chunkPk(user.userId, agentId) }, ConsistentRead: true }),
  );
  return Items ?? [];
}

async function settledFile(user: AgentsUser, agentId: string, fileId: string, timeoutMs = 20_000): Promise<AgentFile> {
  return eventually(async () => {
    const res = await call<AgentFile[]>(user, 'GET', `/api/agents/${agentId}/files`);
    const file = res.body.data?.find((f) => f._id === fileId);
    return file && (file.status === 'completed' || file.status === 'failed') ? file : undefined;
  }, timeoutMs);
}

async function settledUrl(user: AgentsUser, agentId: string, urlId: string, timeoutMs = 25_000): Promise<AgentUrl> {
  return eventually(async () => {
    const res = await call<AgentUrl[]>(user, 'GET', `/api/agents/${agentId}/urls`);
    const url = res.body.data?.find((u) => u._id === urlId);
    return url && url.status !== 'pending' ? url : undefined;
  }, timeoutMs);
}

async function ingestFile(user: AgentsUser, agent: Agent, name: string, type: string, bytes: Uint8Array): Promise<AgentFile> {
  const { ticket, done } = await uploadDirect(user, agent._id, { name, type, bytes });
  if (done.status !== 200) throw new Error(`complete failed: ${done.status} ${done.body.message}`);
  return settledFile(user, agent._id, ticket.file._id);
}

const HOURS_PAGE = (closing: string) => `<!doctype html><html><head><title>Harbor Bakery - Visit us</title></head><body>
  <nav><a href="/">Home</a> <a href="/menu">Menu</a></nav>
  <main><article>
    <h1>Visit Harbor Bakery</h1>
    <p>Our shop on Pier Street opens at seven in the morning from Monday to Saturday, and the first sourdough loaves come out of the oven at half past seven.</p>
    <p>On weekdays we close at ${closing}; on Saturdays we close at two in the afternoon. Parking is free for customers in the harbour car park behind the shop.</p>
    <p>Dogs are welcome on the terrace, and we keep a bowl of fresh water by the door for them.</p>
  </article></main>
  <footer>Harbor Bakery. All rights reserved.</footer></body></html>`;

// ------------------------------------------------------------------ files

describe('files', () => {
  it.each(Object.keys(FIXTURE_FILES) as AgentFileKind[])('a %s ingests to completed and a question about it finds its content', async (kind) => {
    const agent = await createAgent(withAi, `KB ${kind}`);
    const versionBefore = await knowledgeVersion(withAi, agent._id);

    const file = await ingestFile(withAi, agent, FIXTURE_FILES[kind], AGENT_FILE_TYPES[kind], fixture(FIXTURE_FILES[kind]));

    expect(file).toMatchObject({ status: 'completed', originalName: FIXTURE_FILES[kind] });
    expect(file.error).toBeUndefined();
    expect(file.chunkCount).toBeGreaterThan(0);
    expect(await knowledgeVersion(withAi, agent._id)).toBe(versionBefore + 1);
    const items = await chunkItems(withAi, agent._id);
    expect(items).toHaveLength(file.chunkCount!);
    for (const item of items) {
      expect(String(item.sk)).toMatch(new RegExp(`^file#${file._id}#\\d{5}$`));
      expect(item.sourceName).toBe(FIXTURE_FILES[kind]);
      expect((item.vector as Uint8Array).byteLength).toBe(EMBEDDING_DIMENSIONS * 4);
    }
    for (const { question, expect: words } of FIXTURE_QUESTIONS[kind]) {
      const [best] = await search(withAi, agent._id, question);
      expect(best, question).toBeDefined();
      expect(best!.chunk.sourceName).toBe(FIXTURE_FILES[kind]);
      for (const word of words) expect(best!.chunk.text, question).toContain(word);
      // The keyword half alone finds it too.
      const [keywordOnly] = await search(withAi, agent._id, question, { vector: false });
      for (const word of words) expect(keywordOnly!.chunk.text, question).toContain(word);
    }
  });

  it('a Spanish PDF and a Word 97 .doc with tables store their rows whole under their header, with page and heading path', async () => {
    const agent = await createAgent(withAi, 'Tasca');
    // The allergen section on page 2 of the PDF.
    const onPage2 = TABLES_DOCUMENT.blocks.findIndex((b) => b.kind === 'heading' && b.text === 'Alérgenos');
    const spec = { ...TABLES_DOCUMENT, blocks: TABLES_DOCUMENT.blocks.map((b, i) => (i >= onPage2 ? { ...b, page: 2 } : b)) };

    const pdf = await ingestFile(withAi, agent, 'tasca.pdf', AGENT_FILE_TYPES.pdf, await buildPdfFromSpec(spec));
    const doc = await ingestFile(withAi, agent, TABLES_DOC_FILE, AGENT_FILE_TYPES.doc, fixture(TABLES_DOC_FILE));

    expect([pdf.status, doc.status]).toEqual(['completed', 'completed']);
    const items = await chunkItems(withAi, agent._id);
    const ofPdf = items.filter((i) => String(i.sk).startsWith(`file#${pdf._id}#`));
    expect(ofPdf.find((i) => String(i.text).includes('Viernes | 9:00–15:00'))).toMatchObject({
      page: 1,
      headings: ['La Tasca de Triana', 'Horario'],
      text: expect.stringMatching(/^La Tasca de Triana › Horario\nDía \| Horario\n/),
    });
    expect(ofPdf.find((i) => String(i.text).includes('Croquetas de jamón | Gluten: X | Lactosa: X | Huevo: X'))).toMatchObject({
      page: 2,
      headings: ['La Tasca de Triana', 'Alérgenos'],
    });
    const ofDoc = items.filter((i) => String(i.sk).startsWith(`file#${doc._id}#`));
    expect(ofDoc.some((i) => String(i.text).includes('Tarta de queso | Gluten: X | Lactosa: X | Huevo: X | Frutos secos: X'))).toBe(true);
    expect(ofDoc.every((i) => i.page === undefined)).toBe(true);
    // The row answers the question, found by its words.
    const [best] = await search(withAi, agent._id, 'ensaladilla rusa pescado', { vector: false });
    expect(best!.chunk.text).toContain('Ensaladilla rusa | Huevo: X | Pescado: X');
  });

  it('without a ChatGPT integration the chunks are stored without vectors and keyword search still finds them', async () => {
    const agent = await createAgent(withoutAi, 'No AI');

    const file = await ingestFile(withoutAi, agent, FIXTURE_FILES.docx, AGENT_FILE_TYPES.docx, fixture(FIXTURE_FILES.docx));

    expect(file.status).toBe('completed');
    const items = await chunkItems(withoutAi, agent._id);
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.vector === undefined)).toBe(true);
    const [best] = await search(withoutAi, agent._id, 'How far in advance must a custom cake be ordered?');
    expect(best!.chunk.text).toContain('72 hours');
  });

  it('rate-limited embeddings are retried by the queue, and the last delivery stores the chunks without vectors', async () => {
    const user = await agentsUser();
    const apiKey = `sk-ratelimit-${randomBytes(6).toString('hex')}`;
    await connectChatGpt(user, apiKey);
    const agent = await createAgent(user, 'Busy');

    const file = await ingestFile(user, agent, FIXTURE_FILES.txt, AGENT_FILE_TYPES.txt, fixture(FIXTURE_FILES.txt));

    expect(file.status).toBe('completed');
    const embeddingCalls = await fetch(`${provided('openaiUrl')}/_test/requests?key=${apiKey}&path=/v1/embeddings`).then(
      async (r) => ((await r.json()) as { requests: { status: number }[] }).requests,
    );
    // One per delivery at least (the SDK may retry a 429 once itself): the queue delivered 3 times.
    expect(new Set(embeddingCalls.map((c) => c.status))).toEqual(new Set([429]));
    expect(embeddingCalls.length).toBeGreaterThanOrEqual(3);
    const items = await chunkItems(user, agent._id);
    expect(items.length).toBe(file.chunkCount);
    expect(items.every((i) => i.vector === undefined)).toBe(true);
    const [best] = await search({ ...user, apiKey: null }, agent._id, 'garantia electrodomesticos grandes');
    expect(best!.chunk.text).toContain('24 meses');
  });

  it('a .pdf that is not a PDF ends failed with its reason, and stores nothing', async () => {
    const agent = await createAgent(withAi, 'Broken');
    const versionBefore = await knowledgeVersion(withAi, agent._id);

    const file = await ingestFile(withAi, agent, 'price-list.pdf', 'application/pdf', new TextEncoder().encode('This is a text file renamed to .pdf'));

    // Sniffed before the PDF reader sees it.
    expect(file).toMatchObject({ status: 'failed', error: 'This file is not really a PDF: its content does not match its type.' });
    expect(await chunkKeys(withAi.userId, agent._id)).toEqual([]);
    expect(await knowledgeVersion(withAi, agent._id)).toBe(versionBefore);
  });

  it('a PDF without any text (a scan) ends failed with its reason', async () => {
    const agent = await createAgent(withAi, 'Scan');

    const file = await ingestFile(withAi, agent, 'scan.pdf', 'application/pdf', await buildPdf([{ paragraphs: [] }, { paragraphs: [] }]));

    expect(file).toMatchObject({ status: 'failed', error: 'No text found in this file (scanned PDFs are not supported yet)' });
  });

  it('deleting an ingested file removes its chunks and bumps nothing else', async () => {
    const agent = await createAgent(withAi, 'Delete');
    const kept = await ingestFile(withAi, agent, FIXTURE_FILES.txt, AGENT_FILE_TYPES.txt, fixture(FIXTURE_FILES.txt));
    const gone = await ingestFile(withAi, agent, FIXTURE_FILES.docx, AGENT_FILE_TYPES.docx, fixture(FIXTURE_FILES.docx));
    expect([kept.status, gone.status]).toEqual(['completed', 'completed']);

    const res = await call(withAi, 'DELETE', `/api/agents/${agent._id}/files/${gone._id}`);

    expect(res.status).toBe(200);
    const keys = await chunkKeys(withAi.userId, agent._id);
    expect(keys.length).toBe(kept.chunkCount);
    expect(keys.every((k) => k.startsWith(`file#${kept._id}#`))).toBe(true);
    expect(await search(withAi, agent._id, 'custom cake 72 hours')).not.toContainEqual(expect.objectContaining({ chunk: expect.objectContaining({ sourceId: gone._id }) }));
  });
});

// ------------------------------------------------------------------ through the chat route

describe('chat', () => {
  it('the Test Agent chat answers from an ingested PDF and names it as the source', async () => {
    const agent = await createAgent(withAi, 'Dental');
    const file = await ingestFile(withAi, agent, FIXTURE_FILES.pdf, AGENT_FILE_TYPES.pdf, fixture(FIXTURE_FILES.pdf));
    expect(file.status).toBe('completed');

    const res = await call<ChatReply>(withAi, 'POST', `/api/agents/${agent._id}/chat`, { message: 'How much is a routine check-up with cleaning?' });

    expect(res.status).toBe(200);
    expect(res.body.data!.sources.length).toBeGreaterThan(0);
    expect(res.body.data!.sources[0]).toMatchObject({ name: FIXTURE_FILES.pdf, kind: 'file', sourceId: file._id });
    expect(res.body.data!.sources[0]!.excerpt).toContain('check-up with professional cleaning costs $85');
    expect(res.body.data!.reply).toContain(FIXTURE_FILES.pdf);
  });
});

// ------------------------------------------------------------------ web pages

describe('web URLs', () => {
  it('a page ingests with its title and a question about it finds its content', async () => {
    const agent = await createAgent(withAi, 'Web');
    const link = await site.route({ path: '/visit', headers: { 'content-type': 'text/html; charset=utf-8' }, body: HOURS_PAGE('six in the evening') });

    const [added] = await addUrls(withAi, agent._id, link);
    const url = await settledUrl(withAi, agent._id, added!._id);

    expect(url).toMatchObject({ status: 'completed', title: 'Harbor Bakery - Visit us', link });
    expect(url.chunkCount).toBeGreaterThan(0);
    const [best] = await search(withAi, agent._id, 'Is parking free for customers?');
    expect(best!.chunk.sourceName).toBe(link);
    expect(best!.chunk.text).toContain('Parking is free for customers in the harbour car park');
    expect(best!.chunk.text).not.toContain('All rights reserved');
    const fetched = await site.requests('/visit');
    expect(fetched).toHaveLength(1);
  });

  it('a text/plain page is taken as is', async () => {
    const agent = await createAgent(withAi, 'Plain');
    const link = await site.route({ path: '/faq.txt', headers: { 'content-type': 'text/plain' }, body: 'Returns are accepted within 30 days with the receipt.\nGift cards never expire.' });

    const [added] = await addUrls(withAi, agent._id, link);
    const url = await settledUrl(withAi, agent._id, added!._id);

    expect(url.status).toBe('completed');
    expect((await search(withAi, agent._id, 'do gift cards expire'))[0]!.chunk.text).toContain('Gift cards never expire.');
  });

  it.each([
    ['a 404', { path: '/missing-page-never-registered' }, 'The page returned HTTP 404'],
    ['an image', { path: '/logo.png', headers: { 'content-type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) }, 'Unsupported content type: image/png'],
    ['a redirect to a private address', { path: '/hop', redirectTo: 'http://10.0.0.5/admin' }, 'Blocked: the address points to a private or local network and cannot be reached'],
  ] as const)('%s ends failed with its reason', async (_label, route, reason) => {
    const agent = await createAgent(withAi, 'Bad URL');
    const link = route.path.startsWith('/missing') ? site.url(route.path) : await site.route(route);

    const [added] = await addUrls(withAi, agent._id, link);
    const url = await settledUrl(withAi, agent._id, added!._id);

    expect(url.status).toBe('failed');
    expect(url.error).toBe(reason);
    expect(await chunkKeys(withAi.userId, agent._id)).toEqual([]);
  });

  it.each(['http://localhost:1/intranet', 'http://127.0.0.1:1/admin', 'http://[::1]:1/'])(
    'a URL on a loopback address (%s) ends failed without naming the address it resolved to',
    async (link) => {
      const agent = await createAgent(withAi, 'Loopback URL');

      const [added] = await addUrls(withAi, agent._id, link);
      const url = await settledUrl(withAi, agent._id, added!._id);

      expect(url.status).toBe('failed');
      expect(url.error).toBe('Blocked: the address points to a private or local network and cannot be reached');
      expect(url.error).not.toMatch(/\d|::/);
    },
  );

  it('refresh keeps the chunks (version not bumped) when the page did not change, and replaces them when it did', async () => {
    const agent = await createAgent(withAi, 'Refresh');
    const route = { path: '/hours', headers: { 'content-type': 'text/html' }, body: HOURS_PAGE('six in the evening') };
    const link = await site.route(route);
    const [added] = await addUrls(withAi, agent._id, link);
    const first = await settledUrl(withAi, agent._id, added!._id);
    expect(first.status).toBe('completed');
    const versionAfterFirst = await knowledgeVersion(withAi, agent._id);
    const itemsAfterFirst = await chunkItems(withAi, agent._id);

    // Unchanged page.
    const again = await call<AgentUrl>(withAi, 'PUT', `/api/agents/${agent._id}/urls/${added!._id}`, {});
    expect(again.status).toBe(200);
    const unchanged = await settledUrl(withAi, agent._id, added!._id);
    expect(unchanged.status).toBe('completed');
    expect(await site.requests('/hours')).toHaveLength(2);
    expect(await knowledgeVersion(withAi, agent._id)).toBe(versionAfterFirst);
    expect(await chunkItems(withAi, agent._id)).toEqual(itemsAfterFirst);

    // Changed page.
    await site.route({ ...route, body: HOURS_PAGE('nine in the evening') });
    await call(withAi, 'PUT', `/api/agents/${agent._id}/urls/${added!._id}`, {});
    const changed = await settledUrl(withAi, agent._id, added!._id);
    expect(changed.status).toBe('completed');
    expect(await knowledgeVersion(withAi, agent._id)).toBe(versionAfterFirst + 1);
    const texts = (await chunkItems(withAi, agent._id)).map((i) => String(i.text)).join('\n');
    expect(texts).toContain('On weekdays we close at nine in the evening');
    expect(texts).not.toContain('six in the evening');
    const [best] = await search(withAi, agent._id, 'What time do you close on weekdays?');
    expect(best!.chunk.text).toContain('nine in the evening');
  });
});
