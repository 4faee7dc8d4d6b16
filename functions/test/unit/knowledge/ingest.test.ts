import { beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeSourceError, knowledgeMessages } from '../../../src/domain/knowledge/errors.js';
import { contentHashOf, createKnowledgeIngestion, UNEXPECTED_FAILURE, type KnowledgeIngestDeps } from '../../../src/domain/knowledge/ingest.js';
import { agentMessages, type AgentFileKind } from '../../../src/contract/agents.js';
import type { StructuredDocument } from '../../../src/domain/knowledge/ports.js';
import { TransientError } from '../../../src/domain/retry.js';
import { connector, MemoryChunkStore, MemorySources, modelError, ScriptedEmbedder } from './fakes.js';

const U = 'user-1';
const A = 'agent-1';
/** Plain text as the extractors give it: one paragraph block (none when blank). */
const asDocument = (text: string): StructuredDocument => ({ blocks: text.trim() ? [{ kind: 'paragraph', text }] : [] });
const longText = (word: string, sentences = 30) =>
  Array.from({ length: sentences }, (_, i) => `${word} sentence number ${i} has some words to make the chunk longer than a few characters.`).join(' ');

interface Harness {
  sources: MemorySources;
  store: MemoryChunkStore;
  embedder: ScriptedEmbedder;
  warnings: string[];
  files: Map<string, Uint8Array>;
  pages: Map<string, { title: string; text: string } | Error>;
  extracted: { kind: AgentFileKind; size: number }[];
  /** Files whose extraction gives this document instead of their bytes as text. */
  documents: Map<string, StructuredDocument>;
  /** Reads of these keys run this instead (an outage, a race). */
  reads: Map<string, () => Promise<Uint8Array>>;
  ingestion: ReturnType<typeof createKnowledgeIngestion>;
}

function harness(options: { connected?: boolean } = {}): Harness {
  const h = {
    sources: new MemorySources(),
    store: new MemoryChunkStore(),
    embedder: new ScriptedEmbedder(),
    warnings: [] as string[],
    files: new Map<string, Uint8Array>(),
    pages: new Map<string, { title: string; text: string } | Error>(),
    extracted: [] as { kind: AgentFileKind; size: number }[],
    documents: new Map<string, StructuredDocument>(),
    reads: new Map<string, () => Promise<Uint8Array>>(),
  } as Harness;
  const deps: KnowledgeIngestDeps = {
    sources: h.sources,
    chunks: h.store,
    ai: connector(options.connected === false ? null : h.embedder),
    files: {
      read: async (key) => {
        const read = h.reads.get(key);
        if (read) return read();
        const bytes = h.files.get(key);
        if (!bytes) throw new KnowledgeSourceError(knowledgeMessages.fileMissing);
        return bytes;
      },
      extract: async (kind, bytes) => {
        const body = kind === 'pdf' ? bytes.subarray(PDF_HEADER.length) : bytes;
        h.extracted.push({ kind, size: body.byteLength });
        const text = new TextDecoder().decode(body);
        if (text.startsWith('BROKEN')) throw new KnowledgeSourceError(knowledgeMessages.notPdf);
        return h.documents.get(text) ?? asDocument(text);
      },
    },
    pages: {
      fetch: async (link) => {
        const page = h.pages.get(link);
        if (!page) throw new KnowledgeSourceError(knowledgeMessages.httpStatus(404));
        if (page instanceof Error) throw page;
        return { title: page.title, ...asDocument(page.text) };
      },
    },
    log: { info: () => undefined, warn: (m) => void h.warnings.push(m) },
  };
  h.ingestion = createKnowledgeIngestion(deps);
  return h;
}

/** Files named .pdf start with a PDF header (content is sniffed before extraction); the fake extractor reads what follows. */
const PDF_HEADER = '%PDF-1.7\n';
const addFile = (h: Harness, fileId: string, name: string, content: string | Uint8Array, extra: Partial<{ size: number; mimeType: string }> = {}) => {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(/\.pdf$/i.test(name) ? PDF_HEADER + content : content) : content;
  h.files.set(`uploads/${fileId}`, bytes);
  h.sources.add(U, A, { kind: 'file', sourceId: fileId, name, s3Key: `uploads/${fileId}`, mimeType: extra.mimeType ?? '', size: extra.size ?? bytes.byteLength, status: 'pending' });
};
const addUrl = (h: Harness, urlId: string, link: string) => h.sources.add(U, A, { kind: 'url', sourceId: urlId, name: link, link, status: 'pending' });
const record = (h: Harness, kind: 'file' | 'url', id: string) => h.sources.records.get(h.sources.key(U, A, kind, id))!;
const once = { finalAttempt: false };
const last = { finalAttempt: true };

describe('file ingestion', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });

  it('chunks, embeds and stores a file, then completes it with its count and hash and bumps the version', async () => {
    const text = longText('Deposit');
    addFile(h, 'f1', 'Terms.PDF', text);

    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).toBe('completed');

    const chunks = h.store.of(U, A, 'file', 'f1')!;
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c, i) => c.index === i && c.sourceName === 'Terms.PDF' && c.vector?.length === 1536)).toBe(true);
    expect(h.extracted).toEqual([{ kind: 'pdf', size: text.length }]);
    expect(record(h, 'file', 'f1')).toMatchObject({ status: 'completed', chunkCount: chunks.length, contentHash: contentHashOf(text), error: undefined });
    expect(h.sources.versions.get(`${U}/${A}`)).toBe(1);
    expect(h.embedder.calls).toBe(1);
  });

  it('stores each chunk with its page and heading path, table rows with their header, and never a title for a file', async () => {
    h.documents.set('MENU', {
      title: 'PDF metadata title',
      blocks: [
        { kind: 'heading', level: 1, text: 'La Tasca', page: 1 },
        { kind: 'paragraph', text: 'Cocina andaluza en Triana desde 1987.', page: 1 },
        { kind: 'heading', level: 2, text: 'Horario', page: 2 },
        { kind: 'table', header: true, rows: [['Día', 'Horario'], ['Viernes', '9:00–15:00'], ['Sábados', '10:00–14:00']], page: 2 },
      ],
    });
    addFile(h, 'f1', 'carta.pdf', 'MENU');

    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).toBe('completed');

    expect(h.store.of(U, A, 'file', 'f1')!.map(({ text, page, headings }) => ({ text, page, headings }))).toEqual([
      { text: 'La Tasca\nCocina andaluza en Triana desde 1987.', page: 1, headings: ['La Tasca'] },
      { text: 'La Tasca › Horario\nDía | Horario\nViernes | 9:00–15:00\nSábados | 10:00–14:00', page: 2, headings: ['La Tasca', 'Horario'] },
    ]);
    expect(record(h, 'file', 'f1').title).toBeUndefined();
  });

  it('stores chunks without vectors (and completes) when the user has no active integration', async () => {
    h = harness({ connected: false });
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));

    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).toBe('completed');

    expect(h.store.of(U, A, 'file', 'f1')!.every((c) => c.vector === null)).toBe(true);
    expect(record(h, 'file', 'f1').status).toBe('completed');
    expect(h.warnings.join()).toMatch(/no active ChatGPT integration/);
  });

  it.each(['bad_request', 'not_found'] as const)('stores chunks without vectors when embeddings fail with %s', async (kind) => {
    h.embedder.failWith = modelError(kind);
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));

    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).toBe('completed');
    expect(h.store.of(U, A, 'file', 'f1')!.every((c) => c.vector === null)).toBe(true);
    expect(h.warnings).toHaveLength(1);
  });

  it('fails at once with the reason when the AI key is refused (401): no retry, no chunks, one embedding call (issue 34)', async () => {
    h.embedder.failWith = modelError('auth');
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));

    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).toBe('failed');
    expect(record(h, 'file', 'f1')).toMatchObject({ status: 'failed', error: knowledgeMessages.aiKeyRefused });
    expect(h.store.of(U, A, 'file', 'f1')).toBeUndefined();
    expect(h.embedder.calls).toBe(1);
  });

  it.each(['rate_limit', 'unavailable', 'timeout'] as const)('throws on a transient %s so the queue retries, leaving the source pending', async (kind) => {
    h.embedder.failWith = modelError(kind);
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));

    await expect(h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).rejects.toThrow(kind);
    expect(h.store.of(U, A, 'file', 'f1')).toBeUndefined();
    expect(record(h, 'file', 'f1').status).toBe('pending');
  });

  it('on the last delivery, stores without vectors rather than failing on a transient model error', async () => {
    h.embedder.failWith = modelError('rate_limit');
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));

    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, last)).toBe('completed');
    expect(h.store.of(U, A, 'file', 'f1')!.every((c) => c.vector === null)).toBe(true);
  });

  it('marks the source failed with the reason (and does not throw) for an unreadable file', async () => {
    addFile(h, 'f1', 'fake.pdf', 'BROKEN bytes');

    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).toBe('failed');
    expect(record(h, 'file', 'f1')).toMatchObject({ status: 'failed', error: knowledgeMessages.notPdf });
    expect(h.sources.versions.get(`${U}/${A}`)).toBe(0);
  });

  it('fails a renamed program (or any content not of its type) with the reason, before extraction', async () => {
    const exe = new Uint8Array(256);
    exe.set([0x4d, 0x5a, 0x90, 0x00]);
    addFile(h, 'exe', 'invoice.pdf', exe);
    addFile(h, 'zip', 'notes.txt', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]));

    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'exe' }, once)).toBe('failed');
    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'zip' }, once)).toBe('failed');

    expect(record(h, 'file', 'exe')).toMatchObject({ status: 'failed', error: agentMessages.fileIsProgram });
    expect(record(h, 'file', 'zip')).toMatchObject({ status: 'failed', error: agentMessages.fileNotReallyText });
    expect(h.extracted).toEqual([]);
    expect(h.store.of(U, A, 'file', 'exe')).toBeUndefined();
  });

  it('fails a file with no text, an unsupported type, a missing object or a size over 50 MB', async () => {
    addFile(h, 'empty', 'scan.pdf', '  \n\n 3 \n');
    addFile(h, 'png', 'photo.png', 'whatever', { mimeType: 'image/png' });
    addFile(h, 'big', 'big.pdf', 'x', { size: 51 * 1024 * 1024 });
    addFile(h, 'gone', 'gone.txt', 'x');
    h.files.delete('uploads/gone');

    for (const id of ['empty', 'png', 'big', 'gone']) expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: id }, once)).toBe('failed');

    expect(record(h, 'file', 'empty').error).toBe('No text found in this file (scanned PDFs are not supported yet)');
    expect(record(h, 'file', 'png').error).toBe(knowledgeMessages.unsupportedFile);
    expect(record(h, 'file', 'big').error).toBe(knowledgeMessages.fileTooLarge);
    expect(record(h, 'file', 'gone').error).toBe(knowledgeMessages.fileMissing);
    expect(h.extracted.map((e) => e.kind)).toEqual(['pdf']);
  });

  it('fails a document beyond the chunk cap with the reason', async () => {
    addFile(h, 'f1', 'huge.txt', longText('Many', 25_000));

    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).toBe('failed');
    expect(record(h, 'file', 'f1').error).toMatch(/too long: it has more than 2,000 sections/);
    expect(h.embedder.calls).toBe(0);
  });

  it('drops the job silently when the source no longer exists', async () => {
    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'nope' }, once)).toBe('dropped');
    expect(h.sources.updates).toEqual([]);
    expect(h.store.chunks.size).toBe(0);
  });

  it('removes the chunks it wrote when the source was deleted while it worked', async () => {
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));
    // Deleted after its chunks were written, before its outcome (a delete before that is the delete's own cleanup).
    const replace = h.store.replaceSource.bind(h.store);
    h.store.replaceSource = async (...args) => {
      await replace(...args);
      h.sources.records.clear();
    };

    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).toBe('dropped');
    expect(h.store.of(U, A, 'file', 'f1')).toBeUndefined();
  });

  it('rethrows unexpected errors, marking the source failed only on the last delivery', async () => {
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));
    h.store.replaceSource = async () => {
      throw new Error('DynamoDB is down');
    };

    await expect(h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).rejects.toThrow('DynamoDB is down');
    expect(record(h, 'file', 'f1').status).toBe('pending');
    await expect(h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, last)).rejects.toThrow('DynamoDB is down');
    expect(record(h, 'file', 'f1')).toMatchObject({ status: 'failed', error: UNEXPECTED_FAILURE });
  });

  it('retries a storage outage (S3 5xx, a refused connection) and, when the schedule is spent, fails with a reason that says to reprocess (issue 34)', async () => {
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));
    addFile(h, 'f2', 'more.txt', longText('Gloves'));
    const outage = new TransientError({ provider: 's3', code: 'unavailable', status: 503 });
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4569'), { code: 'ECONNREFUSED' }) });
    const read = (error: Error) => async () => {
      throw error;
    };
    h.reads.set('uploads/f1', read(outage));
    h.reads.set('uploads/f2', read(refused));

    for (const fileId of ['f1', 'f2']) {
      await expect(h.ingestion.ingestFile({ userId: U, agentId: A, fileId }, once)).rejects.toThrow();
      expect(record(h, 'file', fileId).status).toBe('pending');
      await expect(h.ingestion.ingestFile({ userId: U, agentId: A, fileId }, last)).rejects.toThrow();
      expect(record(h, 'file', fileId)).toMatchObject({ status: 'failed', error: knowledgeMessages.storageUnavailable });
    }
  });

  it('does nothing for a job whose source is no longer pending in its round: a repeated delivery, a stale job after a reprocess (issue 34)', async () => {
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));
    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, once)).toBe('completed');
    const chunks = h.store.of(U, A, 'file', 'f1');

    // The same job again (SQS delivers at least once), even failing on its last try: the document stays completed.
    h.files.delete('uploads/f1');
    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, last)).toBe('stale');
    expect(await h.ingestion.giveUpFile({ userId: U, agentId: A, fileId: 'f1' })).toBe('stale');
    expect(record(h, 'file', 'f1')).toMatchObject({ status: 'completed', error: undefined });
    expect(h.store.of(U, A, 'file', 'f1')).toBe(chunks);
    expect(h.embedder.calls).toBe(1);

    // Reprocessed in round r2: a job of the old round is stale, the new round's job does the work.
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));
    h.sources.restart(U, A, 'file', 'f1', 'r2');
    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1' }, last)).toBe('stale');
    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1', generation: 'r1' }, last)).toBe('stale');
    expect(record(h, 'file', 'f1').status).toBe('pending');
    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1', generation: 'r2' }, once)).toBe('completed');
  });

  it('a job that finished while a stale one of an older round was still reading: the stale one records nothing', async () => {
    addFile(h, 'f1', 'notes.txt', longText('Helmet'));
    h.sources.restart(U, A, 'file', 'f1', 'r1');
    // While round r1's job reads the document, the file is reprocessed (r2) and r2's job completes it.
    const original = h.files.get('uploads/f1')!;
    let reprocessed = false;
    h.reads.set('uploads/f1', async () => {
      if (!reprocessed) {
        reprocessed = true;
        h.sources.restart(U, A, 'file', 'f1', 'r2');
        expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1', generation: 'r2' }, once)).toBe('completed');
      }
      return original;
    });
    expect(await h.ingestion.ingestFile({ userId: U, agentId: A, fileId: 'f1', generation: 'r1' }, once)).toBe('stale');
    expect(record(h, 'file', 'f1')).toMatchObject({ status: 'completed' });
    expect(h.sources.versions.get(`${U}/${A}`)).toBe(1);
  });
});

describe('URL ingestion', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });

  it('stores the page text with the page title', async () => {
    addUrl(h, 'u1', 'https://acme.example/prices');
    h.pages.set('https://acme.example/prices', { title: 'Acme prices', text: longText('Price') });

    expect(await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'u1' }, once)).toBe('completed');
    expect(record(h, 'url', 'u1')).toMatchObject({ status: 'completed', title: 'Acme prices' });
    expect(h.store.of(U, A, 'url', 'u1')![0]!.sourceName).toBe('https://acme.example/prices');
  });

  it('fails with the page problem as the reason', async () => {
    addUrl(h, 'u1', 'https://acme.example/missing');
    addUrl(h, 'u2', 'https://acme.example/empty');
    h.pages.set('https://acme.example/empty', { title: 'Empty', text: '   ' });

    await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'u1' }, once);
    await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'u2' }, once);
    expect(record(h, 'url', 'u1')).toMatchObject({ status: 'failed', error: 'The page returned HTTP 404' });
    expect(record(h, 'url', 'u2')).toMatchObject({ status: 'failed', error: knowledgeMessages.noTextOnPage });
  });

  it('retries a page that was down (passing) and fails it with the page\'s reason only on the last try (issue 34)', async () => {
    addUrl(h, 'u1', 'https://acme.example/busy');
    h.pages.set('https://acme.example/busy', new KnowledgeSourceError(knowledgeMessages.httpStatus(503), { passing: true }));

    await expect(h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'u1' }, once)).rejects.toThrow('The page returned HTTP 503');
    expect(record(h, 'url', 'u1').status).toBe('pending');
    expect(await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'u1' }, last)).toBe('failed');
    expect(record(h, 'url', 'u1')).toMatchObject({ status: 'failed', error: 'The page returned HTTP 503' });
  });

  it('on refresh keeps the chunks (and the version) when the text did not change, and replaces them when it did', async () => {
    const link = 'https://acme.example/hours';
    addUrl(h, 'u1', link);
    h.pages.set(link, { title: 'Hours', text: longText('Monday') });
    await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'u1' }, once);
    const first = h.store.of(U, A, 'url', 'u1');
    expect(h.sources.versions.get(`${U}/${A}`)).toBe(1);

    // Same text, different whitespace: unchanged.
    h.pages.set(link, { title: 'Hours (new title)', text: `  ${longText('Monday').replace(/ /g, '  ')}\n` });
    h.sources.restart(U, A, 'url', 'u1');
    expect(await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'u1', refresh: true }, once)).toBe('unchanged');
    expect(h.store.of(U, A, 'url', 'u1')).toBe(first);
    expect(h.sources.versions.get(`${U}/${A}`)).toBe(1);
    expect(h.embedder.calls).toBe(1);
    expect(record(h, 'url', 'u1')).toMatchObject({ status: 'completed', title: 'Hours (new title)' });

    h.pages.set(link, { title: 'Hours', text: longText('Tuesday') });
    h.sources.restart(U, A, 'url', 'u1');
    expect(await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'u1', refresh: true }, once)).toBe('completed');
    expect(h.store.of(U, A, 'url', 'u1')![0]!.text).toContain('Tuesday');
    expect(h.sources.versions.get(`${U}/${A}`)).toBe(2);
  });

  it('keeps the earlier chunks when a refresh fails', async () => {
    const link = 'https://acme.example/hours';
    addUrl(h, 'u1', link);
    h.pages.set(link, { title: 'Hours', text: longText('Monday') });
    await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'u1' }, once);

    h.pages.delete(link);
    h.sources.restart(U, A, 'url', 'u1');
    expect(await h.ingestion.scrapeUrl({ userId: U, agentId: A, urlId: 'u1', refresh: true }, once)).toBe('failed');
    expect(h.store.of(U, A, 'url', 'u1')!.length).toBeGreaterThan(0);
  });
});
