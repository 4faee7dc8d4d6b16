/**
 * The agents service's paths the local stack cannot provoke: a queue that refuses the job leaves
 * no source pending forever, and the request still fails (5xx) so the user sees it; and (issue 34)
 * a storage outage during a confirm or an upload (503, nothing half-written, repeatable) and the
 * reprocessing of what failed.
 */
import { describe, expect, it } from 'vitest';
import { newAgentRecord, type AgentWithChildren, type FileRecord, type UrlRecord } from '../../../src/domain/agents/ports.js';
import type { AgentRepository, FileStatusChange } from '../../../src/domain/agents/repository.js';
import { createAgentService } from '../../../src/domain/agents/service.js';
import { newId } from '../../../src/lib/ids.js';
import { agentMessages } from '../../../src/contract/agents.js';
import { knowledgeMessages } from '../../../src/contract/server-texts.js';
import { ServiceUnavailableError } from '../../../src/domain/errors.js';
import { TransientError } from '../../../src/domain/retry.js';

const agentId = newId();
const agent: AgentWithChildren = { ...newAgentRecord(agentId, 'A', '2026-01-01T00:00:00.000Z'), files: [], urls: [], tools: [], entries: [] };

interface FakeOptions {
  /** What the queues do (default: refuse every job, as SQS being down). */
  queue?: 'refuse' | 'accept';
  /** The storage calls, each may throw what an outage throws. */
  head?: (key: string) => Promise<{ size: number } | null>;
  copy?: () => Promise<void>;
  put?: (key: string) => Promise<void>;
}

function fakes(options: FakeOptions = {}) {
  const files = new Map<string, FileRecord>();
  const urls = new Map<string, UrlRecord>();
  const repo = {
    get: async () => ({ ...agent, files: [...files.values()], urls: [...urls.values()] }),
    getAgent: async () => agent,
    addFiles: async (_u: string, _a: string, list: readonly FileRecord[]) => (list.forEach((f) => files.set(f._id, { ...f })), true),
    addUrls: async (_u: string, _a: string, list: readonly UrlRecord[]) => (list.forEach((u) => urls.set(u._id, { ...u })), true),
    getFile: async (_u: string, _a: string, id: string) => (files.has(id) ? { ...files.get(id)! } : null),
    getUrl: async (_u: string, _a: string, id: string) => (urls.has(id) ? { ...urls.get(id)! } : null),
    setFileStatus: async (_u: string, _a: string, id: string, from: string, change: FileStatusChange) => {
      const f = files.get(id);
      if (!f || f.status !== from) return null;
      Object.assign(f, change);
      if (!change.error) delete f.error;
      return { ...f };
    },
    restartUrl: async (_u: string, _a: string, id: string, restart: { link: string; at: string; generation: string; from?: string }) => {
      const u = urls.get(id);
      if (!u || (restart.from && u.status !== restart.from)) return null;
      Object.assign(u, { link: restart.link, lastUpdateAt: restart.at, generation: restart.generation, status: 'pending' });
      delete u.error;
      return { ...u };
    },
    failUrl: async (_u: string, _a: string, id: string, generation: string | undefined, error: string) => {
      const u = urls.get(id)!;
      if (u.status === 'pending' && u.generation === generation) Object.assign(u, { status: 'failed', error });
    },
  } as unknown as AgentRepository;
  const stored: string[] = [];
  const deleted: string[] = [];
  const queued: { files: unknown[]; urls: unknown[] } = { files: [], urls: [] };
  const service = createAgentService({
    agents: repo,
    secrets: { seal: async (v) => `sealed:${v}`, open: async (v) => v.slice(7) },
    chunks: { deleteSource: async () => undefined, deleteAgent: async () => undefined },
    objects: {
      uploadRequest: async () => ({ url: 'http://s3/bucket', fields: {}, expiresAt: '' }),
      put: async (key) => {
        await options.put?.(key);
        stored.push(key);
      },
      copy: async () => options.copy?.(),
      head: async (key) => (options.head ? options.head(key) : null),
      delete: async (key) => void deleted.push(key),
      downloadRequest: async () => ({ url: '', headers: {}, expiresAt: '' }),
    },
    jobs: {
      ingestFiles: async (jobs) => {
        if (options.queue !== 'accept') throw new Error('SQS is down');
        queued.files.push(...jobs);
      },
      scrapeUrls: async (jobs) => {
        if (options.queue !== 'accept') throw new Error('SQS is down');
        queued.urls.push(...jobs);
      },
    },
  });
  return { service, files, urls, stored, deleted, queued };
}

const s3Down = () => new TransientError({ provider: 's3', code: 'unavailable', status: 503, retryAfterSeconds: 2 });
const refused = () => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
const upload = { name: 'a.txt', mimeType: 'text/plain', bytes: new Uint8Array([1]), truncated: false };

describe('agents service when the queue refuses a job', () => {
  it('marks new URLs failed with a reason and fails the request', async () => {
    const { service, urls } = fakes();

    await expect(service.addUrls('u1', agentId, ['https://a.example.com/'])).rejects.toThrow('SQS is down');

    expect([...urls.values()].map((u) => [u.status, u.error])).toEqual([['failed', knowledgeMessages.notStarted]]);
  });

  it('marks uploaded files failed with a reason and fails the request', async () => {
    const { service, files, stored } = fakes();

    await expect(service.uploadDirect('u1', agentId, [upload])).rejects.toThrow('SQS is down');

    expect(stored).toHaveLength(1);
    expect([...files.values()].map((f) => [f.status, f.error])).toEqual([['failed', knowledgeMessages.notStarted]]);
  });
});

describe('agents service when storage is down (issue 34)', () => {
  it.each([
    ['HEAD answers 503', { head: async () => Promise.reject(s3Down()) }],
    ['HEAD cannot connect', { head: async () => Promise.reject(refused()) }],
    ['the copy answers 503', { head: async () => ({ size: 1 }), copy: async () => Promise.reject(s3Down()) }],
  ] as const)('a confirm whose %s answers 503 with the message, writes nothing, and can be repeated', async (_case, storage) => {
    let down = true;
    const { service, files, queued } = fakes({
      queue: 'accept',
      head: () => (down ? storage.head() : Promise.resolve({ size: 1 })),
      copy: () => (down && 'copy' in storage ? storage.copy() : Promise.resolve()),
    });
    const [ticket] = await service.requestUploads('u1', agentId, { files: [{ name: 'a.txt', size: 1, type: 'text/plain' }] });
    const fileId = ticket!.file._id;

    const refusedConfirm = service.completeUpload('u1', agentId, fileId);
    await expect(refusedConfirm).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(refusedConfirm).rejects.toMatchObject({ status: 503, message: agentMessages.storageUnavailable });
    expect(files.get(fileId)).toMatchObject({ status: 'uploading' });
    expect(queued.files).toEqual([]);

    down = false;
    const confirmed = await service.completeUpload('u1', agentId, fileId);
    expect(confirmed).toMatchObject({ _id: fileId, status: 'pending' });
    expect(await service.completeUpload('u1', agentId, fileId)).toMatchObject({ _id: fileId, status: 'pending' });
    expect(files.size).toBe(1);
    expect(queued.files).toEqual([{ userId: 'u1', agentId, fileId, generation: files.get(fileId)!.generation }]);
  });

  it('a confirm that fails for another reason is not a 503 (a bug stays a bug)', async () => {
    const { service } = fakes({ head: async () => Promise.reject(new Error('S3 answered 403')) });
    const [ticket] = await service.requestUploads('u1', agentId, { files: [{ name: 'a.txt', size: 1, type: 'text/plain' }] });

    await expect(service.completeUpload('u1', agentId, ticket!.file._id)).rejects.not.toBeInstanceOf(ServiceUnavailableError);
  });

  it('a direct upload during an outage answers 503, keeps no file and removes the objects it did store', async () => {
    const { service, files, stored, deleted } = fakes({ queue: 'accept', put: async (key) => (key.includes('b.txt') ? Promise.reject(s3Down()) : undefined) });

    await expect(service.uploadDirect('u1', agentId, [upload, { ...upload, name: 'b.txt' }])).rejects.toMatchObject({ status: 503, retryAfterSeconds: 2 });

    expect(files.size).toBe(0);
    expect(deleted).toEqual(stored);
    expect(stored).toHaveLength(1);
  });
});

describe('reprocessing (issue 34)', () => {
  it('puts a failed file back to pending in a new round and queues its job; anything else is a 409', async () => {
    const { service, files, queued } = fakes({ queue: 'accept' });
    const [file] = await service.uploadDirect('u1', agentId, [upload]);
    const first = files.get(file!._id)!.generation;
    expect(first).toBeDefined();

    await expect(service.reprocessFile('u1', agentId, file!._id)).rejects.toMatchObject({ status: 409, message: agentMessages.fileNotFailed });

    Object.assign(files.get(file!._id)!, { status: 'failed', error: knowledgeMessages.storageUnavailable });
    const again = await service.reprocessFile('u1', agentId, file!._id);
    expect(again).toMatchObject({ _id: file!._id, status: 'pending' });
    expect(again.error).toBeUndefined();
    const second = files.get(file!._id)!.generation;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(queued.files.at(-1)).toEqual({ userId: 'u1', agentId, fileId: file!._id, generation: second });
    await expect(service.reprocessFile('u1', agentId, file!._id)).rejects.toMatchObject({ status: 409 });
  });

  it('refreshes a failed URL from its own link in a new round; a pending or completed one is a 409', async () => {
    const { service, urls, queued } = fakes({ queue: 'accept' });
    const [url] = await service.addUrls('u1', agentId, ['https://a.example.com/']);

    await expect(service.reprocessUrl('u1', agentId, url!._id)).rejects.toMatchObject({ status: 409, message: agentMessages.urlNotFailed });
    Object.assign(urls.get(url!._id)!, { status: 'completed' });
    await expect(service.reprocessUrl('u1', agentId, url!._id)).rejects.toMatchObject({ status: 409 });

    Object.assign(urls.get(url!._id)!, { status: 'failed', error: knowledgeMessages.storageUnavailable });
    expect(await service.reprocessUrl('u1', agentId, url!._id)).toMatchObject({ _id: url!._id, link: 'https://a.example.com/', status: 'pending' });
    const generation = urls.get(url!._id)!.generation;
    expect(queued.urls.at(-1)).toEqual({ userId: 'u1', agentId, urlId: url!._id, refresh: true, generation });
  });

  it('404 for a file or URL that is not there', async () => {
    const { service } = fakes({ queue: 'accept' });
    await expect(service.reprocessFile('u1', agentId, newId())).rejects.toMatchObject({ status: 404, message: agentMessages.fileNotFound });
    await expect(service.reprocessUrl('u1', agentId, newId())).rejects.toMatchObject({ status: 404, message: agentMessages.urlNotFound });
  });
});
