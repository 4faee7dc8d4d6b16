/**
 * The knowledge index snapshot on the local stack (issue 18, fast first answer): a file uploaded
 * through the API and ingested by the real worker leaves its agent's snapshot in s3rver; a fresh
 * retriever (what a cold function is) answers from it in one GET without a single chunk Query, as
 * the DynamoDB path answers; without a snapshot it falls back and writes one; keys are tenant first.
 */
import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AgentFile } from '../../src/contract/agents.js';
import { S3IndexSnapshots, snapshotKey } from '../../src/adapters/aws/index-snapshots.js';
import { DynamoChunkStore } from '../../src/adapters/dynamo/knowledge-chunks.js';
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODEL } from '../../src/domain/ai/ports.js';
import type { AgentKnowledgeRef, KnowledgeLanguage } from '../../src/domain/knowledge/ports.js';
import { CachedKnowledgeRetriever } from '../../src/domain/knowledge/retrieval.js';
import { decodeSnapshot } from '../../src/domain/knowledge/snapshot.js';
import { api, db, getItem, provided, tableName } from '../support/api.js';
import { agentsUser, call, createAgent, eventually, uploadDirect, type AgentsUser } from '../support/agents-api.js';
import { localCredentials, testS3Client } from '../support/stack-clients.js';

const HORARIO = `Peluquería Lola — horario y precios

Día | Horario
Lunes a jueves | 9:00–20:00
Viernes | 9:00–15:00
Sábados | 10:00–14:00
Domingos y festivos | cerrado

Corte de pelo: 15 €. Tinte: 35 €. Mechas: 50 €. Alisado con keratina: 80 €.
Las citas se cancelan gratis hasta 24 horas antes; después se cobra el 50 % del servicio.
Aparcamiento gratuito en la calle Mayor, a dos minutos del salón.
`;

let owner: AgentsUser & { apiKey: string };
let other: AgentsUser;
let agent: Agent;
let language: KnowledgeLanguage;

const bucket = () => provided('uploadsBucket');
const snapshots = () => new S3IndexSnapshots({ bucket: bucket(), region: 'us-east-1', endpoint: provided('s3Endpoint'), credentials: async () => localCredentials });

/** The DynamoDB chunk store, counting the loads (each is a run of chunk Queries). */
function countingStore() {
  const store = new DynamoChunkStore(db(), tableName());
  const counted = { loads: 0, loadAgent: (userId: string, agentId: string) => (counted.loads++, store.loadAgent(userId, agentId)) };
  return counted;
}

async function ref(user: AgentsUser, agentId: string): Promise<AgentKnowledgeRef> {
  const item = await getItem(`USER#${user.userId}`, `AGENT#${agentId}`);
  return { userId: user.userId, agentId, knowledgeVersion: Number(item?.knowledgeVersion ?? 0), language };
}

async function embed(text: string): Promise<Float32Array> {
  const res = await fetch(`${provided('openaiUrl')}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: EMBEDDING_MODEL, input: [text] }),
  });
  return Float32Array.from(((await res.json()) as { data: { embedding: number[] }[] }).data[0]!.embedding);
}

async function objectBytes(key: string): Promise<Uint8Array | null> {
  try {
    const out = await testS3Client().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    return await out.Body!.transformToByteArray();
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
}

beforeAll(async () => {
  const [a, b] = await Promise.all([agentsUser(), agentsUser()]);
  const apiKey = `sk-test-snapshot-${randomBytes(6).toString('hex')}`;
  const setup = await api('POST', '/api/integrations/chatgpt/setup', { token: a.token, body: { apiKey } });
  if (setup.status !== 200) throw new Error(`ChatGPT setup failed: ${setup.status}`);
  owner = { ...a, apiKey };
  other = b;
  agent = await createAgent(owner, 'Lola');
  language = ((await getItem(`USER#${owner.userId}`, `AGENT#${agent._id}`))?.language as KnowledgeLanguage | undefined) ?? 'en';

  const { ticket, done } = await uploadDirect(owner, agent._id, { name: 'Horario y precios.txt', type: 'text/plain', bytes: HORARIO });
  if (done.status !== 200) throw new Error(`complete failed: ${done.status}`);
  await eventually(async () => {
    const res = await call<AgentFile[]>(owner, 'GET', `/api/agents/${agent._id}/files`);
    return res.body.data?.find((f) => f._id === ticket.file._id)?.status === 'completed';
  }, 25_000);
}, 60_000);

const QUESTIONS = ['¿Abrís los sábados?', '¿Cuánto cuesta la keratina?', '¿Dónde puedo aparcar?'];

describe('knowledge index snapshot', () => {
  it('is in s3rver after the ingestion, tenant first, labelled with the version the ingestion left', async () => {
    const current = await ref(owner, agent._id);
    const key = snapshotKey(owner.userId, agent._id, language);
    expect(key).toBe(`knowledge-index/${owner.userId}/${agent._id}/${language}.bin`);

    // Written right after the bump, in the worker's job: no search has run yet.
    const bytes = await eventually(() => objectBytes(key), 10_000);

    const decoded = decodeSnapshot(bytes, { agentId: agent._id, language, dims: EMBEDDING_DIMENSIONS });
    expect(decoded?.knowledgeVersion).toBe(current.knowledgeVersion);
    expect(decoded!.index.chunks.map((c) => c.text).join('\n')).toContain('Sábados | 10:00–14:00');
    expect(decoded!.index.vectorCount).toBe(decoded!.index.chunks.length);
  });

  it('a cold retriever answers from it with no chunk Query, exactly as the DynamoDB path answers', async () => {
    const current = await ref(owner, agent._id);
    const store = countingStore();
    const cold = new CachedKnowledgeRetriever(store, { snapshots: snapshots() });
    const fromDynamo = new CachedKnowledgeRetriever(new DynamoChunkStore(db(), tableName()));

    for (const question of QUESTIONS) {
      const vector = await embed(question);
      const a = await cold.search(current, question, vector, 3);
      const b = await fromDynamo.search(current, question, vector, 3);
      expect(a.length).toBeGreaterThan(0);
      expect(a.map((r) => [r.chunk.sourceId, r.chunk.index, r.chunk.text, r.score, r.relevance])).toEqual(
        b.map((r) => [r.chunk.sourceId, r.chunk.index, r.chunk.text, r.score, r.relevance]),
      );
    }
    expect(store.loads).toBe(0);
    expect(cold.snapshotLoads).toBe(1);
  });

  it('missing, the retriever loads the chunks, answers, and writes it for the next cold start', async () => {
    const current = await ref(owner, agent._id);
    const key = snapshotKey(owner.userId, agent._id, language);
    await testS3Client().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
    expect(await objectBytes(key)).toBeNull();

    const store = countingStore();
    const first = new CachedKnowledgeRetriever(store, { snapshots: snapshots() });
    const answer = await first.search(current, '¿Abrís los sábados?', null, 1);
    expect(answer[0]!.chunk.text).toContain('Sábados');
    expect(store.loads).toBe(1);
    await first.settled();
    expect(decodeSnapshot((await objectBytes(key))!, { agentId: agent._id, language, dims: EMBEDDING_DIMENSIONS })?.knowledgeVersion).toBe(current.knowledgeVersion);

    const next = countingStore();
    const cold = new CachedKnowledgeRetriever(next, { snapshots: snapshots() });
    expect((await cold.search(current, '¿Abrís los sábados?', null, 1)).map((r) => r.chunk.text)).toEqual(answer.map((r) => r.chunk.text));
    expect(next.loads).toBe(0);
  });

  it("another tenant never reads it: the same agent id under another user finds nothing and leaves this user's snapshot alone", async () => {
    const key = snapshotKey(owner.userId, agent._id, language);
    const before = await objectBytes(key);
    const store = countingStore();
    const retriever = new CachedKnowledgeRetriever(store, { snapshots: snapshots() });

    const results = await retriever.search({ userId: other.userId, agentId: agent._id, knowledgeVersion: 0, language }, '¿Abrís los sábados?', null, 3);
    await retriever.settled();

    expect(results).toEqual([]);
    expect(store.loads).toBe(1);
    expect(await objectBytes(key)).toEqual(before);
    const listed = await testS3Client().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `knowledge-index/${other.userId}/` }));
    for (const object of listed.Contents ?? []) {
      const bytes = (await objectBytes(object.Key!))!;
      expect(new TextDecoder().decode(bytes)).not.toContain('Sábados');
    }
  });

  it('deleting the agent deletes its snapshots', async () => {
    const doomed = await createAgent(owner, 'Temporal');
    const doomedRef = await ref(owner, doomed._id);
    await snapshots().put(doomedRef, new Uint8Array([1, 2, 3]));
    expect(await objectBytes(snapshotKey(owner.userId, doomed._id, language))).not.toBeNull();

    const res = await call(owner, 'DELETE', `/api/agents/${doomed._id}`);

    expect(res.status).toBe(200);
    expect(await objectBytes(snapshotKey(owner.userId, doomed._id, language))).toBeNull();
  });
});
