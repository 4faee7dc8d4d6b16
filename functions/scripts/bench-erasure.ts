/**
 * A person's erasure (issue 33, part of `npm run bench`), on the local stack (a throw-away data dir):
 * one patient with 10,000 WhatsApp messages over 10 conversations, 500 media objects in the uploads
 * bucket (s3rver), their wamid items, 100 calls from their number (transcripts; no recordings: the
 * bench account has no Twilio integration) and an escalation notification, seeded with BatchWrite —
 * beside another patient of the same account who must stay whole. The registered parts
 * (composition/privacy-parts.ts: calls, conversations, bookings, notifications, contact, as the
 * privacy-jobs worker runs them, on the stack's environment) run in PRIVACY_STEPS order on one
 * job's context.
 *
 * Targets (exit 1 on a miss):
 * - the erasure within 60 s;
 * - DynamoDB requests proportional to the items erased (≤ 0.12 a item: BatchWrites of 25, Query
 *   pages of 500), and not one Scan (counted by command on the parts' document client);
 * - memory bounded: the peak resident set grows by ≤ 200 MB while it runs (pages, not the person's
 *   whole history, are held);
 * - nothing of theirs left (their partitions, pointer, objects), the other patient untouched.
 *
 *   --messages=N   messages of the patient (default 10,000)
 *   --media=N      media objects (default 500)
 *   --calls=N      calls (default 100)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startLocalStack } from '../local/stack.js';
import { createDocumentClient, BatchWriteCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '../src/adapters/aws/dynamo-document.js';
import { S3MediaObjects } from '../src/adapters/s3-media.js';
import { S3Presigner } from '../src/adapters/s3-presigner.js';
import { idTimePrefix } from '../src/adapters/dynamo/messages.js';
import { documentClient } from '../src/adapters/aws/dynamo.js';
import { DynamoCallRepository } from '../src/adapters/dynamo/voice-calls.js';
import { personDataParts } from '../src/composition/privacy-parts.js';
import { emptyPersonDataCounts, type PersonDataCounts } from '../src/contract/privacy.js';
import { VOICE_DEFAULTS, type CallTurn } from '../src/contract/voice.js';
import type { StoredCall } from '../src/domain/voice/ports.js';
import type { PersonKey } from '../src/domain/privacy/ports.js';
import { newId } from '../src/lib/ids.js';
import { memoryStepContext } from '../test/support/privacy.js';
import { mapLimit } from '../src/lib/map-limit.js';
import { arg, dynamoRequestCounter, table } from './bench-common.js';

const MESSAGES = arg('messages', 10_000);
const MEDIA = Math.min(arg('media', 500), MESSAGES);
const CALLS = arg('calls', 100);
const CONVERSATIONS = 10;
const TARGET_SECONDS = 60;
const REQUESTS_PER_ITEM = 0.12;
const RSS_GROWTH_MB = 200;
const MB = 1024 * 1024;
const S3RVER = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bench-erasure-'));
const stack = await startLocalStack({ dataDir, quiet: true });
const failures: string[] = [];
try {
  const db = createDocumentClient({
    endpoint: stack.endpoints.dynamodb,
    region: 'us-east-1',
    credentials: async () => ({ accessKeyId: 'local', secretAccessKey: 'local' }),
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  const table_ = stack.tableName;
  const s3 = new S3Client({ endpoint: stack.endpoints.s3, region: 'us-east-1', credentials: S3RVER, forcePathStyle: true });
  const presigner = new S3Presigner({ bucket: stack.uploadsBucket, region: 'us-east-1', endpoint: stack.endpoints.s3, expiresInSeconds: 900, credentials: async () => S3RVER });
  const objects = new S3MediaObjects(presigner);

  const accountId = crypto.randomUUID();
  const patient: PersonKey = { accountId, contactId: null, e164: '+34612345678', waId: '34612345678' };
  const other: PersonKey = { accountId, contactId: null, e164: '+34699887766', waId: '34699887766' };

  // ---- seed: conversations, messages (every 20th wamid kept: Meta's ids live 30 days), media, bell
  const seedStarted = performance.now();
  const seeded = await seedPerson(db, table_, s3, stack.uploadsBucket, patient, MESSAGES, MEDIA);
  const kept = await seedPerson(db, table_, s3, stack.uploadsBucket, other, 200, 10);
  const calls = new DynamoCallRepository(db, table_);
  await mapLimit(Array.from({ length: CALLS }, (_, i) => i), 8, (i) => calls.create(benchCall(accountId, patient.e164!, i)));
  await calls.create(benchCall(accountId, other.e164!, 0));
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  // ---- the parts as composition/privacy-parts.ts registers them, their client counted
  const counter = dynamoRequestCounter(documentClient() as unknown as { send: (command: never) => Promise<unknown> });
  const parts = personDataParts();
  const callsPart = parts.some((p) => p.step === 'calls');
  void objects;

  const ctx = memoryStepContext();


  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
  counter.reset();
  const started = performance.now();
  const counts: PersonDataCounts = emptyPersonDataCounts();
  // As the job runner does (domain/privacy/jobs.ts): every part's count first (the report's floor), then the steps.
  for (const part of parts) await part.count(patient);
  for (const part of parts) {
    const outcome = await part.erase(patient, ctx);
    if (!outcome.done) failures.push(`the ${part.step} step stopped without a yield asked`);
    for (const [k, v] of Object.entries(outcome.counts)) counts[k as keyof PersonDataCounts] += v ?? 0;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  const requests = counter.count;
  const kinds = counter.kinds;

  // Each call is its item, its CallSid guard and its by-number key.
  const items = counts.messages + counts.conversations + counts.notifications + seeded.wamids + 1 + 3 * counts.calls;
  const perItem = requests / items;
  const growthMb = (rssPeak - rssBefore) / MB;

  // ---- checks: nothing left of theirs, the other patient whole
  const leftMessages = await countPartitions(db, table_, seeded.conversationIds.map((c) => `USER#${accountId}#CONV#${c}`));
  const leftObjects = await countObjects(s3, stack.uploadsBucket, `whatsapp-media/${accountId}/`);
  const keptMessages = await countPartitions(db, table_, kept.conversationIds.map((c) => `USER#${accountId}#CONV#${c}`));
  if (counts.messages !== MESSAGES) failures.push(`erased ${counts.messages} messages of ${MESSAGES}`);
  if (counts.media !== MEDIA) failures.push(`erased ${counts.media} media of ${MEDIA}`);
  if (counts.notifications !== 1) failures.push(`erased ${counts.notifications} notifications of 1`);
  if (callsPart && counts.calls !== CALLS) failures.push(`erased ${counts.calls} calls of ${CALLS}`);
  if (leftMessages !== 0) failures.push(`${leftMessages} of their messages left`);
  if (leftObjects !== 10) failures.push(`${leftObjects - 10} of their media objects left (or the other patient's gone)`);
  if (keptMessages !== 200) failures.push(`the other patient has ${keptMessages} messages of 200`);
  if (seconds > TARGET_SECONDS) failures.push(`erasure took ${seconds.toFixed(1)} s > ${TARGET_SECONDS} s`);
  if (perItem > REQUESTS_PER_ITEM) failures.push(`${perItem.toFixed(3)} DynamoDB requests per item > ${REQUESTS_PER_ITEM}`);
  if (/\bScan\b/.test(kinds)) failures.push(`a Scan was made (${kinds})`);
  if (growthMb > RSS_GROWTH_MB) failures.push(`resident set grew by ${growthMb.toFixed(0)} MB > ${RSS_GROWTH_MB} MB`);

  console.log(
    `\nErasure of one person (issue 33): ${MESSAGES} messages in ${CONVERSATIONS} conversations, ${MEDIA} media objects, ${callsPart ? `${CALLS} calls` : 'no calls (the calls part is not registered)'}, 1 notification (seeded in ${seedSeconds.toFixed(0)} s)\n`,
  );
  console.log(
    table(
      ['measure', 'value', 'target'],
      [
        ['erasure time', `${seconds.toFixed(1)} s`, `≤ ${TARGET_SECONDS} s`],
        ['items erased (messages, wamids, conversations, pointer, calls, notifications)', String(items), ''],
        ['calls erased', String(counts.calls), callsPart ? String(CALLS) : 'no calls part'],
        ['media objects deleted', String(counts.media), String(MEDIA)],
        ['DynamoDB requests', String(requests), ''],
        ['DynamoDB requests per item', perItem.toFixed(3), `≤ ${REQUESTS_PER_ITEM}`],
        ['requests by kind', kinds, 'no Scan'],
        ['peak resident set', `${(rssPeak / MB).toFixed(0)} MB (+${growthMb.toFixed(0)} MB)`, `+≤ ${RSS_GROWTH_MB} MB`],
      ],
    ),
  );
} catch (error) {
  failures.push(`the bench failed: ${(error as Error).stack ?? String(error)}`);
} finally {
  if (failures.length) {
    console.log(`\nTargets missed:\n${failures.map((f) => `- ${f}`).join('\n')}`);
    process.exitCode = 1;
  }
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

async function batchPut(db: DynamoDBDocumentClient, tableName: string, items: Record<string, unknown>[]): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  await mapLimit(chunks, 8, async (chunk) => {
    let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (out.UnprocessedItems?.[tableName] ?? []) as typeof pending;
    }
  });
}

/** A customer's conversations, messages, wamids, media objects and one unread escalation, as the repositories write them. */
async function seedPerson(db: DynamoDBDocumentClient, tableName: string, s3: S3Client, bucket: string, person: PersonKey, messages: number, media: number) {
  const pk = `USER#${person.accountId}`;
  const start = Date.now() - 30 * 24 * 3600_000;
  const conversationIds = Array.from({ length: CONVERSATIONS }, (_, i) => `${idTimePrefix(start + i * 24 * 3600_000)}${newId().slice(10)}`);
  const items: Record<string, unknown>[] = [];
  const mediaKeys: string[] = [];
  let wamids = 0;
  const mediaEvery = Math.max(1, Math.floor(messages / Math.max(1, media)));
  for (let i = 0; i < messages; i++) {
    const c = i % CONVERSATIONS;
    const conv = conversationIds[c]!;
    const at = start + c * 24 * 3600_000 + i * 1000;
    const mid = `${idTimePrefix(at)}${newId().slice(10)}`;
    const id = `${conv}-${mid}`;
    const image = i % mediaEvery === 0 && mediaKeys.length < media;
    const key = `whatsapp-media/${person.accountId}/${conv}/${id}`;
    const wamid = `wamid.bench${newId()}`;
    items.push({
      pk: `${pk}#CONV#${conv}`,
      sk: `MSG#${mid}`,
      gsi1pk: `${pk}#MSGS`,
      gsi1sk: mid,
      entity: 'message',
      id,
      conversationId: conv,
      waMessageId: wamid,
      contactId: '',
      type: image ? 'image' : 'chat',
      hasMedia: image,
      ...(image ? { media: { mimeType: 'image/jpeg', state: 'stored', size: 4, storedKey: key } } : {}),
      fromMe: i % 2 === 1,
      from: person.e164,
      to: '+34910000000',
      phoneNumberId: { id: '1', name: '+34910000000' },
      status: 'delivered',
      timestamp: new Date(at).toISOString(),
      body: `Hola, quería cambiar mi cita del jueves por la tarde, muchas gracias (${i})`,
      createdAt: new Date(at).toISOString(),
    });
    if (i % 20 === 0) {
      items.push({ pk, sk: `WAMID#${wamid}`, entity: 'wamid', dir: 'in', messageId: id, state: 'handled', expiresAt: Math.floor(Date.now() / 1000) + 86400 });
      wamids++;
    }
    if (image) mediaKeys.push(key);
  }
  for (const [c, conv] of conversationIds.entries()) {
    const at = new Date(start + c * 24 * 3600_000).toISOString();
    const status = c === CONVERSATIONS - 1 ? 'active' : 'closed';
    items.push({ pk, sk: `CONV#${conv}`, gsi1pk: `${pk}#CONVS#${status}`, gsi1sk: `${at}#${conv}`, entity: 'conversation', id: conv, status, customerWaId: person.waId, customerPhone: person.e164, customerName: 'Lucía Pérez', createdAt: at, lastMessageAt: at });
  }
  items.push({ pk, sk: `WACUST#${person.waId}`, entity: 'waCustomer', waId: person.waId, phone: person.e164, name: 'Lucía Pérez', conversationId: conversationIds.at(-1), conversationIds: new Set(conversationIds) });
  await batchPut(db, tableName, items);
  await mapLimit(mediaKeys, 8, (Key) => s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: Buffer.from('jpeg'), ContentType: 'image/jpeg' })));
  const notification = newId();
  const escalatedAt = new Date().toISOString();
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName, Item: { pk, sk: `NOTIFKEY#conversation_escalated#${conversationIds.at(-1)}#${escalatedAt}`, entity: 'notificationKey', notificationId: notification } } },
        { Put: { TableName: tableName, Item: { pk, sk: `NOTIF#${notification}`, entity: 'notification', id: notification, userId: person.accountId, kind: 'conversation_escalated', subjectId: conversationIds.at(-1), contactName: 'Lucía Pérez', reason: 'Dolor', createdAt: escalatedAt } } },
        { Update: { TableName: tableName, Key: { pk, sk: 'NOTIFCOUNT' }, UpdateExpression: 'ADD unread :one', ExpressionAttributeValues: { ':one': 1 } } },
      ],
    }),
  );
  return { conversationIds, wamids };
}

/** A finished call from `e164` with a short transcript, as the call loop stores it. */
function benchCall(accountId: string, e164: string, i: number): StoredCall {
  const createdAt = new Date(Date.now() - (i + 1) * 3600_000).toISOString();
  const turn = (role: 'user' | 'agent', content: string): CallTurn => ({ role, content, at: createdAt, confidence: role === 'user' ? 0.9 : null });
  return {
    id: newId(),
    userId: accountId,
    callSid: `CA${newId().toLowerCase()}${i}`,
    status: 'completed',
    phoneNumber: e164,
    internalNumber: '+34910000000',
    contact: null,
    duration: 83_000,
    createdAt,
    endedAt: createdAt,
    voiceSettings: { name: 'Recepción', description: 'Spanish', language: 'es-ES' },
    messages: [turn('agent', 'Hola, clínica dental, ¿en qué puedo ayudarle?'), turn('user', 'Quería cambiar mi cita del jueves, me duele la muela')],
    summary: null,
    summaryStatus: 'pending',
    deliveries: [],
    agent: { _id: newId(), name: 'Recepción' },
    escalated: false,
    settings: { ...VOICE_DEFAULTS },
    silences: 0,
    endedByUs: true,
    recording: null,
    billedMinutes: 2,
    conversationMode: 'gather',
    latency: null,
    endReason: 'goodbye',
  };
}

async function countPartitions(db: DynamoDBDocumentClient, tableName: string, pks: string[]): Promise<number> {
  let n = 0;
  for (const pk of pks) {
    const out = await db.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Select: 'COUNT', ConsistentRead: true }));
    n += out.Count ?? 0;
  }
  return n;
}

async function countObjects(s3: S3Client, bucket: string, prefix: string): Promise<number> {
  const out = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return out.KeyCount ?? 0;
}
