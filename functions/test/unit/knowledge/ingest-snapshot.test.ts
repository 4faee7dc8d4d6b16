import { describe, expect, it } from 'vitest';
import { EMBEDDING_DIMENSIONS } from '../../../src/domain/ai/ports.js';
import { createKnowledgeIngestion } from '../../../src/domain/knowledge/ingest.js';
import type { AgentKnowledgeRef, IndexSnapshotStore, StructuredDocument } from '../../../src/domain/knowledge/ports.js';
import { CachedKnowledgeRetriever } from '../../../src/domain/knowledge/retrieval.js';
import { decodeSnapshot } from '../../../src/domain/knowledge/snapshot.js';
import { TransientError } from '../../../src/domain/retry.js';
import { connector, MemoryChunkStore, MemorySources, ScriptedEmbedder } from './fakes.js';

const U = 'user-1';
const A = 'agent-1';
const LINK = 'https://peluqueria.example/horario';

const page = (rows: string[][]): StructuredDocument => ({
  title: 'Horario',
  blocks: [
    { kind: 'heading', level: 1, text: 'Horario de atención' },
    { kind: 'table', header: true, rows },
    { kind: 'paragraph', text: 'Los festivos permanecemos cerrados. Para reservas, llámenos al 912 345 678.' },
  ],
});

class MemorySnapshots implements IndexSnapshotStore {
  readonly written: { ref: AgentKnowledgeRef; bytes: Uint8Array }[] = [];
  failPut: Error | null = null;
  async get(ref: AgentKnowledgeRef) {
    return this.written.findLast((w) => w.ref.userId === ref.userId && w.ref.agentId === ref.agentId && w.ref.language === ref.language)?.bytes ?? null;
  }
  async put(ref: AgentKnowledgeRef, bytes: Uint8Array) {
    if (this.failPut) throw this.failPut;
    this.written.push({ ref, bytes });
  }
}

function harness() {
  const sources = new MemorySources();
  const store = new MemoryChunkStore();
  const snapshots = new MemorySnapshots();
  const warnings: string[] = [];
  let current = page([
    ['Día', 'Horario'],
    ['Viernes', '9:00–15:00'],
    ['Sábados', '10:00–14:00'],
  ]);
  const ingestion = createKnowledgeIngestion({
    sources,
    chunks: store,
    ai: connector(new ScriptedEmbedder()),
    pages: { fetch: async () => current },
    log: { info: () => undefined, warn: (m) => void warnings.push(m) },
    snapshots,
  });
  sources.add(U, A, { kind: 'url', sourceId: 'url-1', name: LINK, link: LINK, status: 'pending' });
  return { sources, store, snapshots, warnings, ingestion, setPage: (p: StructuredDocument) => (current = p) };
}

const expected = { agentId: A, language: 'es' as const, dims: EMBEDDING_DIMENSIONS };

describe('ingestion writes the index snapshot', () => {
  it('after the version bump, labelled with the new version and holding the new chunks, and a cold search reads no chunk', async () => {
    const h = harness();

    expect(await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'url-1' }, { finalAttempt: false })).toBe('completed');

    expect(h.snapshots.written).toHaveLength(1);
    const { ref, bytes } = h.snapshots.written[0]!;
    expect(ref).toEqual({ userId: U, agentId: A, knowledgeVersion: 1, language: 'es' });
    const decoded = decodeSnapshot(bytes, expected)!;
    expect(decoded.knowledgeVersion).toBe(1);
    expect(decoded.index.chunks.map((c) => c.text).join('\n')).toContain('Sábados');
    expect(decoded.index.vectorCount).toBe(decoded.index.chunks.length);

    const loads = { count: 0 };
    const cold = new CachedKnowledgeRetriever({ loadAgent: async () => (loads.count++, []) }, { snapshots: h.snapshots });
    const results = await cold.search({ userId: U, agentId: A, knowledgeVersion: 1, language: 'es' }, '¿abrís los sábados?', null, 3);
    expect(results[0]!.chunk.text).toContain('Sábados | 10:00–14:00');
    expect(loads.count).toBe(0);
  });

  it('a refresh that changed the page writes the next version; one that did not change writes nothing', async () => {
    const h = harness();
    await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'url-1' }, { finalAttempt: false });
    h.sources.records.get(h.sources.key(U, A, 'url', 'url-1'))!.contentHash = undefined;
    h.setPage(page([
      ['Día', 'Horario'],
      ['Sábados', 'cerrado'],
    ]));
    h.sources.restart(U, A, 'url', 'url-1');
    await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'url-1', refresh: true }, { finalAttempt: false });
    expect(h.snapshots.written.map((w) => w.ref.knowledgeVersion)).toEqual([1, 2]);
    expect(decodeSnapshot(h.snapshots.written[1]!.bytes, expected)!.index.chunks.map((c) => c.text).join('\n')).toContain('Sábados | cerrado');

    // Same text again: 'unchanged', no version bump, no snapshot.
    const record = h.sources.records.get(h.sources.key(U, A, 'url', 'url-1'))!;
    expect(record.contentHash).toBeDefined();
    h.sources.restart(U, A, 'url', 'url-1');
    expect(await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'url-1', refresh: true }, { finalAttempt: false })).toBe('unchanged');
    expect(h.snapshots.written).toHaveLength(2);
  });

  it('a snapshot that cannot be written is logged and the source still completes (the next search rebuilds it)', async () => {
    const h = harness();
    h.snapshots.failPut = new Error('S3 answered 503');

    expect(await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'url-1' }, { finalAttempt: false })).toBe('completed');

    expect(h.warnings).toEqual(['Knowledge index snapshot not written']);
    expect(h.sources.records.get(h.sources.key(U, A, 'url', 'url-1'))!.status).toBe('completed');
  });

  it('on the last try too: a snapshot write failing with a storage outage never flips the completed source to failed (issue 34)', async () => {
    const h = harness();
    h.snapshots.failPut = new TransientError({ provider: 's3', code: 'unavailable', status: 503 });

    expect(await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'url-1' }, { finalAttempt: true })).toBe('completed');

    expect(h.sources.records.get(h.sources.key(U, A, 'url', 'url-1'))).toMatchObject({ status: 'completed', error: undefined });
    expect(h.sources.updates.map((u) => [u.update.status, u.settled])).toEqual([['completed', true]]);
  });

  it('no snapshot when the source was deleted while it was ingested', async () => {
    const h = harness();
    // Deleted after its chunks were written, before its outcome.
    const replace = h.store.replaceSource.bind(h.store);
    h.store.replaceSource = async (...args) => {
      await replace(...args);
      h.sources.records.delete(h.sources.key(U, A, 'url', 'url-1'));
    };

    expect(await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'url-1' }, { finalAttempt: false })).toBe('dropped');

    expect(h.snapshots.written).toHaveLength(0);
    expect(await h.store.loadAgent(U, A)).toEqual([]);
  });
});
