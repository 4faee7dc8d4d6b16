/**
 * Issue 28: documents built to exhaust the ingest worker. A zip-bomb DOCX uploaded and confirmed
 * through the normal flow ends `failed` with the reason, while the API keeps answering.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentFile } from '../../src/contract/agents.js';
import type { User } from '../../src/contract/auth.js';
import { knowledgeMessages } from '../../src/contract/server-texts.js';
import { agentsUser, call, chunkKeys, createAgent, eventually, uploadDirect, type AgentsUser } from '../support/agents-api.js';
import { docxZipBomb } from '../support/zip.js';

let owner: AgentsUser;

beforeAll(async () => {
  owner = await agentsUser();
});

/** GET /api/me, timed: the API must answer promptly while the worker has the bomb. */
async function timedMe(): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  const res = await call<User>(owner, 'GET', '/api/me');
  return { status: res.status, ms: Date.now() - started };
}

describe('zip-bomb documents', () => {
  it('a DOCX that inflates to ~150 MB of paragraphs uploads and confirms, then ends failed with the reason; the API keeps answering', { timeout: 120_000 }, async () => {
    const agent = await createAgent(owner);
    const bomb = docxZipBomb(150);
    // A few hundred KB on the wire (the was 436 KB for 3.4 million paragraphs).
    expect(bomb.length).toBeLessThan(1024 * 1024);

    const { ticket, done } = await uploadDirect(owner, agent._id, {
      name: 'Manual.docx',
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: bomb,
    });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'pending' });

    const answers: { status: number; ms: number }[] = [];
    const processed = await eventually(async () => {
      answers.push(await timedMe());
      const file = (await call<AgentFile[]>(owner, 'GET', `/api/agents/${agent._id}/files`)).body.data?.find((f) => f._id === ticket.file._id);
      return file && file.status !== 'pending' ? file : null;
    }, 60_000);

    expect(processed).toMatchObject({ status: 'failed', error: knowledgeMessages.zipBomb });
    expect(await chunkKeys(owner.userId, agent._id)).toEqual([]);
    // Every poll was answered, none stalled behind the worker.
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(5_000);
    // And the service still answers afterwards: the user, and the agent's file list.
    expect((await timedMe()).status).toBe(200);
    const files = await call<AgentFile[]>(owner, 'GET', `/api/agents/${agent._id}/files`);
    expect(files.status).toBe(200);
    expect(files.body.data!.map((f) => [f._id, f.status])).toEqual([[ticket.file._id, 'failed']]);
  });
});
