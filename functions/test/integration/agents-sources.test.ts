/**
 * DynamoKnowledgeSources (what the ingestion workers read and write) against DynamoDB Local.
 * Agents and children are written with DynamoAgentRepository directly, so no job is queued and
 * no worker races the assertions: the record mapping, status updates (guarded by the processing
 * round, issue 34), the knowledgeVersion bump, and no ghost items for sources deleted meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoAgentRepository, DynamoKnowledgeSources } from '../../src/adapters/dynamo/agents.js';
import { newAgentRecord, type AgentRecord, type FileRecord, type UrlRecord } from '../../src/domain/agents/ports.js';
import { newId } from '../../src/lib/ids.js';
import { db, getItem, tableName } from '../support/api.js';

const at = new Date('2026-05-01T10:00:00.000Z');
let repo: DynamoAgentRepository;
let sources: DynamoKnowledgeSources;
const userId = `test-${randomUUID()}`;

beforeAll(() => {
  repo = new DynamoAgentRepository(db(), tableName());
  sources = new DynamoKnowledgeSources(db(), tableName(), () => at);
});

async function agent(): Promise<AgentRecord> {
  const record = newAgentRecord(newId(), 'Sources', new Date().toISOString());
  await repo.createAgent(userId, record);
  return record;
}

async function file(agentId: string, name = 'Guía.txt'): Promise<FileRecord> {
  const id = newId();
  const record: FileRecord = {
    id,
    _id: id,
    agentId,
    shareable: false,
    originalName: name,
    mimeType: 'text/plain',
    size: 4,
    uploadedAt: new Date().toISOString(),
    status: 'pending',
    s3Key: `agents/${userId}/${agentId}/${id}/x.txt`,
  };
  expect(await repo.addFiles(userId, agentId, [record])).toBe(true);
  return record;
}

async function url(agentId: string, link: string): Promise<UrlRecord> {
  const record: UrlRecord = { _id: newId(), agentId, link, status: 'pending', lastUpdateAt: new Date().toISOString() };
  expect(await repo.addUrls(userId, agentId, [record])).toBe(true);
  return record;
}

const version = async (agentId: string) => (await repo.getAgent(userId, agentId))?.knowledgeVersion;

describe('DynamoKnowledgeSources', () => {
  it('reads a file as a source record', async () => {
    const a = await agent();
    const f = await file(a._id);

    expect(await sources.get(userId, a._id, 'file', f._id)).toEqual({
      kind: 'file',
      sourceId: f._id,
      name: 'Guía.txt',
      s3Key: f.s3Key,
      mimeType: 'text/plain',
      size: 4,
      status: 'pending',
    });
    expect(await sources.get(userId, a._id, 'file', newId())).toBeNull();
    // The file is not a URL, and another user's id never reads it.
    expect(await sources.get(userId, a._id, 'url', f._id)).toBeNull();
    expect(await sources.get('someone-else', a._id, 'file', f._id)).toBeNull();
  });

  it('reads a URL as a source record', async () => {
    const a = await agent();
    const u = await url(a._id, 'https://docs.example.com/start');

    expect(await sources.get(userId, a._id, 'url', u._id)).toEqual({
      kind: 'url',
      sourceId: u._id,
      name: 'https://docs.example.com/start',
      link: 'https://docs.example.com/start',
      status: 'pending',
    });
  });

  it('records a completed ingestion (chunks, hash, title, time) and bumps the agent knowledge version', async () => {
    const a = await agent();
    const u = await url(a._id, 'https://docs.example.com/pricing');

    expect(await sources.settle(userId, a._id, 'url', u._id, undefined, { status: 'completed', chunkCount: 7, contentHash: 'abc123', title: 'Pricing' }, true)).toEqual({
      settled: true,
      state: { knowledgeVersion: 1, language: 'en' },
    });

    const stored = (await repo.get(userId, a._id))!.urls[0];
    expect(stored).toEqual({ ...u, status: 'completed', chunkCount: 7, contentHash: 'abc123', title: 'Pricing', lastUpdateAt: at.toISOString() });
    expect(await version(a._id)).toBe(1);
    expect(await sources.get(userId, a._id, 'url', u._id)).toMatchObject({ status: 'completed', contentHash: 'abc123' });
  });

  it('records a failure with its reason, clears it when a new round succeeds, and keeps the version without chunk changes', async () => {
    const a = await agent();
    const f = await file(a._id, 'scan.pdf');

    expect(await sources.settle(userId, a._id, 'file', f._id, undefined, { status: 'failed', error: 'The PDF has no extractable text' }, false)).toEqual({ settled: true, state: null });
    expect(await repo.getFile(userId, a._id, f._id)).toMatchObject({ status: 'failed', error: 'The PDF has no extractable text' });
    expect(await version(a._id)).toBe(0);

    // Reprocessed: pending in a new round, whose job completes it.
    const round = newId();
    expect(await repo.setFileStatus(userId, a._id, f._id, 'failed', { status: 'pending', generation: round })).toMatchObject({ status: 'pending', generation: round });
    expect(await sources.get(userId, a._id, 'file', f._id)).toMatchObject({ status: 'pending', generation: round });
    await sources.settle(userId, a._id, 'file', f._id, round, { status: 'completed', chunkCount: 1 }, true);
    const done = await repo.getFile(userId, a._id, f._id);
    expect(done).toMatchObject({ status: 'completed', chunkCount: 1 });
    expect(done?.error).toBeUndefined();
    expect(await version(a._id)).toBe(1);
  });

  it('settles only a source pending in the job\'s round: a completed one never flips to failed, a stale round changes nothing (issue 34)', async () => {
    const a = await agent();
    const u = await url(a._id, 'https://docs.example.com/hours');
    const first = newId();
    await repo.restartUrl(userId, a._id, u._id, { link: u.link, at: at.toISOString(), generation: first });

    // A job of no round, or of another one, does not match.
    expect(await sources.settle(userId, a._id, 'url', u._id, undefined, { status: 'failed', error: 'x' }, false)).toEqual({ settled: false, state: null });
    expect(await sources.settle(userId, a._id, 'url', u._id, newId(), { status: 'failed', error: 'x' }, false)).toEqual({ settled: false, state: null });
    expect(await sources.settle(userId, a._id, 'url', u._id, first, { status: 'completed', chunkCount: 2 }, true)).toMatchObject({ settled: true });
    // Completed: a late failure of the same round (a repeated delivery, a snapshot that failed) changes nothing.
    expect(await sources.settle(userId, a._id, 'url', u._id, first, { status: 'failed', error: 'Storage was unavailable' }, false)).toEqual({ settled: false, state: null });
    expect(await repo.getUrl(userId, a._id, u._id)).toMatchObject({ status: 'completed', chunkCount: 2 });
    expect((await repo.getUrl(userId, a._id, u._id))?.error).toBeUndefined();
    expect(await version(a._id)).toBe(1);

    // Reprocess only from failed: a completed URL is not restarted that way.
    expect(await repo.restartUrl(userId, a._id, u._id, { link: u.link, at: at.toISOString(), generation: newId(), from: 'failed' })).toBeNull();
    // A refresh starts a new round: the old round's job can no longer write.
    const second = newId();
    expect(await repo.restartUrl(userId, a._id, u._id, { link: u.link, at: at.toISOString(), generation: second })).toMatchObject({ status: 'pending', generation: second });
    expect(await sources.settle(userId, a._id, 'url', u._id, first, { status: 'failed', error: 'x' }, false)).toMatchObject({ settled: false });
    expect(await sources.settle(userId, a._id, 'url', u._id, second, { status: 'failed', error: 'The page returned HTTP 404' }, false)).toMatchObject({ settled: true });
    expect(await repo.getUrl(userId, a._id, u._id)).toMatchObject({ status: 'failed', error: 'The page returned HTTP 404', chunkCount: 2 });
  });

  it('does nothing for a source deleted meanwhile (no ghost item), nor for a deleted agent', async () => {
    const a = await agent();
    const gone = await url(a._id, 'https://gone.example.com/');
    await repo.deleteUrl(userId, a._id, gone._id);

    expect(await sources.settle(userId, a._id, 'url', gone._id, undefined, { status: 'completed', chunkCount: 3 }, true)).toEqual({ settled: false, state: null });

    expect(await getItem(`USER#${userId}`, `AGENT#${a._id}#URL#${gone._id}`)).toBeUndefined();
    expect(await version(a._id)).toBe(0);

    const other = await url(a._id, 'https://other.example.com/');
    await repo.deleteAgent(userId, a._id);
    await sources.settle(userId, a._id, 'url', other._id, undefined, { status: 'completed' }, true);
    expect(await getItem(`USER#${userId}`, `AGENT#${a._id}`)).toBeUndefined();
    expect(await getItem(`USER#${userId}`, `AGENT#${a._id}#URL#${other._id}`)).toBeUndefined();
  });

  it('adds no child under a deleted agent', async () => {
    const a = await agent();
    await repo.deleteAgent(userId, a._id);

    const id = newId();
    expect(await repo.addUrls(userId, a._id, [{ _id: id, agentId: a._id, link: 'https://late.example.com/', status: 'pending', lastUpdateAt: '' }])).toBe(false);
    expect(await getItem(`USER#${userId}`, `AGENT#${a._id}#URL#${id}`)).toBeUndefined();
  });
});
