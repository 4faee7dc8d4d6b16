/**
 * Issue 33, what is already stored re-dated when the owner changes a retention (the `retention`
 * privacy job, domain/privacy/retention-restamp.ts) on the local stack. A Spanish clinic's data
 * stored before retention existed — written by the repositories without a retention reader, so with
 * no `expiresAt` at all: two conversations (their last message 40 and 10 days ago), a recorded call
 * with its CallSid guard and by-number key, the recording's due item in the day its old 90 days end,
 * a customer's photo tagged `retention=default` — then PUT /api/privacy/settings with 30 days
 * everywhere: after the queued job, the 40-day-old conversation and message are gone from the API,
 * the 10-day-old one is listed with expiresAt = its time + 30 days, the call and its keys carry
 * theirs, the photo's tag is `retention=30d`, the recording's due item moved to its new day. The
 * job run again (in-process, through the same adapters) changes nothing. And the operators' script
 * (functions/scripts/stamp-retention.ts) against this stack: it lists the owners, not the members,
 * and its job stamps an account that never saved its settings with the defaults.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { GetObjectTaggingCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { DynamoRetentionRestamp } from '../../src/adapters/dynamo/retention-restamp.js';
import { recordingDueItem } from '../../src/adapters/dynamo/recording-retention.js';
import { S3RetentionTagger } from '../../src/adapters/s3-object-tags.js';
import type { PrivacySettings, RetentionSettings } from '../../src/contract/privacy.js';
import type { Conversation, ConversationDetail, Message } from '../../src/contract/whatsapp.js';
import { createRetentionRestamp } from '../../src/domain/privacy/retention-restamp.js';
import { recordingDueDay, retentionExpiresAt } from '../../src/domain/privacy/retention.js';
import { api, db, provided, tableName } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { must } from '../support/bookings.js';
import { ago, DAY, inbound, openConversation, spanishWaId } from '../support/conversations.js';
import { seedCall } from '../support/seed-calls.js';
import { drainQueues, localCredentials, testS3Client } from '../support/stack-clients.js';
import { joinedMember } from '../support/team.js';

const nowS = () => Math.floor(Date.now() / 1000);
const business = { phoneId: '1098765432', phoneNumber: '+34910000000' };
const THIRTY: RetentionSettings = { messages: 30, callTranscripts: 30, recordings: 30, media: 30 };

async function raw(pk: string, sk: string): Promise<Record<string, unknown> | undefined> {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk }, ConsistentRead: true }))).Item;
}

describe('retention re-stamp (issue 33)', () => {
  it('a shorter retention re-dates what was stored before: old data leaves the API, the rest carries its new expiry; a second run changes nothing', async () => {
    const { token, userId } = await subscribedUser('starter');
    const u = `USER#${userId}`;

    // Stored before retention existed: nothing carries an expiry.
    const old = await openConversation(userId, business, { waId: spanishWaId(), name: 'Begoña Muñoz' }, ago(41 * DAY));
    const oldMessage = await inbound(userId, business, old, { at: ago(40 * DAY), body: 'Hola, ¿tenéis cita para una limpieza?' });
    const recent = await openConversation(userId, business, { waId: spanishWaId(), name: 'Íñigo Peña' }, ago(11 * DAY));
    const recentMessage = await inbound(userId, business, recent, { at: ago(10 * DAY), body: 'Me duele la muela del juicio' });
    const call = await seedCall(userId, { createdAt: ago(5 * DAY).toISOString(), recording: { sid: `RE${recent.id.slice(0, 30)}`, url: 'https://api.twilio.com/rec', durationSec: 20 } });
    const recordedAt = call.endedAt!;
    const oldDue = recordingDueItem({ accountId: userId, callId: call.id, recordingSid: call.recording!.sid, day: recordingDueDay(recordedAt, 90), dueAt: retentionExpiresAt(recordedAt, 90), days: 90 });
    await db().send(new PutCommand({ TableName: tableName(), Item: oldDue }));
    const mediaKey = `whatsapp-media/${userId}/${recent.id}/${recentMessage.id}`;
    await testS3Client().send(new PutObjectCommand({ Bucket: provided('uploadsBucket'), Key: mediaKey, Body: Buffer.from('radiografía'), ContentType: 'image/jpeg', Tagging: 'retention=default' }));
    expect((await raw(`${u}#CONV#${old.id}`, `MSG#${oldMessage.id.slice(old.id.length + 1)}`))?.expiresAt).toBeUndefined();
    const listedBefore = await must<Conversation[]>(api('GET', '/api/conversations?limit=50', { token }));
    expect(listedBefore.map((c) => c._id).sort()).toEqual([old.id, recent.id].sort());
    const hubBefore = await must<Message[]>(api('GET', '/api/messages?limit=100&timeFilter=all', { token }));
    expect(hubBefore.map((m) => m._id).sort()).toEqual([oldMessage.id, recentMessage.id].sort());

    // The owner chooses 30 days for everything: the job is queued with the answer, the queue runs it.
    const settings = await must<PrivacySettings>(api('GET', '/api/privacy/settings', { token }));
    await must(api('PUT', '/api/privacy/settings', { token, body: { ...settings, retention: THIRTY } }));
    await drainQueues();

    // Older than 30 days: gone from the board, the detail and the Message Hub.
    const listed = await must<Conversation[]>(api('GET', '/api/conversations?limit=50', { token }));
    expect(listed.map((c) => c._id)).toEqual([recent.id]);
    expect((await api('GET', `/api/conversations/${old.id}`, { token })).status).toBe(404);
    const hub = await must<Message[]>(api('GET', '/api/messages?limit=100&timeFilter=all', { token }));
    expect(hub.map((m) => m._id)).toEqual([recentMessage.id]);
    expect((await raw(`${u}#CONV#${old.id}`, `MSG#${oldMessage.id.slice(old.id.length + 1)}`))?.expiresAt).toBe(retentionExpiresAt(oldMessage.createdAt, 30));

    // 10 days old: still there, with its own time + 30 days.
    const detail = await must<ConversationDetail>(api('GET', `/api/conversations/${recent.id}`, { token }));
    expect(detail.messages.map((m) => m._id)).toEqual([recentMessage.id]);
    const in20Days = nowS() + 20 * 86_400;
    const messageTtl = (await raw(`${u}#CONV#${recent.id}`, `MSG#${recentMessage.id.slice(recent.id.length + 1)}`))?.expiresAt;
    expect(messageTtl).toBe(retentionExpiresAt(recentMessage.createdAt, 30));
    expect(Math.abs(Number(messageTtl) - in20Days)).toBeLessThan(600);
    expect((await raw(u, `CONV#${recent.id}`))?.expiresAt).toBe(retentionExpiresAt(recentMessage.timestamp, 30));

    // The call, its CallSid guard and by-number key: the call's time + 30 days.
    const callTtl = retentionExpiresAt(call.createdAt, 30);
    expect((await raw(u, `VCALL#${call.id}`))?.expiresAt).toBe(callTtl);
    expect((await raw(u, `TWCALL#${call.callSid}`))?.expiresAt).toBe(callTtl);
    expect((await raw(u, `VCALLNUM#${call.phoneNumber}#${call.id}`))?.expiresAt).toBe(callTtl);

    // The recording's due item moved from its 90-day day to its 30-day day.
    const sk = `${userId}#${call.id}#${call.recording!.sid}`;
    expect(await raw(String(oldDue.pk), sk)).toBeUndefined();
    expect(await raw(`RECEXPIRE#${recordingDueDay(recordedAt, 30)}`, sk)).toMatchObject({ days: 30, dueAt: retentionExpiresAt(recordedAt, 30), attempts: 0 });

    // The photo: the media bucket's 30-day lifecycle tag.
    const tags = await testS3Client().send(new GetObjectTaggingCommand({ Bucket: provided('uploadsBucket'), Key: mediaKey }));
    expect(tags.TagSet).toEqual([{ Key: 'retention', Value: '30d' }]);

    // Run again (through the same adapters, one item a slice at most): nothing more changes.
    const sent: unknown[] = [];
    const again = createRetentionRestamp({
      store: new DynamoRetentionRestamp(db(), tableName()),
      media: new S3RetentionTagger({ bucket: provided('uploadsBucket'), region: 'us-east-1', endpoint: provided('s3Endpoint'), credentials: async () => localCredentials }),
      mediaPrefix: (a) => `whatsapp-media/${a}/`,
      retention: async () => THIRTY,
      queue: { send: async (job) => void sent.push(job) },
      sliceMs: 60_000,
    });
    expect(await again.run({ kind: 'retention', accountId: userId }, Date.now())).toEqual({
      done: true,
      counts: { messages: 0, conversations: 0, calls: 0, callKeys: 0, recordings: 0, media: 1 },
    });
    expect(sent).toEqual([]);
    expect((await raw(u, `VCALL#${call.id}`))?.expiresAt).toBe(callTtl);
    expect((await raw(`RECEXPIRE#${recordingDueDay(recordedAt, 30)}`, sk))?.days).toBe(30);
  });

  it('npm run retention:stamp lists the accounts (owners, not members) and queues the job that stamps data stored before, with the defaults', async () => {
    const owner = await subscribedUser('starter');
    const member = await joinedMember({ user: owner.user, token: owner.token, accountId: owner.userId }, 'agent');
    const conv = await openConversation(owner.userId, business, { waId: spanishWaId(), name: 'Nuria Ibáñez' }, ago(3 * DAY));
    const message = await inbound(owner.userId, business, conv, { at: ago(3 * DAY), body: 'Gracias por la cita' });
    const messageKey = [`USER#${owner.userId}#CONV#${conv.id}`, `MSG#${message.id.slice(conv.id.length + 1)}`] as const;
    expect((await raw(...messageKey))?.expiresAt).toBeUndefined();

    const script = fileURLToPath(new URL('../../scripts/stamp-retention.ts', import.meta.url));
    const env = {
      ...process.env,
      RUNTIME: 'local',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
      USER_POOL_ID: inject('userPoolId'),
      TABLE_NAME: inject('tableName'),
      QUEUE_URL_PRIVACY_JOBS: inject('queueUrls')['privacy-jobs']!,
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      COGNITO_ENDPOINT: inject('cognitoEndpoint'),
      SQS_ENDPOINT: inject('sqsEndpoint'),
    };
    const run = (...args: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', script, ...args], { env, timeout: 30_000 });

    const listed = (await run('--dry-run')).stdout.split('\n');
    expect(listed).toContain(owner.userId);
    expect(listed).not.toContain(member.personId);

    const queued = await run('--account', owner.userId);
    expect(queued.stderr).toContain('Queued 1 retention job');
    await drainQueues();
    expect((await raw(...messageKey))?.expiresAt).toBe(retentionExpiresAt(message.createdAt, 730));
  });
});
