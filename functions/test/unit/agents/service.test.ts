/**
 * The agents service's paths the local stack cannot provoke: a queue that refuses the job leaves
 * no source pending forever, and the request still fails (5xx) so the user sees it.
 */
import { describe, expect, it } from 'vitest';
import { newAgentRecord, type AgentWithChildren, type FileRecord, type UrlRecord } from '../../../src/domain/agents/ports.js';
import type { AgentRepository, FileStatusChange } from '../../../src/domain/agents/repository.js';
import { createAgentService } from '../../../src/domain/agents/service.js';
import { newId } from '../../../src/lib/ids.js';

const agentId = newId();
const agent: AgentWithChildren = { ...newAgentRecord(agentId, 'A', '2026-01-01T00:00:00.000Z'), files: [], urls: [], tools: [], entries: [] };

function fakes() {
  const files = new Map<string, FileRecord>();
  const urls = new Map<string, UrlRecord>();
  const repo = {
    get: async () => ({ ...agent, files: [...files.values()], urls: [...urls.values()] }),
    getAgent: async () => agent,
    addFiles: async (_u: string, _a: string, list: readonly FileRecord[]) => (list.forEach((f) => files.set(f._id, { ...f })), true),
    addUrls: async (_u: string, _a: string, list: readonly UrlRecord[]) => (list.forEach((u) => urls.set(u._id, { ...u })), true),
    setFileStatus: async (_u: string, _a: string, id: string, from: string, change: FileStatusChange) => {
      const f = files.get(id);
      if (!f || f.status !== from) return null;
      Object.assign(f, change);
      return f;
    },
    failUrl: async (_u: string, _a: string, id: string, error: string) => {
      Object.assign(urls.get(id)!, { status: 'failed', error });
    },
  } as unknown as AgentRepository;
  const stored: string[] = [];
  const service = createAgentService({
    agents: repo,
    secrets: { seal: async (v) => `sealed:${v}`, open: async (v) => v.slice(7) },
    chunks: { deleteSource: async () => undefined, deleteAgent: async () => undefined },
    objects: {
      uploadRequest: async () => ({ url: 'http://s3/bucket', fields: {}, expiresAt: '' }),
      put: async (key) => void stored.push(key),
      copy: async () => undefined,
      head: async () => null,
      delete: async () => undefined,
      downloadRequest: async () => ({ url: '', headers: {}, expiresAt: '' }),
    },
    jobs: {
      ingestFiles: async () => {
        throw new Error('SQS is down');
      },
      scrapeUrls: async () => {
        throw new Error('SQS is down');
      },
    },
  });
  return { service, files, urls, stored };
}

describe('agents service when the queue refuses a job', () => {
  it('marks new URLs failed with a reason and fails the request', async () => {
    const { service, urls } = fakes();

    await expect(service.addUrls('u1', agentId, ['https://a.example.com/'])).rejects.toThrow('SQS is down');

    expect([...urls.values()].map((u) => [u.status, u.error])).toEqual([['failed', 'Processing could not start. Delete it and add it again.']]);
  });

  it('marks uploaded files failed with a reason and fails the request', async () => {
    const { service, files, stored } = fakes();

    await expect(
      service.uploadDirect('u1', agentId, [{ name: 'a.txt', mimeType: 'text/plain', bytes: new Uint8Array([1]), truncated: false }]),
    ).rejects.toThrow('SQS is down');

    expect(stored).toHaveLength(1);
    expect([...files.values()].map((f) => [f.status, f.error])).toEqual([['failed', 'Processing could not start. Delete it and add it again.']]);
  });
});
