/**
 * Agent documents through the local gateway, DynamoDB Local, s3rver and the local SQS:
 * presigned browser uploads (ticket → form POST to S3 under its policy → complete), the spec's
 * multipart upload, SPEC §5 refusals, content sniffing, download links, deletes (item, object,
 * chunks) and ownership.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Agent, AgentFile, FileUploadTicket } from '../../src/contract/agents.js';
import type { FileDownload } from '../../src/domain/agents/view.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, tableName } from '../support/api.js';
import {
  agentItems,
  agentsUser,
  call,
  chunkKeys,
  createAgent,
  eventually,
  objectBytes,
  objectExists,
  postToTicket,
  seedChunks,
  sentNaming,
  uploadDirect,
  uploadMultipart,
  type AgentsUser,
} from '../support/agents-api.js';

const MB = 1024 * 1024;
let owner: AgentsUser;
let stranger: AgentsUser;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([agentsUser(), agentsUser()]);
});

const fileItem = async (userId: string, agentId: string, fileId: string) => getItem(`USER#${userId}`, `AGENT#${agentId}#FILE#${fileId}`);

describe('presigned uploads (browser → S3)', () => {
  it('asks for a ticket, POSTs the form to S3, completes: copied out of staging, pending, queued, ingested, downloadable', async () => {
    const agent = await createAgent(owner);
    const text = 'Opening hours: Monday to Friday, 9 to 17.\n';

    const tickets = await call<FileUploadTicket[]>(owner, 'POST', `/api/agents/${agent._id}/files/uploads`, {
      files: [{ name: 'Horario de atención.txt', size: Buffer.byteLength(text), type: 'text/plain' }],
    });

    expect(tickets.status).toBe(201);
    const ticket = tickets.body.data![0]!;
    expect(ticket.file).toMatchObject({ originalName: 'Horario de atención.txt', mimeType: 'text/plain', size: Buffer.byteLength(text), status: 'uploading' });
    expect(ticket.file.id).toBe(ticket.file._id);
    const stored = await fileItem(owner.userId, agent._id, ticket.file._id);
    const key = `agents/${owner.userId}/${agent._id}/${ticket.file._id}/Horario_de_atencion.txt`;
    expect(stored).toMatchObject({ status: 'uploading', s3Key: key, gsi1pk: `USER#${owner.userId}#FILE#${ticket.file._id}` });
    // The form goes to the staging prefix (expires after a day unless confirmed), with a fixed type and a 1..50 MB range.
    expect(ticket.fields).toMatchObject({ key: `incoming/${key}`, 'Content-Type': 'text/plain' });
    const policy = JSON.parse(Buffer.from(ticket.fields.Policy!, 'base64').toString('utf8')) as { conditions: unknown[] };
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 50 * MB]);
    expect(Date.parse(ticket.expiresAt)).toBeGreaterThan(Date.now());
    // An unconfirmed upload expires (table TTL) a day later.
    expect(Number(stored!.expiresAt) * 1000).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);

    // The browser's form POST from the app origin is allowed by the bucket's CORS.
    const post = await postToTicket(ticket, text, { origin: inject('apiUrl') });
    expect(post.status).toBe(204);
    expect(post.headers.get('access-control-allow-origin')).toBe(inject('apiUrl'));
    expect(await objectExists(`incoming/${key}`)).toBe(true);

    const done = await call<AgentFile>(owner, 'POST', `/api/agents/${agent._id}/files/${ticket.file._id}/complete`);

    expect(done.status).toBe(200);
    expect(done.body.message).toBe('1 file uploaded successfully');
    expect(done.body.data).toMatchObject({ _id: ticket.file._id, status: 'pending', size: Buffer.byteLength(text) });
    expect((await objectBytes(key))?.toString('utf8')).toBe(text);
    expect(await objectExists(`incoming/${key}`)).toBe(false);
    expect((await fileItem(owner.userId, agent._id, ticket.file._id))?.expiresAt).toBeUndefined();
    expect(await sentNaming('file-ingest', ticket.file._id)).toBeGreaterThan(0);
    const listed = await call<AgentFile[]>(owner, 'GET', `/api/agents/${agent._id}/files`);
    expect(listed.body.data!.map((f) => f._id)).toEqual([ticket.file._id]);
    expect((await call<Agent>(owner, 'GET', `/api/agents/${agent._id}`)).body.data!.files.map((f) => f._id)).toEqual([ticket.file._id]);

    // The file-ingest worker takes it from there: the status moves on from pending.
    const processed = await eventually(async () => {
      const file = (await call<AgentFile[]>(owner, 'GET', `/api/agents/${agent._id}/files`)).body.data![0];
      return file && file.status !== 'pending' ? file : null;
    }, 20_000);
    expect(processed).toMatchObject({ status: 'completed', chunkCount: 1 });

    // A repeated complete is harmless.
    const again = await call<AgentFile>(owner, 'POST', `/api/agents/${agent._id}/files/${ticket.file._id}/complete`);
    expect(again.status).toBe(200);

    // GET /api/files/{id}: a short-lived attachment link.
    const link = await call<FileDownload>(owner, 'GET', `/api/files/${ticket.file._id}`);
    expect(link.status).toBe(200);
    expect(link.body.data).toMatchObject({ originalName: 'Horario de atención.txt', mimeType: 'text/plain', size: Buffer.byteLength(text) });
    const download = await fetch(link.body.data!.url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(text);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Horario de atencion.txt"; filename*=UTF-8''Horario%20de%20atenci%C3%B3n.txt`,
    );
    expect((await call(stranger, 'GET', `/api/files/${ticket.file._id}`)).body).toMatchObject({ success: false, message: 'File not found' });
  });

  it('refuses to complete before the bytes are in S3', async () => {
    const agent = await createAgent(owner);
    const tickets = await call<FileUploadTicket[]>(owner, 'POST', `/api/agents/${agent._id}/files/uploads`, {
      files: [{ name: 'later.pdf', size: 1000, type: 'application/pdf' }],
    });
    const fileId = tickets.body.data![0]!.file._id;

    const res = await call(owner, 'POST', `/api/agents/${agent._id}/files/${fileId}/complete`);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The file has not been uploaded yet');
    expect((await fileItem(owner.userId, agent._id, fileId))?.status).toBe('uploading');
    // Not downloadable while uploading.
    expect((await call(owner, 'GET', `/api/files/${fileId}`)).status).toBe(404);
  });

  it('forgets an upload never confirmed once its item expired', async () => {
    const agent = await createAgent(owner);
    const tickets = await call<FileUploadTicket[]>(owner, 'POST', `/api/agents/${agent._id}/files/uploads`, {
      files: [{ name: 'abandoned.txt', size: 1, type: 'text/plain' }],
    });
    const fileId = tickets.body.data![0]!.file._id;
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${owner.userId}`, sk: `AGENT#${agent._id}#FILE#${fileId}` },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );

    expect((await call<AgentFile[]>(owner, 'GET', `/api/agents/${agent._id}/files`)).body.data).toEqual([]);
    const complete = await call(owner, 'POST', `/api/agents/${agent._id}/files/${fileId}/complete`);
    expect([complete.status, complete.body.message]).toEqual([404, 'File not found']);
  });

  it('storage refuses a form upload over 50 MB (400 EntityTooLarge), whatever size was declared', async () => {
    const agent = await createAgent(owner);
    const tickets = await call<FileUploadTicket[]>(owner, 'POST', `/api/agents/${agent._id}/files/uploads`, {
      files: [{ name: 'liar.txt', size: 10, type: 'text/plain' }],
    });
    const ticket = tickets.body.data![0]!;

    const post = await postToTicket(ticket, new Uint8Array(50 * MB + 1), { origin: inject('apiUrl') });

    expect(post.status).toBe(400);
    expect(await post.text()).toContain('<Code>EntityTooLarge</Code>');
    // The browser can read the refusal (CORS on errors, as S3 does).
    expect(post.headers.get('access-control-allow-origin')).toBe(inject('apiUrl'));
    expect(await objectExists(String(ticket.fields.key))).toBe(false);
    const complete = await call(owner, 'POST', `/api/agents/${agent._id}/files/${ticket.file._id}/complete`);
    expect([complete.status, complete.body.message]).toEqual([400, 'The file has not been uploaded yet']);
  });

  it('storage takes exactly 50 MB, and refuses an empty file', async () => {
    const agent = await createAgent(owner);
    const tickets = await call<FileUploadTicket[]>(owner, 'POST', `/api/agents/${agent._id}/files/uploads`, {
      files: [
        { name: 'limit.txt', size: 50 * MB, type: 'text/plain' },
        { name: 'empty.txt', size: 0, type: 'text/plain' },
      ],
    });
    const [limit, empty] = tickets.body.data!;

    const full = await postToTicket(limit!, new Uint8Array(50 * MB).fill(0x61));
    const none = await postToTicket(empty!, new Uint8Array(0));

    expect(full.status).toBe(204);
    expect(none.status).toBe(400);
    expect(await none.text()).toContain('<Code>EntityTooSmall</Code>');
  });

  it('storage refuses a form whose key, Content-Type or signature was changed (403, as S3)', async () => {
    const agent = await createAgent(owner);
    const tickets = await call<FileUploadTicket[]>(owner, 'POST', `/api/agents/${agent._id}/files/uploads`, {
      files: [{ name: 'notes.txt', size: 5, type: 'text/plain' }],
    });
    const ticket = tickets.body.data![0]!;
    const otherKey = `agents/${stranger.userId}/x/y/notes.txt`;

    const moved = await postToTicket({ ...ticket, fields: { ...ticket.fields, key: otherKey } }, 'hello');
    const retyped = await postToTicket({ ...ticket, fields: { ...ticket.fields, 'Content-Type': 'application/x-msdownload' } }, 'hello');
    const forged = await postToTicket({ ...ticket, fields: { ...ticket.fields, 'X-Amz-Signature': '0'.repeat(64) } }, 'hello');

    expect([moved.status, retyped.status, forged.status]).toEqual([403, 403, 403]);
    expect(await moved.text()).toContain('Invalid according to Policy: Policy Condition failed');
    expect(await forged.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    expect(await objectExists(otherKey)).toBe(false);
    expect(await objectExists(String(ticket.fields.key))).toBe(false);
  });

  it('refuses to complete when the stored object is not the declared size, and removes both', async () => {
    const agent = await createAgent(owner);
    const tickets = await call<FileUploadTicket[]>(owner, 'POST', `/api/agents/${agent._id}/files/uploads`, {
      files: [{ name: 'short.txt', size: 10, type: 'text/plain' }],
    });
    const ticket = tickets.body.data![0]!;
    expect((await postToTicket(ticket, 'twelve bytes')).status).toBe(204);

    const res = await call(owner, 'POST', `/api/agents/${agent._id}/files/${ticket.file._id}/complete`);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The uploaded file does not have the size declared for it. Upload it again.');
    expect(await fileItem(owner.userId, agent._id, ticket.file._id)).toBeUndefined();
    expect(await objectExists(String(ticket.fields.key))).toBe(false);
    expect(await sentNaming('file-ingest', ticket.file._id)).toBe(0);
  });

  it('a program renamed .pdf uploads, then ingestion refuses it: failed, with the reason', async () => {
    const agent = await createAgent(owner);
    // A Windows program: DOS header whose e_lfanew points at "PE\0\0".
    const exe = new Uint8Array(1024);
    exe.set([0x4d, 0x5a, 0x90, 0x00, 0x03]);
    new DataView(exe.buffer).setUint32(0x3c, 0x80, true);
    exe.set([0x50, 0x45, 0x00, 0x00], 0x80);

    const { ticket, done } = await uploadDirect(owner, agent._id, { name: 'invoice.pdf', type: 'application/pdf', bytes: exe });

    expect(done.status).toBe(200);
    const processed = await eventually(async () => {
      const file = (await call<AgentFile[]>(owner, 'GET', `/api/agents/${agent._id}/files`)).body.data!.find((f) => f._id === ticket.file._id);
      return file && file.status !== 'pending' ? file : null;
    }, 20_000);
    expect(processed).toMatchObject({
      status: 'failed',
      error: 'This file is a program, not a document. Only PDF, TXT, DOC and DOCX documents are accepted.',
    });
    expect(await chunkKeys(owner.userId, agent._id)).toEqual([]);
  });

  it.each([
    [[{ name: 'photo.png', size: 100, type: 'image/png' }], 'Invalid files: photo.png (unsupported type)'],
    [[{ name: 'huge.pdf', size: 50 * MB + 1, type: 'application/pdf' }], 'Invalid files: huge.pdf (too large, max 50MB)'],
    [
      [
        { name: 'ok.docx', size: 100, type: '' },
        { name: 'photo.png', size: 100, type: 'image/png' },
        { name: 'huge.doc', size: 60 * MB, type: 'application/msword' },
      ],
      'Invalid files: photo.png (unsupported type), huge.doc (too large, max 50MB)',
    ],
    [[], 'Choose at least one file'],
    [Array.from({ length: 21 }, (_, i) => ({ name: `${i}.txt`, size: 1, type: 'text/plain' })), 'Upload at most 20 files at a time'],
  ])('refuses %j with "%s" and writes nothing', async (files, message) => {
    const agent = await createAgent(owner);

    const res = await call(owner, 'POST', `/api/agents/${agent._id}/files/uploads`, { files });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect((await agentItems(owner.userId, agent._id)).filter((i) => i.entity === 'agentFile')).toEqual([]);
  });

  it('accepts exactly 50 MB and a .doc sent as octet-stream (stored as application/msword)', async () => {
    const agent = await createAgent(owner);

    const res = await call<FileUploadTicket[]>(owner, 'POST', `/api/agents/${agent._id}/files/uploads`, {
      files: [
        { name: 'limit.pdf', size: 50 * MB, type: 'application/pdf' },
        { name: 'legacy.doc', size: 10, type: 'application/octet-stream' },
      ],
    });

    expect(res.status).toBe(201);
    expect(res.body.data!.map((t) => [t.file.originalName, t.file.mimeType])).toEqual([
      ['limit.pdf', 'application/pdf'],
      ['legacy.doc', 'application/msword'],
    ]);
  });
});

describe('multipart upload (POST /api/agents/{id}/files, field files)', () => {
  it('stores every file, marks them pending and queues them', async () => {
    const agent = await createAgent(owner);

    const res = await uploadMultipart(owner, agent._id, [
      { name: 'faq.txt', type: 'text/plain', bytes: 'Q: Do you deliver? A: Yes.' },
      { name: 'prices.txt', type: 'text/plain', bytes: 'Coffee 2 EUR' },
    ]);

    expect(res.status).toBe(201);
    expect(res.body.message).toBe('2 files uploaded successfully');
    expect(res.body.data!.map((f) => [f.originalName, f.status, f.size])).toEqual([
      ['faq.txt', 'pending', 26],
      ['prices.txt', 'pending', 12],
    ]);
    for (const file of res.body.data!) {
      const item = await fileItem(owner.userId, agent._id, file._id);
      expect(item?.status === 'pending' || item?.status === 'completed' || item?.status === 'failed').toBe(true);
      expect(await objectExists(String(item?.s3Key))).toBe(true);
    }
    expect((await objectBytes(String((await fileItem(owner.userId, agent._id, res.body.data![1]!._id))?.s3Key)))?.toString()).toBe('Coffee 2 EUR');
    for (const file of res.body.data!) expect(await sentNaming('file-ingest', file._id), file.originalName).toBeGreaterThan(0);
  });

  it('answers the single-file message', async () => {
    const agent = await createAgent(owner);

    const res = await uploadMultipart(owner, agent._id, [{ name: 'one.txt', type: 'text/plain', bytes: 'one' }]);

    expect([res.status, res.body.message]).toEqual([201, '1 file uploaded successfully']);
  });

  it.each([
    [[{ name: 'logo.png', type: 'image/png', bytes: 'png' }], 'Invalid files: logo.png (unsupported type)'],
    [
      [
        { name: 'ok.txt', type: 'text/plain', bytes: 'fine' },
        { name: 'run.exe', type: 'application/octet-stream', bytes: 'MZ' },
      ],
      'Invalid files: run.exe (unsupported type)',
    ],
    [[{ name: 'big.txt', type: 'text/plain', bytes: new Uint8Array(4 * MB + 1) }], 'Files over 4 MB must be uploaded with the upload link (POST /api/agents/{id}/files/uploads)'],
    [[], 'Choose at least one file'],
  ])('refuses %# with its message and stores nothing', async (files, message) => {
    const agent = await createAgent(owner);

    const res = await uploadMultipart(owner, agent._id, files);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect((await agentItems(owner.userId, agent._id)).filter((i) => i.entity === 'agentFile')).toEqual([]);
  });

  it('refuses another user\'s agent', async () => {
    const agent = await createAgent(owner);

    const res = await uploadMultipart(stranger, agent._id, [{ name: 'x.txt', type: 'text/plain', bytes: 'x' }]);

    expect([res.status, res.body.message]).toEqual([404, 'Agent not found']);
  });
});

describe('deleting documents', () => {
  it('removes the item, the object and the chunks, and bumps the knowledge version', async () => {
    const agent = await createAgent(owner);
    const [keep, gone] = (await uploadMultipart(owner, agent._id, [
      { name: 'keep.txt', type: 'text/plain', bytes: 'keep' },
      { name: 'gone.txt', type: 'text/plain', bytes: 'gone' },
    ])).body.data!;
    const goneKey = String((await fileItem(owner.userId, agent._id, gone!._id))?.s3Key);
    // Another source's chunks under an id no worker processes, so only the delete can touch them.
    const otherSource = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    await seedChunks(owner.userId, agent._id, 'file', otherSource);
    await seedChunks(owner.userId, agent._id, 'file', gone!._id, 3);
    const versionBefore = Number((await getItem(`USER#${owner.userId}`, `AGENT#${agent._id}`))?.knowledgeVersion);

    const res = await call(owner, 'DELETE', `/api/agents/${agent._id}/files/${gone!._id}`);

    expect([res.status, res.body.message]).toEqual([200, 'File deleted successfully']);
    expect(await fileItem(owner.userId, agent._id, gone!._id)).toBeUndefined();
    expect(await objectExists(goneKey)).toBe(false);
    const chunks = await chunkKeys(owner.userId, agent._id);
    expect(chunks.some((sk) => sk.startsWith(`file#${gone!._id}#`))).toBe(false);
    expect(chunks.filter((sk) => sk.startsWith(`file#${otherSource}#`))).toHaveLength(2);
    expect(Number((await getItem(`USER#${owner.userId}`, `AGENT#${agent._id}`))?.knowledgeVersion)).toBeGreaterThan(versionBefore);
    expect((await call<AgentFile[]>(owner, 'GET', `/api/agents/${agent._id}/files`)).body.data!.map((f) => f._id)).toEqual([keep!._id]);
    expect((await call(owner, 'GET', `/api/files/${gone!._id}`)).status).toBe(404);
  });

  it('answers 404 for a missing file, and for another user\'s file without touching it', async () => {
    const agent = await createAgent(owner);
    const [file] = (await uploadMultipart(owner, agent._id, [{ name: 'mine.txt', type: 'text/plain', bytes: 'mine' }])).body.data!;

    const missing = await call(owner, 'DELETE', `/api/agents/${agent._id}/files/01ARZ3NDEKTSV4RRFFQ69G5FAV`);
    const theirs = await call(stranger, 'DELETE', `/api/agents/${agent._id}/files/${file!._id}`);
    const complete = await call(stranger, 'POST', `/api/agents/${agent._id}/files/${file!._id}/complete`);

    expect([missing.status, missing.body.message]).toEqual([404, 'File not found']);
    expect([theirs.status, theirs.body.message]).toEqual([404, 'Agent not found']);
    expect([complete.status, complete.body.message]).toEqual([404, 'Agent not found']);
    expect(await fileItem(owner.userId, agent._id, file!._id)).toBeDefined();
  });
});

