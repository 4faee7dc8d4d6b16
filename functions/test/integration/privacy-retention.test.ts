/**
 * Issue 33, retention per account on the local stack: the settings API (a Spanish clinic's
 * defaults, a valid and an invalid PUT, a member below admin refused, the activity entry naming the
 * days that changed); what is written after choosing 30 days carries it (a WhatsApp message and its
 * conversation, a call and its recording's due item, a customer's photo tagged `retention=30d` in
 * S3); what is past its retention reads as absent (DynamoDB Local never deletes); and the
 * recording-retention schedule deleting at the fake Twilio the recording that is due, not the
 * ones that are not, and the call saying so.
 */
import { randomUUID } from 'node:crypto';
import { GetObjectTaggingCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { recordingDueItem } from '../../src/adapters/dynamo/recording-retention.js';
import { privacyMessages, type PrivacySettings } from '../../src/contract/privacy.js';
import type { ActivityPage } from '../../src/contract/team.js';
import type { Conversation, ConversationDetail, Message } from '../../src/contract/whatsapp.js';
import type { VoiceConversation, VoiceConversationList } from '../../src/contract/voice.js';
import { simulateCall } from '../../local/fake-twilio/call-simulator.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, db, provided, tableName, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { clinicVoice, must } from '../support/bookings.js';
import { callerNumber } from '../support/seed-calls.js';
import { drainQueues, testS3Client } from '../support/stack-clients.js';
import { joinedMember } from '../support/team.js';
import { connectWhatsApp, metaDelivery, postWebhook, sendMediaDelivery, signMetaBody, textMessage, waCustomer, type ConnectedWhatsApp } from '../support/whatsapp.js';

const DAY_S = 86_400;
const nowS = () => Math.floor(Date.now() / 1000);
const dayOf = (epochS: number) => new Date(epochS * 1000).toISOString().slice(0, 10);

/** A subscribed clinic in Spain (profile country ES) with ChatGPT and a Spanish answering agent. */
async function spanishClinic(): Promise<{ token: string; userId: string; user: Awaited<ReturnType<typeof subscribedUser>>['user'] }> {
  const { token, userId, user } = await subscribedUser('starter');
  await must(api('PUT', '/api/user/profile', { token, body: { name: 'Clínica Peña', language: 'es', timeZone: 'Europe/Madrid', country: 'ES', phoneNumber: '' } }));
  await must(api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: `sk-retention-${randomUUID()}`, model: 'gpt-4o' } }));
  const agent = await createAnsweringAgent(token, 'Sonia');
  await must(api('PUT', `/api/agents/${agent._id}`, { token, body: { language: 'es' } }));
  return { token, userId, user };
}

const settingsOf = (token: string) => must<PrivacySettings>(api('GET', '/api/privacy/settings', { token }));

function withRetention(s: PrivacySettings, retention: Partial<PrivacySettings['retention']>): PrivacySettings {
  return { ...s, retention: { ...s.retention, ...retention } };
}

async function raw(pk: string, sk: string): Promise<Record<string, unknown> | undefined> {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk }, ConsistentRead: true }))).Item;
}

async function conversationOf(token: string, waId: string): Promise<string> {
  return until(async () => {
    const list = await must<Conversation[]>(api('GET', '/api/conversations?limit=50', { token }));
    return list.find((c) => c.customerWaId === waId)?._id;
  }, 'the conversation');
}

async function messageItems(userId: string, conversationId: string): Promise<Record<string, unknown>[]> {
  const out = await db().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${userId}#CONV#${conversationId}` }, ConsistentRead: true }),
  );
  return out.Items ?? [];
}

async function say(wa: ConnectedWhatsApp, customer: ReturnType<typeof waCustomer>, text: string): Promise<void> {
  const body = metaDelivery(wa, { messages: [textMessage(customer, text)] });
  expect((await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret))).status).toBe(200);
  await drainQueues();
}

const expectAbout = (value: unknown, expected: number) => {
  expect(typeof value).toBe('number');
  expect(Math.abs((value as number) - expected)).toBeLessThan(600);
};

async function runRetentionSchedule(): Promise<{ deleted: number; postponed: number }> {
  const res = await fetch(`${provided('apiUrl')}/_local/schedules/recording-retention/run`, { method: 'POST' });
  expect(res.status).toBe(200);
  return (await res.json()) as { deleted: number; postponed: number };
}

describe('retention per account (issue 33)', () => {
  it('GET answers the Spanish defaults; PUT saves a valid body, refuses an invalid one and an agent, and logs the days that changed', async () => {
    const owner = await spanishClinic();
    const defaults = await settingsOf(owner.token);
    expect(defaults.retention).toEqual({ messages: 730, callTranscripts: 730, recordings: 90, media: 365 });
    expect(defaults.notices).toMatchObject({ ai: true, recording: true });

    // Invalid: a retention that is not a choice → 400 with the reason, nothing saved.
    const invalid = await api('PUT', '/api/privacy/settings', { token: owner.token, body: withRetention(defaults, { messages: 45 as 30 }) });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe(privacyMessages.retentionInvalid);
    const unknownField = await api('PUT', '/api/privacy/settings', { token: owner.token, body: { ...defaults, extra: true } });
    expect(unknownField.status).toBe(400);
    expect(await settingsOf(owner.token)).toEqual(defaults);

    // A member with the agent role may not read or change them.
    const member = await joinedMember({ user: owner.user, token: owner.token, accountId: owner.userId }, 'agent');
    expect((await api('GET', '/api/privacy/settings', { token: member.token })).status).toBe(403);
    expect((await api('PUT', '/api/privacy/settings', { token: member.token, body: withRetention(defaults, { messages: 30 }) })).status).toBe(403);
    expect(await settingsOf(owner.token)).toEqual(defaults);

    // Valid: saved, answered, read back; the message says what happens to what is already stored.
    const chosen = withRetention(defaults, { messages: 30, recordings: 30 });
    const saved = await api<PrivacySettings>('PUT', '/api/privacy/settings', { token: owner.token, body: chosen });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(privacyMessages.retentionSaved);
    expect(saved.body.data).toEqual(chosen);
    expect(saved.body).not.toHaveProperty('activityDetails');
    expect(await settingsOf(owner.token)).toEqual(chosen);

    // The log: who and which retention changed (days per kind, only the changed ones).
    const log = await must<ActivityPage>(api('GET', '/api/team/activity?action=privacy_settings.changed', { token: owner.token }));
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({ action: 'privacy_settings.changed', actor: { kind: 'member', _id: owner.userId }, details: { messages: 30, recordings: 30 } });
    expect(Object.keys(log.entries[0]!.details!).sort()).toEqual(['messages', 'recordings']);
  });

  it('after choosing 30 days: the message, its conversation, the call, its recording due item and the media object carry it; what expired reads as absent', async () => {
    const owner = await spanishClinic();
    const chosen: PrivacySettings = { ...(await settingsOf(owner.token)), retention: { messages: 30, callTranscripts: 30, recordings: 30, media: 30 } };
    await must(api('PUT', '/api/privacy/settings', { token: owner.token, body: chosen }));
    const in30 = () => nowS() + 30 * DAY_S;

    // WhatsApp: a patient writes (Spanish, accents); the message and the conversation are stamped.
    const wa = await connectWhatsApp(owner.token);
    const patient = waCustomer('Begoña Muñoz', `346${String(Date.now()).slice(-8)}`);
    await say(wa, patient, 'Hola, ¿tenéis cita el jueves para una limpieza?');
    const conversationId = await conversationOf(owner.token, patient.waId);
    const items = await until(async () => {
      const found = await messageItems(owner.userId, conversationId);
      return found.length >= 1 ? found : undefined;
    }, 'the stored messages');
    for (const item of items) expectAbout(item.expiresAt, Date.parse(String(item.createdAt)) / 1000 + 30 * DAY_S);
    expectAbout((await raw(`USER#${owner.userId}`, `CONV#${conversationId}`))?.expiresAt, in30());

    // A photo: stored in S3 tagged with the account's media retention.
    await sendMediaDelivery(wa, patient, 'image', new Uint8Array(Buffer.from('foto de la radiografía')), { caption: 'Mi radiografía' });
    await drainQueues();
    const storedKey = await until(async () => {
      const withMedia = (await messageItems(owner.userId, conversationId)).find((m) => (m.media as { storedKey?: string } | undefined)?.storedKey);
      return (withMedia?.media as { storedKey?: string } | undefined)?.storedKey;
    }, 'the stored photo');
    const tags = await testS3Client().send(new GetObjectTaggingCommand({ Bucket: provided('uploadsBucket'), Key: storedKey }));
    expect(tags.TagSet).toEqual([{ Key: 'retention', Value: '30d' }]);

    // A recorded call: the call (its transcript embedded) and its recording's due item in the day its 30 days end.
    const voice = await clinicVoice(owner.token, { conversationMode: 'gather', enableRecording: true });
    const setup = voice.setup;
    const call = await simulateCall({
      voiceUrl: setup.webhookUrl,
      statusCallbackUrl: setup.statusCallbackUrl,
      accountSid: voice.accountSid,
      authToken: voice.authToken,
      from: callerNumber(),
      to: voice.number,
      turns: [{ speech: 'Quería cambiar mi cita', confidence: 0.9 }],
      twilioApiUrl: provided('twilioApiUrl'),
      callDurationSec: 30,
    });
    expect(call.recordingSid).toBeTruthy();
    const list = await must<VoiceConversationList>(api('GET', '/api/voice-conversations?limit=10', { token: owner.token }));
    const callId = list.conversations.find((c) => c.callSid === call.callSid)!._id;
    expectAbout((await raw(`USER#${owner.userId}`, `VCALL#${callId}`))?.expiresAt, in30());
    expectAbout((await raw(`USER#${owner.userId}`, `TWCALL#${call.callSid}`))?.expiresAt, in30());
    const due = await raw(`RECEXPIRE#${dayOf(in30())}`, `${owner.userId}#${callId}#${call.recordingSid}`);
    expect(due).toMatchObject({ accountId: owner.userId, callId, recordingSid: call.recordingSid, days: 30 });
    expectAbout(due?.dueAt, in30());

    // Past its retention (DynamoDB Local never deletes): the message, then the conversation and the call read as absent.
    const [oldest] = await messageItems(owner.userId, conversationId);
    const past = nowS() - 60;
    await db().send(new UpdateCommand({ TableName: tableName(), Key: { pk: oldest!.pk, sk: oldest!.sk }, UpdateExpression: 'SET expiresAt = :t', ExpressionAttributeValues: { ':t': past } }));
    const detail = await must<ConversationDetail>(api('GET', `/api/conversations/${conversationId}`, { token: owner.token }));
    const oldestId = String(oldest!.id);
    expect(detail.messages.map((m) => m._id)).not.toContain(oldestId);
    const hub = await must<Message[]>(api('GET', '/api/messages?limit=100', { token: owner.token }));
    expect(hub.map((m) => m._id)).not.toContain(oldestId);
    expect(hub.length).toBeGreaterThan(0);

    await db().send(new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${owner.userId}`, sk: `CONV#${conversationId}` }, UpdateExpression: 'SET expiresAt = :t', ExpressionAttributeValues: { ':t': past } }));
    expect((await api('GET', `/api/conversations/${conversationId}`, { token: owner.token })).status).toBe(404);
    const board = await must<Conversation[]>(api('GET', '/api/conversations?limit=50', { token: owner.token }));
    expect(board.map((c) => c._id)).not.toContain(conversationId);

    await db().send(new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${owner.userId}`, sk: `VCALL#${callId}` }, UpdateExpression: 'SET expiresAt = :t', ExpressionAttributeValues: { ':t': past } }));
    expect((await api('GET', `/api/voice-conversations/${callId}`, { token: owner.token })).status).toBe(404);
    const calls = await must<VoiceConversationList>(api('GET', '/api/voice-conversations?limit=10', { token: owner.token }));
    expect(calls.conversations.map((c) => c._id)).not.toContain(callId);

    // The patient writes again: a new conversation (the expired one is not continued).
    await say(wa, patient, 'Sigo aquí, ¿me confirmáis?');
    expect(await conversationOf(owner.token, patient.waId)).not.toBe(conversationId);
  });

  it('the recording-retention schedule deletes at Twilio the recording that is due, marks its call, and leaves the ones not due yet', async () => {
    const owner = await spanishClinic();
    await must(api('PUT', '/api/privacy/settings', { token: owner.token, body: withRetention(await settingsOf(owner.token), { recordings: 30 }) }));
    // The change's re-stamp job (it would put the due items moved below back in their 30-day day) runs first.
    await drainQueues();
    const voice = await clinicVoice(owner.token, { conversationMode: 'gather', enableRecording: true });
    const setup = voice.setup;
    const place = () =>
      simulateCall({
        voiceUrl: setup.webhookUrl,
        statusCallbackUrl: setup.statusCallbackUrl,
        accountSid: voice.accountSid,
        authToken: voice.authToken,
        from: callerNumber(),
        to: voice.number,
        turns: [{ speech: 'Buenos días', confidence: 0.9 }],
        twilioApiUrl: provided('twilioApiUrl'),
        callDurationSec: 20,
      });
    const [due, later, future] = [await place(), await place(), await place()];
    const list = await must<VoiceConversationList>(api('GET', '/api/voice-conversations?limit=10', { token: owner.token }));
    const idOf = (sid: string) => list.conversations.find((c) => c.callSid === sid)!._id;

    // The first recording's retention ended a minute ago; the second's ends later today; the third's in 30 days (as written).
    // Today's partition: the schedule's cursor (shared by the stack's tests) never passes today.
    const ended = nowS() - 60;
    const laterToday = Math.min(nowS() + 3600, Math.floor(Date.parse(`${dayOf(nowS())}T23:59:59Z`) / 1000));
    const move = async (sid: string, recordingSid: string, dueAt: number) => {
      const callId = idOf(sid);
      await db().send(new PutCommand({ TableName: tableName(), Item: recordingDueItem({ accountId: owner.userId, callId, recordingSid, day: dayOf(dueAt), dueAt, days: 30 }) }));
      return callId;
    };
    const dueCall = await move(due.callSid, due.recordingSid!, ended);
    await move(later.callSid, later.recordingSid!, laterToday);

    const result = await runRetentionSchedule();
    expect(result.deleted).toBeGreaterThanOrEqual(1);
    const deletions = (await (await fetch(`${provided('twilioApiUrl')}/_test/deletions?accountSid=${voice.accountSid}`)).json()) as { recordings: { sid: string }[] };
    expect(deletions.recordings.map((r) => r.sid)).toEqual([due.recordingSid]);

    // The call says so and no longer offers the recording; the due item is gone, the others stay.
    const { conversation: shown } = await must<{ conversation: VoiceConversation }>(api('GET', `/api/voice-conversations/${dueCall}`, { token: owner.token }));
    expect(shown.hasRecording).toBe(false);
    expect(shown.recordingDeleted).toMatchObject({ days: 30 });
    expect((await api('GET', `/api/voice-conversations/${dueCall}/recording`, { token: owner.token })).status).toBe(404);
    expect(await raw(`RECEXPIRE#${dayOf(ended)}`, `${owner.userId}#${dueCall}#${due.recordingSid}`)).toBeUndefined();
    expect(await raw(`RECEXPIRE#${dayOf(laterToday)}`, `${owner.userId}#${idOf(later.callSid)}#${later.recordingSid}`)).toBeDefined();
    expect(await raw(`RECEXPIRE#${dayOf(nowS() + 30 * DAY_S)}`, `${owner.userId}#${idOf(future.callSid)}#${future.recordingSid}`)).toBeDefined();
    expect((await must<{ conversation: VoiceConversation }>(api('GET', `/api/voice-conversations/${idOf(later.callSid)}`, { token: owner.token }))).conversation.hasRecording).toBe(true);

    // Run again: idempotent (nothing more deleted at Twilio).
    await runRetentionSchedule();
    const again = (await (await fetch(`${provided('twilioApiUrl')}/_test/deletions?accountSid=${voice.accountSid}`)).json()) as { recordings: { sid: string }[] };
    expect(again.recordings.map((r) => r.sid)).toEqual([due.recordingSid]);
  });
});
