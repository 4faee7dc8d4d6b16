/**
 * Issue 33, a person's WhatsApp data erased (adapters/dynamo/privacy/conversations.ts and
 * notifications.ts) on the local stack: 2,000 messages over two conversations, media objects in
 * s3rver, an escalation notification, a waiting entry and an unanswered question, seeded with
 * BatchWrite; a second person of the same account must stay untouched.
 *
 * - After the erasure (POST /api/privacy/erasures, the privacy-jobs worker) no API returns anything about them (board, list, detail, Message Hub search,
 *   the contact's timeline, notifications), their S3 objects are gone, the conversation list's
 *   counter (CONVS#STATS) moved like a delete (the list's total = what it lists) while the
 *   dashboard's message figures are unchanged; the export before it holds every message, a readable
 *   Spanish transcript and the files.
 * - A message from them during the erasure (a signed Meta delivery through the webhook): before the
 *   detach it lands in a remembered conversation (erased), after it a new conversation (kept).
 * - Stopped half-way (shouldYield) or crashed half-way (S3 failing), then run again: everything
 *   gone, the counts add up, and the conversation counter moved exactly once per conversation.
 */
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchWriteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { S3MediaObjects } from '../../src/adapters/s3-media.js';
import { S3Presigner } from '../../src/adapters/s3-presigner.js';
import { DynamoConversationsPart } from '../../src/adapters/dynamo/privacy/conversations.js';
import { DynamoNotificationsPart } from '../../src/adapters/dynamo/privacy/notifications.js';
import { DynamoNotificationRepository } from '../../src/adapters/dynamo/notifications.js';
import { DynamoWhatsAppCustomers } from '../../src/adapters/dynamo/whatsapp-customers.js';
import { idTimePrefix } from '../../src/adapters/dynamo/messages.js';
import type { StoredConversation, StoredMessage } from '../../src/domain/conversations/ports.js';
import type { PersonDataInventory, PrivacyJobView } from '../../src/contract/privacy.js';
import type { ExportWriter, PersonKey } from '../../src/domain/privacy/ports.js';
import type { MediaObjects } from '../../src/domain/whatsapp/media/ports.js';
import { newId } from '../../src/lib/ids.js';
import { memoryStepContext } from '../support/privacy.js';
import { mapLimit } from '../../src/lib/map-limit.js';
import { api, db, getItem, provided, tableName, until } from '../support/api.js';
import { addContact, activeUser } from '../support/contacts.js';
import { openConversation, repos } from '../support/conversations.js';
import { seedCall } from '../support/seed-calls.js';
import { drainQueues, localCredentials, testS3Client } from '../support/stack-clients.js';
import { connectWhatsApp, metaDelivery, newWamid, postWebhook, signMetaBody, textMessage, waCustomer, type ConnectedWhatsApp } from '../support/whatsapp.js';

const bucket = () => provided('uploadsBucket');
const media = (): MediaObjects =>
  new S3MediaObjects(new S3Presigner({ bucket: bucket(), region: 'us-east-1', endpoint: provided('s3Endpoint'), expiresInSeconds: 900, credentials: async () => localCredentials }));
const conversationsPart = (objects: Pick<MediaObjects, 'delete'> = media()) => new DynamoConversationsPart(db(), tableName(), objects);
const notificationsPart = () => new DynamoNotificationsPart(db(), tableName());

const stepContext = memoryStepContext;

/** The export's files, in memory. */
function memoryExport(): ExportWriter & { files: Map<string, unknown> } {
  const files = new Map<string, unknown>();
  return {
    files,
    json: async (path, value) => void files.set(path, JSON.parse(JSON.stringify(value))),
    text: async (path, text) => void files.set(path, text),
    csv: async (path, rows) => void files.set(path, rows),
    object: async (path, key) => void files.set(path, { key }),
    stream: async (path) => void files.set(path, 'stream'),
  };
}

interface Seeded {
  conversations: StoredConversation[];
  messages: number;
  mediaKeys: string[];
}

/** BatchWriteItem, 25 items a request, 8 requests at a time. */
async function batchPut(items: Record<string, unknown>[]): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  await mapLimit(chunks, 8, async (chunk) => {
    let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    }
  });
}

/**
 * `perConversation` messages in each of two conversations of the customer (the first closed, the
 * second open), every 10th an image with its object in S3, their wamid items; written with
 * BatchWrite as the repositories write them. `marker` is in every text.
 */
async function seedPerson(userId: string, wa: ConnectedWhatsApp, customer: { waId: string; name: string; phone: string }, marker: string, perConversation: number): Promise<Seeded> {
  const business = { phoneId: wa.phoneId, phoneNumber: wa.phoneNumber };
  const start = Date.now() - 3 * 24 * 3600_000;
  const first = await openConversation(userId, business, customer, new Date(start));
  await repos().conversations.update(userId, first.id, { status: 'closed' }, new Date(start + 3600_000).toISOString());
  const second = await openConversation(userId, business, customer, new Date(start + 24 * 3600_000));
  const mediaKeys: string[] = [];
  const s3 = testS3Client();
  for (const [c, conv] of [first, second].entries()) {
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < perConversation; i++) {
      const at = new Date(start + c * 24 * 3600_000 + i * 1000);
      const mid = `${idTimePrefix(at.getTime())}${newId().slice(10)}`;
      const id = `${conv.id}-${mid}`;
      const fromMe = i % 2 === 1;
      const image = i % 10 === 0;
      const key = `whatsapp-media/${userId}/${conv.id}/${id}`;
      const wamid = newWamid();
      const message: StoredMessage = {
        id,
        conversationId: conv.id,
        waMessageId: wamid,
        contactId: '',
        type: image ? 'image' : 'chat',
        hasMedia: image,
        ...(image ? { media: { mimeType: 'image/jpeg', state: 'stored', size: 4, storedKey: key, caption: `foto ${marker}` } } : {}),
        fromMe,
        from: fromMe ? wa.phoneNumber : customer.phone,
        to: fromMe ? customer.phone : wa.phoneNumber,
        phoneNumberId: { id: wa.phoneId, name: wa.phoneNumber },
        status: fromMe ? 'read' : 'delivered',
        timestamp: at.toISOString(),
        body: fromMe ? `Claro, ${customer.name}, le esperamos ${marker}` : `Hola, soy ${customer.name}, me duele la muela ${marker} nº${i}`,
        createdAt: at.toISOString(),
        ...(fromMe && i % 4 === 1 ? { sender: { kind: 'member', id: userId, name: 'Dra. Núñez' } } : {}),
      } as StoredMessage;
      items.push({ pk: `USER#${userId}#CONV#${conv.id}`, sk: `MSG#${mid}`, gsi1pk: `USER#${userId}#MSGS`, gsi1sk: mid, entity: 'message', ...message });
      // Meta's ids are kept 30 days (TTL): the older messages' are gone, as here all but every 4th.
      if (i % 4 === 0) items.push({ pk: `USER#${userId}`, sk: `WAMID#${wamid}`, entity: 'wamid', dir: fromMe ? 'out' : 'in', messageId: id, state: 'handled', expiresAt: Math.floor(Date.now() / 1000) + 86400 });
      if (image) mediaKeys.push(key);
    }
    await batchPut(items);
    // The counters as the repositories keep them (so the dashboard has figures to keep).
    await repos().messages.count(userId, new Date(start + c * 24 * 3600_000).toISOString(), { total: perConversation, in: perConversation / 2, out: perConversation / 2 });
  }
  await Promise.all(mediaKeys.map((Key) => s3.send(new PutObjectCommand({ Bucket: bucket(), Key, Body: Buffer.from('jpeg'), ContentType: 'image/jpeg' }))));
  // The board's last message and count (the conversation items as touched).
  for (const conv of [first, second]) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${userId}`, sk: `CONV#${conv.id}` },
        UpdateExpression: 'SET lastMessage = :lm, messageCount = :n',
        ExpressionAttributeValues: { ':lm': { type: 'text', fromMe: false, content: `muela ${marker}`, body: `muela ${marker}`, timestamp: conv.createdAt, createdAt: conv.createdAt }, ':n': perConversation },
      }),
    );
  }
  return { conversations: [first, (await repos().conversations.get(userId, second.id))!], messages: 2 * perConversation, mediaKeys };
}

/** An escalation notification about the conversation for the account's owner (unread), as raise.ts writes it. */
async function seedNotification(userId: string, conv: StoredConversation, contactName: string): Promise<void> {
  const escalatedAt = new Date().toISOString();
  await new DynamoNotificationRepository(db(), tableName()).create(
    { id: newId(), userId, kind: 'conversation_escalated', subjectId: conv.id, contactName, reason: 'Quiere hablar con la doctora', createdAt: escalatedAt, readAt: null },
    `conversation_escalated#${conv.id}#${escalatedAt}`,
  );
}

/** The account's waiting list naming these conversations, and an unanswered question asked in each. */
async function seedWaitingAndUnanswered(userId: string, agentId: string, convs: StoredConversation[], marker: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `USER#${userId}`, sk: 'WAITING#CONVS' },
      UpdateExpression: 'SET entity = :e ADD conversationIds :ids',
      ExpressionAttributeValues: { ':e': 'waitingConversations', ':ids': new Set(convs.map((c) => c.id)) },
    }),
  );
  // Each with a message waiting (the board drops an entry whose conversation has none).
  for (const conv of convs) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${userId}`, sk: `CONV#${conv.id}` },
        UpdateExpression: 'SET noAnswerReason = :r, noAnswerAt = :at ADD noAnswerIds :ids',
        ExpressionAttributeValues: { ':r': 'unavailable', ':at': conv.createdAt, ':ids': new Set([`${conv.id}-${newId()}`]) },
      }),
    );
  }
  await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `USER#${userId}`, sk: `AGENT#${agentId}`, entity: 'agent', agentId, name: 'Sonia' } }));
  for (const conv of convs) {
    const id = newId();
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk: `USER#${userId}#UNANSWERED#${agentId}`, sk: `Q#${id}`, entity: 'unanswered', _id: id, question: `¿Cubre el seguro ${marker}?`, channel: 'whatsapp', askedAt: conv.createdAt, conversationId: conv.id },
      }),
    );
  }
}

async function objectsUnder(prefix: string): Promise<number> {
  const out = await testS3Client().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix }));
  return out.KeyCount ?? 0;
}

async function partitionItems(pk: string): Promise<number> {
  const { Count } = await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Select: 'COUNT', ConsistentRead: true }));
  return Count ?? 0;
}

/** Everything the APIs answer that could name a person, as one string. */
async function whatTheApisSay(token: string, marker: string, ids: { conversations: string[]; contactId: string }): Promise<{ text: string; details: number[] }> {
  const calls = await Promise.all([
    api('GET', '/api/conversations/overview', { token }),
    api('GET', '/api/conversations?limit=100', { token }),
    api('GET', `/api/conversations?search=${encodeURIComponent(marker)}`, { token }),
    api('GET', `/api/messages?search=${encodeURIComponent(marker)}&limit=100`, { token }),
    api('GET', '/api/messages/latest', { token }),
    api('GET', '/api/notifications', { token }),
    api('GET', `/api/contacts/${ids.contactId}/timeline`, { token }),
  ]);
  // The timeline answers 404 once the contact itself is erased (the contact step).
  for (const c of calls.slice(0, 6)) expect(c.status).toBe(200);
  expect([200, 404]).toContain(calls[6]!.status);
  const details = await Promise.all(ids.conversations.map(async (id) => (await api('GET', `/api/conversations/${id}`, { token })).status));
  return { text: JSON.stringify(calls.map((c) => c.body)), details };
}

async function counters(token: string) {
  const [conversations, messages] = await Promise.all([api('GET', '/api/conversations/stats', { token }), api('GET', '/api/messages/stats', { token })]);
  return { conversations: conversations.body, messages: messages.body };
}

/** The conversation list as the board pages it: its total (CONVS#STATS) and the conversations it lists. */
async function conversationList(token: string) {
  const res = await api<{ _id: string }[]>('GET', '/api/conversations?limit=100', { token });
  expect(res.status).toBe(200);
  const body = res.body as unknown as { data: { _id: string }[]; pagination: { totalConversations: number } };
  return { total: body.pagination.totalConversations, ids: body.data.map((c) => c._id) };
}

/** A Spanish clinic: numbers typed without +34, Spanish, Madrid's time. */
async function spanishAccount() {
  const user = await activeUser();
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `USER#${user.userId}`, sk: 'PROFILE' },
      UpdateExpression: 'SET country = :c, #l = :l, #z = :z',
      ExpressionAttributeNames: { '#l': 'language', '#z': 'timeZone' },
      ExpressionAttributeValues: { ':c': 'ES', ':l': 'es', ':z': 'Europe/Madrid' },
    }),
  );
  return user;
}

/** A Spanish patient saved as a contact (a national number), their WhatsApp id as Meta names it. */
async function patient(token: string, userId: string, name: string, national: string) {
  const contact = await addContact(token, { name, phoneNumber: national });
  const e164 = contact.phoneNumber;
  const waId = e164.replace('+', '');
  return { contact, person: { accountId: userId, contactId: contact._id, e164, waId } satisfies PersonKey, customer: { waId, name, phone: e164 } };
}

describe('erasing a person\'s WhatsApp data', () => {
  it('leaves nothing of them in any API, S3 or the bell; the other person and the dashboard\'s message figures stay, the list total follows', async () => {
    const { token, userId } = await spanishAccount();
    const wa = await connectWhatsApp(token);
    const marker = `zx${randomBytes(4).toString('hex')}`;
    const otherMarker = `qy${randomBytes(4).toString('hex')}`;
    const lucia = await patient(token, userId, 'Lucía Pérez Núñez', '612 34 56 78');
    const other = await patient(token, userId, 'Íñigo Martínez', '+34 699 88 77 66');
    const seeded = await seedPerson(userId, wa, lucia.customer, marker, 1000);
    const kept = await seedPerson(userId, wa, other.customer, otherMarker, 20);
    await new DynamoWhatsAppCustomers(db(), tableName()).linkContact(userId, lucia.customer.waId, lucia.contact._id);
    await seedNotification(userId, seeded.conversations[1]!, lucia.customer.name);
    await seedNotification(userId, kept.conversations[1]!, other.customer.name);
    const agentId = newId();
    await seedWaitingAndUnanswered(userId, agentId, [...seeded.conversations, kept.conversations[1]!], marker);
    // A call of theirs (the calls step remembers it) and the question they asked in it.
    const call = await seedCall(userId, { phoneNumber: lucia.person.e164 });
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk: `USER#${userId}#UNANSWERED#${agentId}`, sk: `Q#${newId()}`, entity: 'unanswered', question: `¿Y por teléfono ${marker}?`, channel: 'phone', askedAt: call.createdAt, callId: call.id },
      }),
    );

    const before = await whatTheApisSay(token, marker, { conversations: seeded.conversations.map((c) => c.id), contactId: lucia.contact._id });
    expect(before.text).toContain(marker);
    expect(before.details).toEqual([200, 200]);
    expect(JSON.parse(before.text)[0].data.waitingConversations).toBe(3);
    const countersBefore = await counters(token);

    // What will go, and whether something is live (the second conversation is open).
    expect(await conversationsPart().count(lucia.person)).toEqual({ conversations: 2, messages: 2000, media: 200 });
    expect(await conversationsPart().active(lucia.person)).toEqual({ conversation: true });
    expect(await notificationsPart().count(lucia.person)).toEqual({ notifications: 1 });
    const lookup = await api<PersonDataInventory>('POST', '/api/privacy/people/lookup', { token, body: { contactId: lucia.contact._id } });
    expect(lookup.status).toBe(200);
    expect(lookup.body.data).toMatchObject({ counts: { conversations: 2, messages: 2000, media: 200, notifications: 1, contacts: 1 }, active: { conversation: true } });

    // The export: every message, a readable transcript in Spanish (the account's language), the files.
    const zip = memoryExport();
    const exported = await conversationsPart().export(lucia.person, zip, stepContext());
    expect(exported).toEqual({ counts: { conversations: 2, messages: 2000, media: 200 }, done: true });
    const folder = `conversations/${seeded.conversations[0]!.createdAt.slice(0, 10)}-${seeded.conversations[0]!.id}`;
    const json = zip.files.get(`${folder}/conversation.json`) as { messages: Array<{ direction: string; sender: string; text: string; media: { file?: string } | null }> };
    expect(json.messages).toHaveLength(1000);
    expect(json.messages[0]).toMatchObject({ direction: 'in', sender: 'customer', media: { kind: 'image', file: expect.stringContaining(`${folder}/media/`) } });
    expect(json.messages[1]).toMatchObject({ direction: 'out', sender: 'Dra. Núñez' });
    const transcript = String(zip.files.get(`${folder}/transcript.txt`)).split('\n');
    expect(transcript[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d Cliente: \\[Imagen\\] Hola, soy Lucía Pérez Núñez, me duele la muela ${marker} nº0$`));
    expect(transcript[1]).toMatch(/ Agente \(Dra\. Núñez\): Claro, Lucía/);
    expect(transcript[3]).toMatch(/ Agente: Claro, Lucía/);
    expect([...zip.files.values()].filter((v) => typeof v === 'object' && v !== null && 'key' in v)).toHaveLength(200);
    const bell = memoryExport();
    await notificationsPart().export(lucia.person, bell, stepContext());
    expect(bell.files.get('notifications.json')).toEqual([expect.objectContaining({ kind: 'conversation_escalated', subjectId: seeded.conversations[1]!.id, contactName: 'Lucía Pérez Núñez', readAt: null })]);

    // The erasure, as the owner asks for it (the number as typed on the phone), run by the privacy-jobs worker.
    const started = await api<PrivacyJobView>('POST', '/api/privacy/erasures', { token, body: { phoneNumber: '612 345 678', confirmation: 'borrar' } });
    expect(started.status).toBeLessThan(300);
    await drainQueues();
    const job = await until(async () => {
      const res = await api<PrivacyJobView>('GET', `/api/privacy/jobs/${started.body.data!._id}`, { token });
      return res.body.data?.status === 'done' || res.body.data?.status === 'failed' ? res.body.data : undefined;
    }, 'the erasure finished', 120_000);
    expect(job).toMatchObject({ status: 'done', person: null, counts: { conversations: 2, messages: 2000, media: 200, notifications: 1, contacts: 1, calls: 1 } });

    const after = await whatTheApisSay(token, marker, { conversations: seeded.conversations.map((c) => c.id), contactId: lucia.contact._id });
    for (const word of [marker, 'Lucía', lucia.customer.waId, ...seeded.conversations.map((c) => c.id)]) expect(after.text).not.toContain(word);
    expect(after.text).toContain(otherMarker);
    expect(after.details).toEqual([404, 404]);
    expect(JSON.parse(after.text)[0].data.waitingConversations).toBe(1);
    expect(JSON.parse(after.text)[5].data.unreadCount).toBe(1);
    // Nothing left in the table: the messages' partitions, the pointer, wamids, waiting entry, questions.
    for (const conv of seeded.conversations) expect(await partitionItems(`USER#${userId}#CONV#${conv.id}`)).toBe(0);
    // Only the other person's question is left.
    const questions = (await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${userId}#UNANSWERED#${agentId}` }, ConsistentRead: true }))).Items ?? [];
    expect(questions.map((q) => q.conversationId)).toEqual([kept.conversations[1]!.id]);
    expect(await getItem(`USER#${userId}`, `WACUST#${lucia.customer.waId}`)).toBeUndefined();
    expect((await api('GET', `/api/contacts/${lucia.contact._id}`, { token })).status).toBe(404);
    expect((await api('GET', `/api/contacts/${other.contact._id}`, { token })).status).toBe(200);
    expect(await getItem(`USER#${userId}`, 'WAITING#CONVS')).toMatchObject({ conversationIds: new Set([kept.conversations[1]!.id]) });
    const accountItems = (await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${userId}` }, ConsistentRead: true }))).Items ?? [];
    expect(accountItems.filter((i) => String(i.sk).startsWith('WAMID#'))).toHaveLength((2 * 20) / 4);
    expect(JSON.stringify(accountItems)).not.toContain(marker);
    for (const conv of seeded.conversations) expect(await objectsUnder(`whatsapp-media/${userId}/${conv.id}/`)).toBe(0);
    // The other person: untouched.
    expect(await conversationsPart().count(other.person)).toEqual({ conversations: 2, messages: 40, media: 4 });
    for (const conv of kept.conversations) expect(await objectsUnder(`whatsapp-media/${userId}/${conv.id}/`)).toBe(2);
    expect(await notificationsPart().count(other.person)).toEqual({ notifications: 1 });
    // The dashboard keeps its anonymous message figures; the conversation counter moved like a
    // delete (Lucía's closed and active conversations), so the list's total is what it lists.
    const countersAfter = await counters(token);
    expect(countersAfter.messages).toEqual(countersBefore.messages);
    const statsBefore = (countersBefore.conversations as { data: Record<string, number> }).data;
    expect((countersAfter.conversations as { data: Record<string, number> }).data).toEqual({
      ...statsBefore,
      total: statsBefore.total! - 2,
      active: statsBefore.active! - 1,
      closed: statsBefore.closed! - 1,
    });
    const listed = await conversationList(token);
    expect(listed.ids.sort()).toEqual(kept.conversations.map((c) => c.id).sort());
    expect(listed.total).toBe(listed.ids.length);
    // Erased again: nothing more to do, nothing counted.
    expect(await conversationsPart().erase(lucia.person, stepContext())).toEqual({ counts: { conversations: 0, messages: 0, media: 0 }, done: true });
    // 2,000 messages seeded and erased: ~10 s on a quiet machine, minutes beside a full suite on 2 cores.
  }, 240_000);

  it('a message from them during the erasure: before the detach it is erased with the rest, after it a new conversation keeps it', async () => {
    const { token, userId } = await spanishAccount();
    const wa = await connectWhatsApp(token);
    const marker = `zx${randomBytes(4).toString('hex')}`;
    const lucia = await patient(token, userId, 'Lucía Pérez Núñez', '612 34 56 78');
    const seeded = await seedPerson(userId, wa, lucia.customer, marker, 150);
    const customer = { ...waCustomer(lucia.customer.name, lucia.customer.waId) };
    const deliver = async (body: string) => {
      const raw = metaDelivery(wa, { messages: [textMessage(customer, body)] });
      const res = await postWebhook(wa.integrationId, raw, signMetaBody(raw, wa.appSecret));
      expect(res.status).toBe(200);
      await drainQueues();
    };
    let remembers = 0;
    let progressed = 0;
    const ctx = stepContext();
    const remember = ctx.remember.bind(ctx);
    ctx.remember = async (kind, ids) => {
      await remember(kind, ids);
      // Between remembering and the detach: into the open (remembered) conversation.
      if (remembers++ === 0) await deliver(`antes ${marker}`);
    };
    ctx.progress = async () => {
      // After the detach, while the messages go: a new conversation.
      if (progressed++ === 0) await deliver('Perdone, ¿sigue en pie mi cita del jueves?');
    };
    const erased = await conversationsPart().erase(lucia.person, ctx);
    expect(erased.done).toBe(true);
    expect(erased.counts).toMatchObject({ conversations: 2, messages: 301 });

    const pointer = await getItem(`USER#${userId}`, `WACUST#${lucia.customer.waId}`);
    expect(pointer).toBeDefined();
    const fresh = String(pointer!.conversationId);
    expect(seeded.conversations.map((c) => c.id)).not.toContain(fresh);
    expect([...(pointer!.conversationIds as Set<string>)]).toEqual([fresh]);
    const detail = await api<{ messages?: Array<{ body: string }> }>('GET', `/api/conversations/${fresh}`, { token });
    expect(detail.status).toBe(200);
    expect(JSON.stringify(detail.body)).toContain('sigue en pie mi cita');
    const hub = await api('GET', `/api/messages?search=${encodeURIComponent(marker)}`, { token });
    expect(JSON.stringify(hub.body)).not.toContain(marker);
    // The job's next steps and a retry: the new conversation (and its notification) are not the erasure's.
    await seedNotification(userId, { ...seeded.conversations[1]!, id: fresh }, lucia.customer.name);
    expect(await notificationsPart().erase(lucia.person, ctx)).toEqual({ counts: { notifications: 0 }, done: true });
    expect(await notificationsPart().count(lucia.person)).toEqual({ notifications: 1 });
    expect(await conversationsPart().erase(lucia.person, ctx)).toEqual({ counts: { conversations: 0, messages: 0, media: 0 }, done: true });
    expect((await api('GET', `/api/conversations/${fresh}`, { token })).status).toBe(200);
    // The list counts what it lists: the new conversation only.
    expect(await conversationList(token)).toEqual({ total: 1, ids: [fresh] });
  }, 120_000);

  it('stopped half-way (shouldYield) or crashed half-way (S3 failing), run again: everything gone, the counts add up', async () => {
    const { token, userId } = await spanishAccount();
    const wa = await connectWhatsApp(token);
    const marker = `zx${randomBytes(4).toString('hex')}`;
    const yielding = await patient(token, userId, 'Lucía Pérez Núñez', '612 34 56 78');
    const crashing = await patient(token, userId, 'José Ángel Ruiz', '655 44 33 22');
    const a = await seedPerson(userId, wa, yielding.customer, marker, 150);
    const b = await seedPerson(userId, wa, crashing.customer, marker, 150);

    // Yield after the first page: the next run goes on from what is left.
    let checks = 0;
    const ctx = stepContext({ shouldYield: () => ++checks > 1 });
    const first = await new DynamoConversationsPart(db(), tableName(), media(), { pageSize: 120 }).erase(yielding.person, ctx);
    expect(first.done).toBe(false);
    expect(first.counts.messages).toBe(120);
    checks = -1e9;
    const second = await conversationsPart().erase(yielding.person, ctx);
    expect(second.done).toBe(true);
    expect((first.counts.messages ?? 0) + (second.counts.messages ?? 0)).toBe(a.messages);
    expect((first.counts.media ?? 0) + (second.counts.media ?? 0)).toBe(a.mediaKeys.length);
    expect((first.counts.conversations ?? 0) + (second.counts.conversations ?? 0)).toBe(2);

    // S3 fails after 25 deletes: the run throws (a worker crash); the retry finishes.
    const real = media();
    let deletes = 0;
    const failing = { delete: (key: string) => (deletes++ >= 25 ? Promise.reject(new Error('S3 unavailable')) : real.delete(key)) };
    const crashCtx = stepContext();
    await expect(new DynamoConversationsPart(db(), tableName(), failing, { pageSize: 100 }).erase(crashing.person, crashCtx)).rejects.toThrow('S3 unavailable');
    const left = (await Promise.all(b.conversations.map((c) => partitionItems(`USER#${userId}#CONV#${c.id}`)))).reduce((x, y) => x + y, 0);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(b.messages);
    const retried = await conversationsPart().erase(crashing.person, crashCtx);
    expect(retried.done).toBe(true);
    expect(retried.counts.messages).toBe(left);

    for (const conv of [...a.conversations, ...b.conversations]) {
      expect(await partitionItems(`USER#${userId}#CONV#${conv.id}`)).toBe(0);
      expect(await objectsUnder(`whatsapp-media/${userId}/${conv.id}/`)).toBe(0);
      expect((await api('GET', `/api/conversations/${conv.id}`, { token })).status).toBe(404);
    }
    const hub = await api('GET', `/api/messages?search=${encodeURIComponent(marker)}`, { token });
    expect(JSON.stringify(hub.body)).not.toContain(marker);
    // Each of the four conversations moved the counter once, across the yield and the crash: none left, none below.
    expect(await getItem(`USER#${userId}`, 'CONVS#STATS')).toMatchObject({ active: 0, closed: 0 });
    expect(await conversationList(token)).toEqual({ total: 0, ids: [] });
  }, 120_000);
});
