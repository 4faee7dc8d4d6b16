/**
 * Documents that recover (issue 34 item 5), through the real API, the local queue (retry schedule
 * scaled by RETRY_TIME_SCALE 0.001: 45.5 min ≈ 2.7 s) and the real workers, with the stack's S3
 * fault proxy and the fake OpenAI's failure switches:
 *
 * - S3 failing for the documents' reads for less than the schedule: every document completes, none
 *   fails, and one completed before (with a late duplicate of its job during the outage) stays so;
 * - S3 failing for longer: the document fails with the storage reason, is reprocessed once S3 is
 *   back and completes; a completed one never flips to failed;
 * - a confirm while S3 is unreachable: 503 with the message, nothing half-written, and the same
 *   confirm afterwards gives the one file;
 * - embeddings 429 once: retried, completed; 401: failed at once with the key reason (one request
 *   at the fake: no retries);
 * - reprocess of a URL, and the route's rules (only failed: 409; another user's: 404); a page
 *   that answered 503 twice is retried and completes.
 *
 * The stack is shared with the other files: every fault is scoped to this file's own users (their
 * id is in every object key), and a whole-service 'refuse' is left to the fault matrix, which runs
 * on a stack of its own; a scoped 'drop' (the connection reset) is what the app sees of it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, inject, it } from 'vitest';
import { agentMessages, type AgentFile, type AgentUrl, type FileUploadTicket } from '../../src/contract/agents.js';
import { knowledgeMessages } from '../../src/contract/server-texts.js';
import { newId } from '../../src/lib/ids.js';
import { getItem } from '../support/api.js';
import { addUrls, agentsUser, call, chunkKeys, connectChatGpt, createAgent, eventually, postToTicket, uploadDirect, type AgentsUser } from '../support/agents-api.js';
import { armFault, clearFault, clearProxy, faultState, proxyStatus, switchProxy } from '../support/faults.js';
import { testSqsClient } from '../support/stack-clients.js';
import { webFixtures } from '../support/web-fixtures.js';

const text = (tag: string) =>
  `Document ${tag}. Our shop opens from nine to five on weekdays. Deliveries take three days. Returns are accepted within thirty days with the receipt.`;

async function files(user: AgentsUser, agentId: string): Promise<AgentFile[]> {
  return (await call<AgentFile[]>(user, 'GET', `/api/agents/${agentId}/files`)).body.data ?? [];
}

/** The file once it is no longer pending (completed or failed). */
async function settled(user: AgentsUser, agentId: string, fileId: string, timeoutMs = 20_000): Promise<AgentFile> {
  return eventually(async () => {
    const file = (await files(user, agentId)).find((f) => f.id === fileId);
    return file && file.status !== 'pending' && file.status !== 'uploading' ? file : null;
  }, timeoutMs);
}

/** A user with a subscription, ChatGPT connected (a key of its own at the fake) and an agent. */
async function owner(): Promise<{ user: AgentsUser; agentId: string; key: string }> {
  const user = await agentsUser();
  const key = await connectChatGpt(user, `sk-test-recovery-${randomBytes(6).toString('hex')}`);
  return { user, agentId: (await createAgent(user))._id, key };
}

/** A document uploaded as the browser does (ticket, POST to S3, confirm), completed. */
async function completedDocument(user: AgentsUser, agentId: string, name: string): Promise<AgentFile> {
  const { ticket, done } = await uploadDirect(user, agentId, { name, type: 'text/plain', bytes: text(name) });
  expect(done.status).toBe(200);
  const file = await settled(user, agentId, ticket.file._id);
  expect(file).toMatchObject({ status: 'completed' });
  return file;
}

/** The file-ingest job of a file again, as a late or repeated SQS delivery would bring it. */
async function sendIngestJobAgain(user: AgentsUser, agentId: string, fileId: string): Promise<void> {
  const item = await getItem(`USER#${user.userId}`, `AGENT#${agentId}#FILE#${fileId}`);
  const queueUrl = inject('queueUrls')['file-ingest'] as string;
  const body = JSON.stringify({ userId: user.userId, agentId, fileId, generation: item?.generation });
  await testSqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
}

/** The app's reads of this user's objects (the workers' presigned GETs) fail as `fault` says, for `forMs` or for the next `times` reads. */
async function s3ReadsFail(user: AgentsUser, fault: { state: 'drop' | 'error'; status?: number }, lasting: { forMs: number } | { times: number }): Promise<string> {
  const id = `recovery-s3-${randomUUID()}`;
  await switchProxy('s3', { ...fault, ...lasting, id, match: { method: 'GET', path: `/**${user.userId}**` } });
  return id;
}

const hits = async (id: string) => (await proxyStatus('s3')).faults.find((f) => f.id === id)?.hits ?? 0;

describe('documents that recover (issue 34)', () => {
  it('S3 failing for less than the retry schedule: all five documents complete, none fails, and a completed one stays completed', async () => {
    const { user, agentId } = await owner();
    const early = await completedDocument(user, agentId, 'before.txt');

    // Five documents in storage, to be confirmed (and so ingested) during the outage.
    const bodies = Array.from({ length: 5 }, (_, i) => new TextEncoder().encode(text(`during-${i}`)));
    const tickets = await call<FileUploadTicket[]>(user, 'POST', `/api/agents/${agentId}/files/uploads`, {
      files: bodies.map((b, i) => ({ name: `during-${i}.txt`, size: b.length, type: 'text/plain' })),
    });
    const docs = tickets.body.data!.map((t) => t.file._id);
    await Promise.all(tickets.body.data!.map(async (t, i) => expect((await postToTicket(t, bodies[i]!)).ok).toBe(true)));

    // This user's next five reads break (one per document on average; even if one document took
    // all five, that is fewer than its eight tries): an outage shorter than the schedule however
    // slowly a loaded machine runs the jobs, where a time window could close before any read. The
    // index snapshot writes of the agent are refused meanwhile (a cache: it never fails a document).
    const reads = await s3ReadsFail(user, { state: 'drop' }, { times: 5 });
    const snapshots = `recovery-snap-${randomUUID()}`;
    await switchProxy('s3', { state: 'error', status: 503, id: snapshots, forMs: 1_200, match: { method: 'PUT', path: `/**knowledge-index/${user.userId}/**` } });
    try {
      await sendIngestJobAgain(user, agentId, early.id);
      const confirmed = await Promise.all(docs.map((id) => call(user, 'POST', `/api/agents/${agentId}/files/${id}/complete`)));
      expect(confirmed.map((r) => r.status)).toEqual(docs.map(() => 200));

      const outcomes = await Promise.all(docs.map((id) => settled(user, agentId, id)));
      expect(outcomes.map((f) => [f.status, f.error])).toEqual(docs.map(() => ['completed', undefined]));
      expect(await hits(reads)).toBeGreaterThanOrEqual(5);
    } finally {
      await clearProxy('s3', reads);
      await clearProxy('s3', snapshots);
    }
    expect((await files(user, agentId)).find((f) => f.id === early.id)).toMatchObject({ status: 'completed', chunkCount: early.chunkCount });
  }, 60_000);

  it('S3 failing for longer than the schedule: failed with the storage reason (a completed document untouched), then reprocessed once S3 is back: completed', async () => {
    const { user, agentId } = await owner();
    const early = await completedDocument(user, agentId, 'before.txt');

    const reads = await s3ReadsFail(user, { state: 'error', status: 503 }, { forMs: 60_000 });
    let fileId: string;
    try {
      // A late duplicate of the completed document's job meets the outage too: it must change nothing.
      await sendIngestJobAgain(user, agentId, early.id);
      const { ticket, done } = await uploadDirect(user, agentId, { name: 'during.txt', type: 'text/plain', bytes: text('during') });
      expect(done.status).toBe(200);
      fileId = ticket.file._id;

      const failed = await settled(user, agentId, fileId, 30_000);
      expect(failed).toMatchObject({ status: 'failed', error: knowledgeMessages.storageUnavailable });
      // Every try of the schedule read it, then it was given up.
      expect(await hits(reads)).toBeGreaterThanOrEqual(8);
    } finally {
      await clearProxy('s3', reads);
    }
    expect((await files(user, agentId)).find((f) => f.id === early.id)).toMatchObject({ status: 'completed', chunkCount: early.chunkCount });

    // Once S3 is back, Reprocess reads it.
    const again = await call<AgentFile>(user, 'POST', `/api/agents/${agentId}/files/${fileId}/reprocess`);
    expect([again.status, again.body.message]).toEqual([200, agentMessages.reprocessing]);
    expect(again.body.data).toMatchObject({ id: fileId, status: 'pending' });
    expect(again.body.data?.error).toBeUndefined();
    const done = await settled(user, agentId, fileId);
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.error).toBeUndefined();
    expect((await chunkKeys(user.userId, agentId)).filter((k) => k.includes(fileId)).length).toBe(done.chunkCount);
    expect((await files(user, agentId)).filter((f) => f.id === fileId)).toHaveLength(1);
  }, 90_000);

  it('a confirm while S3 is unreachable answers 503 with the message and writes nothing; the same confirm afterwards gives one file', async () => {
    const { user, agentId } = await owner();
    const bytes = new TextEncoder().encode(text('confirm'));
    const tickets = await call<Array<{ url: string; fields: Record<string, string>; file: AgentFile }>>(user, 'POST', `/api/agents/${agentId}/files/uploads`, {
      files: [{ name: 'confirm.txt', size: bytes.length, type: 'text/plain' }],
    });
    const ticket = tickets.body.data![0]!;
    expect((await postToTicket(ticket, bytes)).ok).toBe(true);
    const fileId = ticket.file._id;
    const confirm = () => call<AgentFile>(user, 'POST', `/api/agents/${agentId}/files/${fileId}/complete`);

    // The HEAD of the staged object cannot connect, then the copy answers 503.
    for (const fault of [
      { state: 'drop' as const, match: { method: 'HEAD', path: `/**${user.userId}**` } },
      { state: 'error' as const, status: 503, match: { method: 'PUT', path: `/**${user.userId}**` } },
    ]) {
      const id = `recovery-confirm-${randomUUID()}`;
      await switchProxy('s3', { ...fault, id });
      try {
        const res = await confirm();
        expect([res.status, res.body.message]).toEqual([503, agentMessages.storageUnavailable]);
        expect(await hits(id)).toBeGreaterThanOrEqual(1);
      } finally {
        await clearProxy('s3', id);
      }
      expect((await files(user, agentId)).filter((f) => f.id === fileId)).toEqual([expect.objectContaining({ status: 'uploading' })]);
    }

    const res = await confirm();
    expect([res.status, res.body.message]).toEqual([200, agentMessages.filesUploaded(1)]);
    expect(res.body.data).toMatchObject({ id: fileId, status: 'pending' });
    expect((await confirm()).status).toBe(200);
    expect(await settled(user, agentId, fileId)).toMatchObject({ status: 'completed' });
    expect((await files(user, agentId)).map((f) => f.id)).toEqual([fileId]);
  }, 60_000);

  it('embeddings answering 429 once: retried on the schedule, completed with vectors', async () => {
    const { user, agentId, key } = await owner();
    const fault = await armFault('openai', { kind: 'status', status: 429, retryAfter: 1, times: 1, match: { path: '/v1/embeddings', key } });
    try {
      const { ticket } = await uploadDirect(user, agentId, { name: 'limited.txt', type: 'text/plain', bytes: text('limited') });
      expect(await settled(user, agentId, ticket.file._id)).toMatchObject({ status: 'completed' });
      expect((await faultState('openai', fault.id))?.hits).toBe(1);
      const chunk = await getItem(`USER#${user.userId}#KB#${agentId}`, (await chunkKeys(user.userId, agentId))[0]!);
      expect(chunk?.vector).toBeDefined();
    } finally {
      await clearFault('openai', fault.id);
    }
  }, 30_000);

  it('embeddings answering 401: failed at once with the key reason, one request at the fake (no retries), and reprocessed once the key works', async () => {
    const { user, agentId, key } = await owner();
    const fault = await armFault('openai', { kind: 'status', status: 401, match: { path: '/v1/embeddings', key } });
    let fileId: string;
    try {
      const { ticket } = await uploadDirect(user, agentId, { name: 'refused.txt', type: 'text/plain', bytes: text('refused') });
      fileId = ticket.file._id;
      expect(await settled(user, agentId, fileId)).toMatchObject({ status: 'failed', error: knowledgeMessages.aiKeyRefused });
      // Longer than the whole retry schedule: still the one request.
      await new Promise((r) => setTimeout(r, 3_500));
      expect((await faultState('openai', fault.id))?.hits).toBe(1);
      expect(await chunkKeys(user.userId, agentId)).toEqual([]);
    } finally {
      await clearFault('openai', fault.id);
    }
    expect((await call(user, 'POST', `/api/agents/${agentId}/files/${fileId}/reprocess`)).status).toBe(200);
    expect(await settled(user, agentId, fileId)).toMatchObject({ status: 'completed' });
  }, 30_000);

  it('reprocess of a URL that failed: read again from its link; a URL or file that did not fail is a 409, another user\'s a 404', async () => {
    const { user, agentId } = await owner();
    const site = webFixtures();
    const link = await site.route({
      path: '/hours',
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>Hours</title></head><body><h1>Opening hours</h1><p>We open from nine to five on weekdays and from ten to two on Saturdays.</p></body></html>',
      sequence: [{ status: 404 }],
    });
    const [url] = await addUrls(user, agentId, [link]);
    const urlState = async () => (await call<AgentUrl[]>(user, 'GET', `/api/agents/${agentId}/urls`)).body.data?.find((u) => u._id === url!._id);
    const failed = await eventually(async () => ((await urlState())?.status === 'failed' ? urlState() : null), 20_000);
    expect(failed).toMatchObject({ status: 'failed', error: knowledgeMessages.httpStatus(404) });

    const stranger = await agentsUser();
    const theirs = await call(stranger, 'POST', `/api/agents/${agentId}/urls/${url!._id}/reprocess`);
    expect([theirs.status, theirs.body.message]).toEqual([404, agentMessages.notFound]);
    const unknown = await call(user, 'POST', `/api/agents/${agentId}/urls/${newId()}/reprocess`);
    expect(unknown.status).toBe(404);

    const res = await call<AgentUrl>(user, 'POST', `/api/agents/${agentId}/urls/${url!._id}/reprocess`);
    expect([res.status, res.body.message]).toEqual([200, agentMessages.reprocessing]);
    expect(res.body.data).toMatchObject({ _id: url!._id, link, status: 'pending' });
    const done = await eventually(async () => ((await urlState())?.status === 'completed' ? urlState() : null), 20_000);
    expect(done).toMatchObject({ title: 'Hours' });
    expect(done.error).toBeUndefined();

    // A page that answers 503 twice is retried on the schedule: completed, never failed.
    const busy = await site.route({ path: '/busy', headers: { 'content-type': 'text/plain' }, body: 'We deliver within three days.', sequence: [{ status: 503 }, { status: 503 }] });
    const [busyUrl] = await addUrls(user, agentId, [busy]);
    const busyState = async () => (await call<AgentUrl[]>(user, 'GET', `/api/agents/${agentId}/urls`)).body.data?.find((u) => u._id === busyUrl!._id);
    expect(await eventually(async () => ((await busyState())?.status !== 'pending' ? busyState() : null), 20_000)).toMatchObject({ status: 'completed' });
    expect((await site.requests('/busy')).length).toBe(3);

    const again = await call(user, 'POST', `/api/agents/${agentId}/urls/${url!._id}/reprocess`);
    expect([again.status, again.body.message]).toEqual([409, agentMessages.urlNotFailed]);
    const file = await completedDocument(user, agentId, 'fine.txt');
    const fine = await call(user, 'POST', `/api/agents/${agentId}/files/${file.id}/reprocess`);
    expect([fine.status, fine.body.message]).toEqual([409, agentMessages.fileNotFailed]);
    const theirFile = await call(stranger, 'POST', `/api/agents/${agentId}/files/${file.id}/reprocess`);
    expect([theirFile.status, theirFile.body.message]).toEqual([404, agentMessages.notFound]);
  }, 60_000);
});
