/**
 * Notifications for a team (issue 32) on the local stack: an owner ("Marta Dueña", English), a
 * receptionist ("Lucía Martín", Spanish, agent) and a manager ("Marc Ibáñez", English, admin) in
 * one account — their member items and pointers written as the team service writes them, their
 * tokens refreshed through cognito-local's pre-token trigger so they carry the account. An
 * escalation on a conversation assigned to Lucía reaches Lucía alone (bell, e-mail in Spanish,
 * push to her device only); an unassigned one reaches everyone, each in their language, except
 * the push of whoever turned escalation pushes off, and the e-mail of whoever turned alert
 * e-mails off; each person's read state and devices are their own; a raise retried sends nobody
 * anything twice; a single-user account keeps today's keys.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoNotificationRepository } from '../../src/adapters/dynamo/notifications.js';
import { DynamoTeamRepository } from '../../src/adapters/dynamo/team.js';
import type { RefreshedSession } from '../../src/contract/auth.js';
import type { NotificationList } from '../../src/contract/notifications.js';
import type { PushDevice } from '../../src/contract/push.js';
import { createEscalationAlerts } from '../../src/domain/notifications/raise.js';
import type { StoredNotification } from '../../src/domain/notifications/ports.js';
import { newId } from '../../src/lib/ids.js';
import { eventually } from '../support/agents-api.js';
import { api, db, getItem, itemsOf, mailsTo, post, provided, registerUser, tableName, uniqueEmail, type RegisteredUser } from '../support/api.js';
import { paidUser } from '../support/billing.js';
import { openConversation, spanishWaId } from '../support/conversations.js';
import { fakePushClient, type MintedSubscription } from '../support/push.js';

const fake = fakePushClient(provided('pushServiceUrl'), provided('pushServiceCa'));
afterAll(() => fake.close());

interface Person {
  user: RegisteredUser;
  personId: string;
  token: string;
  device: MintedSubscription;
}

interface Team {
  accountId: string;
  owner: Person;
  lucia: Person;
  marc: Person;
}

/** The member item and pointer the team service writes when someone joins (adapters/dynamo/team.ts keys). */
async function join(accountId: string, person: RegisteredUser, role: 'admin' | 'agent'): Promise<void> {
  const personId = person.session.user._id;
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { pk: `USER#${accountId}`, sk: `MEMBER#${personId}`, entity: 'member', personId, role, joinedAt: new Date().toISOString(), state: 'active', name: person.name, email: person.email },
    }),
  );
  await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `PERSON#${personId}`, sk: 'MEMBERSHIP', accountId, role } }));
}

async function profile(token: string, name: string, language: 'en' | 'es'): Promise<void> {
  const res = await api('PUT', '/api/user/profile', { token, body: { name, language } });
  if (res.status !== 200) throw new Error(`profile answered ${res.status}: ${res.body.message}`);
}

/** A fresh access token: after join() it carries the account (cognito-local runs the pre-token trigger). */
async function refreshedToken(user: RegisteredUser): Promise<string> {
  const res = await post<RefreshedSession>('/api/refresh-token', { refreshToken: user.session.refreshToken });
  if (res.status !== 200 || !res.body.data) throw new Error(`refresh failed: ${res.status}`);
  return res.body.data.token;
}

async function subscribe(token: string, label: string): Promise<MintedSubscription> {
  const minted = await fake.mint();
  const res = await api<{ device: PushDevice }>('POST', '/api/push/devices', { token, body: { ...minted.subscription, label } });
  if (res.status !== 201) throw new Error(`subscribe answered ${res.status}: ${res.body.message}`);
  return minted;
}

async function member(accountId: string, name: string, language: 'en' | 'es', role: 'admin' | 'agent', label: string): Promise<Person> {
  const user = await registerUser({ name, email: uniqueEmail(role) });
  await profile(user.session.token, name, language);
  await join(accountId, user, role);
  const token = await refreshedToken(user);
  return { user, personId: user.session.user._id, token, device: await subscribe(token, label) };
}

let team: Team;

beforeAll(async () => {
  const { user, token, userId: accountId } = await paidUser({ name: 'Marta Dueña', plan: 'professional' });
  await profile(token, 'Marta Dueña', 'en');
  const owner: Person = { user, personId: accountId, token, device: await subscribe(token, 'Portátil de Marta') };
  const [lucia, marc] = await Promise.all([
    member(accountId, 'Lucía Martín', 'es', 'agent', 'Móvil de recepción'),
    member(accountId, 'Marc Ibáñez', 'en', 'admin', 'Marc’s phone'),
  ]);
  team = { accountId, owner, lucia, marc };
}, 120_000);

let seq = 0;
/** A customer's conversation in the account (seeded as the inbound worker stores it). */
async function customerConversation(name: string): Promise<string> {
  const business = { phoneId: `10${Date.now()}${++seq}`, phoneNumber: '+34910000000' };
  return (await openConversation(team.accountId, business, { waId: spanishWaId(), name })).id;
}

const bell = async (p: Person) => {
  const res = await api<NotificationList>('GET', '/api/notifications', { token: p.token });
  expect(res.status).toBe(200);
  return res.body.data!;
};
const aboutConversation = async (p: Person, conversationId: string) => (await bell(p)).notifications.filter((n) => n.subjectId === conversationId);
const mailsAbout = async (p: Person, contact: string) => (await mailsTo(p.user.email)).filter((m) => m.subject.endsWith(contact));
const pushesAbout = async (p: Person, conversationId: string) => (await fake.messages(p.device.id)).filter((m) => m.json?.tag === `conversation_escalated:${conversationId}`);

async function escalate(conversationId: string, reason: string): Promise<void> {
  const res = await api('POST', `/api/conversations/${conversationId}/escalate`, { token: team.owner.token, body: { reason } });
  expect(res.status).toBe(200);
}

/** Lets the queues settle: whatever would have gone to someone else went with what did arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500));

describe('notifications for a team', () => {
  it('an escalation on a conversation assigned to Lucía tells Lucía alone: her bell, an e-mail in Spanish, a push to her device only', async () => {
    const conversationId = await customerConversation('Carmen Ibáñez');
    const assigned = await api('PUT', `/api/conversations/${conversationId}`, { token: team.owner.token, body: { assignee: team.lucia.personId } });
    expect(assigned.status).toBe(200);

    await escalate(conversationId, 'Quiere hablar con una persona');

    const [mail] = await eventually(async () => {
      const list = await mailsAbout(team.lucia, 'Carmen Ibáñez');
      return list.length > 0 ? list : null;
    }, 20_000);
    expect(mail!.subject).toBe('Conversación escalada: Carmen Ibáñez');
    expect(mail!.body.text).toContain('Motivo: Quiere hablar con una persona');
    const [push] = await eventually(async () => {
      const list = await pushesAbout(team.lucia, conversationId);
      return list.length > 0 ? list : null;
    }, 20_000);
    expect(push!.json).toMatchObject({ title: 'Conversación escalada: Carmen Ibáñez', body: 'Quiere hablar con una persona' });

    const mine = await aboutConversation(team.lucia, conversationId);
    expect(mine).toEqual([expect.objectContaining({ kind: 'conversation_escalated', readAt: null, contactName: 'Carmen Ibáñez' })]);
    expect((await bell(team.lucia)).unreadCount).toBeGreaterThanOrEqual(1);

    await settle();
    for (const other of [team.owner, team.marc]) {
      expect(await aboutConversation(other, conversationId)).toEqual([]);
      expect(await mailsAbout(other, 'Carmen Ibáñez')).toEqual([]);
      expect(await pushesAbout(other, conversationId)).toEqual([]);
    }
    expect(await mailsAbout(team.lucia, 'Carmen Ibáñez')).toHaveLength(1);
    expect(await pushesAbout(team.lucia, conversationId)).toHaveLength(1);
    // Her item lives in the account's partition, keyed by her.
    expect(await getItem(`USER#${team.accountId}`, `PERSON#${team.lucia.personId}#NOTIF#${mine[0]!._id}`)).toMatchObject({ personId: team.lucia.personId });
  }, 90_000);

  it('unassigned: everyone is told, each in their language; Marc turned escalation pushes off, so no push to him while the others get theirs', async () => {
    const off = await api('PUT', '/api/push/settings', { token: team.marc.token, body: { escalations: false, waiting: true } });
    expect(off.status).toBe(200);
    expect((await api('GET', '/api/push/settings', { token: team.marc.token })).body.data).toEqual({ escalations: false, waiting: true, email: true });
    // His setting is his: the owner's and Lucía's are still on.
    expect((await api('GET', '/api/push/settings', { token: team.owner.token })).body.data).toMatchObject({ escalations: true });
    expect((await api('GET', '/api/push/settings', { token: team.lucia.token })).body.data).toMatchObject({ escalations: true });

    const conversationId = await customerConversation('Íñigo Núñez');
    await escalate(conversationId, 'Reclama una devolución');

    const expected: Array<[Person, string]> = [
      [team.owner, 'Conversation escalated: Íñigo Núñez'],
      [team.lucia, 'Conversación escalada: Íñigo Núñez'],
      [team.marc, 'Conversation escalated: Íñigo Núñez'],
    ];
    for (const [person, subject] of expected) {
      const [mail] = await eventually(async () => {
        const list = await mailsAbout(person, 'Íñigo Núñez');
        return list.length > 0 ? list : null;
      }, 20_000);
      expect(mail!.subject).toBe(subject);
      expect(await aboutConversation(person, conversationId)).toEqual([expect.objectContaining({ readAt: null })]);
    }
    for (const person of [team.owner, team.lucia]) {
      await eventually(async () => (await pushesAbout(person, conversationId)).length > 0, 20_000);
    }
    await settle();
    expect(await pushesAbout(team.marc, conversationId)).toEqual([]);
    // Once each: one notification, one e-mail, one push per person.
    for (const [person] of expected) {
      expect(await mailsAbout(person, 'Íñigo Núñez')).toHaveLength(1);
      expect(await aboutConversation(person, conversationId)).toHaveLength(1);
    }
    expect(await pushesAbout(team.owner, conversationId)).toHaveLength(1);
    expect(await pushesAbout(team.lucia, conversationId)).toHaveLength(1);

    // The owner's keeps the keys of before issue 32.
    const [owners] = await aboutConversation(team.owner, conversationId);
    expect(await getItem(`USER#${team.accountId}`, `NOTIF#${owners!._id}`)).toBeDefined();

    await api('PUT', '/api/push/settings', { token: team.marc.token, body: { escalations: true, waiting: true } });
  }, 90_000);

  it('each person’s read state is their own: Lucía reads everything, Marc’s stay unread; nobody reaches another’s notification', async () => {
    const conversationId = await customerConversation('Rocío Peña');
    await escalate(conversationId, 'Pregunta por su cita');
    const [luciaOne, marcOne, ownerOne] = await Promise.all(
      [team.lucia, team.marc, team.owner].map((p) => eventually(async () => (await aboutConversation(p, conversationId))[0], 20_000)),
    );
    const marcUnread = (await bell(team.marc)).unreadCount;
    expect(marcUnread).toBeGreaterThanOrEqual(1);

    const all = await api<{ marked: number; unreadCount: number }>('POST', '/api/notifications/read-all', { token: team.lucia.token });
    expect(all.status).toBe(200);
    expect(all.body.data!.unreadCount).toBe(0);
    expect((await bell(team.lucia)).unreadCount).toBe(0);
    expect((await bell(team.marc)).unreadCount).toBe(marcUnread);
    expect((await aboutConversation(team.marc, conversationId))[0]!.readAt).toBeNull();
    expect((await aboutConversation(team.owner, conversationId))[0]!.readAt).toBeNull();

    // Someone else's notification is not found, and stays unread.
    for (const foreign of [marcOne!, ownerOne!]) {
      const res = await api('POST', `/api/notifications/${foreign._id}/read`, { token: team.lucia.token });
      expect(res.status).toBe(404);
    }
    expect(luciaOne!._id).not.toBe(marcOne!._id);
    expect((await aboutConversation(team.marc, conversationId))[0]!.readAt).toBeNull();

    const read = await api<{ unreadCount: number }>('POST', `/api/notifications/${marcOne!._id}/read`, { token: team.marc.token });
    expect(read.status).toBe(200);
    expect(read.body.data!.unreadCount).toBe(marcUnread - 1);
    expect((await aboutConversation(team.owner, conversationId))[0]!.readAt).toBeNull();
  }, 90_000);

  it('Lucía turns alert e-mails off for herself: her bell and push still come, no e-mail; the others still get theirs', async () => {
    const off = await api('PUT', '/api/push/settings', { token: team.lucia.token, body: { escalations: true, waiting: true, email: false } });
    expect(off.status).toBe(200);
    expect((await api('GET', '/api/push/settings', { token: team.owner.token })).body.data).toMatchObject({ email: true });

    const conversationId = await customerConversation('Begoña Ruiz');
    await escalate(conversationId, 'Quiere cambiar la reserva');

    for (const person of [team.owner, team.marc]) {
      await eventually(async () => (await mailsAbout(person, 'Begoña Ruiz')).length === 1, 20_000);
    }
    await eventually(async () => (await pushesAbout(team.lucia, conversationId)).length === 1, 20_000);
    expect(await aboutConversation(team.lucia, conversationId)).toHaveLength(1);
    await settle();
    expect(await mailsAbout(team.lucia, 'Begoña Ruiz')).toEqual([]);

    // An older client leaving `email` out keeps her choice.
    await api('PUT', '/api/push/settings', { token: team.lucia.token, body: { escalations: true, waiting: true } });
    expect((await api('GET', '/api/push/settings', { token: team.lucia.token })).body.data).toEqual({ escalations: true, waiting: true, email: false });
    await api('PUT', '/api/push/settings', { token: team.lucia.token, body: { escalations: true, waiting: true, email: true } });
  }, 90_000);

  it('push devices are each person’s: listed, tested and removed by their owner only', async () => {
    const list = async (p: Person) => (await api<{ devices: PushDevice[] }>('GET', '/api/push/devices', { token: p.token })).body.data!.devices;
    const [owners, lucias] = await Promise.all([list(team.owner), list(team.lucia)]);
    expect(owners.map((d) => d.endpoint)).toEqual([team.owner.device.subscription.endpoint]);
    expect(lucias.map((d) => d.endpoint)).toEqual([team.lucia.device.subscription.endpoint]);

    expect((await api('POST', `/api/push/devices/${owners[0]!._id}/test`, { token: team.lucia.token })).status).toBe(404);
    expect((await api('DELETE', `/api/push/devices/${owners[0]!._id}`, { token: team.lucia.token })).status).toBe(404);
    expect(await list(team.owner)).toHaveLength(1);

    const before = (await fake.messages(team.lucia.device.id)).length;
    expect((await api('POST', `/api/push/devices/${lucias[0]!._id}/test`, { token: team.lucia.token })).status).toBe(202);
    const pushes = await eventually(async () => {
      const all = await fake.messages(team.lucia.device.id);
      return all.length > before ? all : null;
    }, 20_000);
    // Her test push, in her language.
    expect(pushes.at(-1)!.json).toMatchObject({ title: 'Aviso de prueba de AgentDesk', tag: 'test' });
  }, 90_000);

  it('a raise retried (a worker’s redelivery) sends nobody anything twice', async () => {
    const notifications = new DynamoNotificationRepository(db(), tableName());
    const sent: StoredNotification[] = [];
    const alerts = createEscalationAlerts({
      notifications,
      recipients: new DynamoTeamRepository(db(), tableName()),
      sender: { send: async (n) => void sent.push(n) },
      newId: (now) => newId(now),
    });
    const alert = { kind: 'conversation_escalated' as const, subjectId: `C${Date.now()}`, contactName: 'Pilar', reason: 'Retry', occurrence: new Date().toISOString() };

    await alerts.escalated(team.accountId, alert);
    await alerts.escalated(team.accountId, alert);
    expect(await alerts.sendPending(team.accountId, alert)).toBe(false);

    expect(sent.map((n) => n.personId ?? n.userId).sort()).toEqual([team.accountId, team.lucia.personId, team.marc.personId].sort());
    const items = (await itemsOf(`USER#${team.accountId}`)).filter((i) => i.subjectId === alert.subjectId && i.entity === 'notification');
    expect(items).toHaveLength(3);

    // Assigned to Marc: Marc alone, once.
    const assigned = { ...alert, subjectId: `${alert.subjectId}-M`, assignee: team.marc.personId };
    await alerts.escalated(team.accountId, assigned);
    await alerts.escalated(team.accountId, assigned);
    expect(sent.filter((n) => n.subjectId === assigned.subjectId).map((n) => n.personId)).toEqual([team.marc.personId]);
  }, 60_000);
});

describe('a single-user account', () => {
  it('behaves as before: its owner’s bell, e-mail and keys are those of before issue 32, nothing keyed by a person', async () => {
    const { user, token, userId } = await paidUser({ name: 'Dolores Sáez' });
    const conversationId = (await openConversation(userId, { phoneId: `11${Date.now()}`, phoneNumber: '+34910000001' }, { waId: spanishWaId(), name: 'Ana Gil' })).id;
    const res = await api('POST', `/api/conversations/${conversationId}/escalate`, { token, body: { reason: 'Necesita ayuda' } });
    expect(res.status).toBe(200);

    const list = await eventually(async () => {
      const data = (await api<NotificationList>('GET', '/api/notifications', { token })).body.data!;
      return data.notifications.length > 0 ? data : null;
    }, 20_000);
    expect(list.unreadCount).toBe(1);
    const [n] = list.notifications;
    expect(await getItem(`USER#${userId}`, `NOTIF#${n!._id}`)).not.toHaveProperty('personId');
    expect(await getItem(`USER#${userId}`, 'NOTIFCOUNT')).toMatchObject({ unread: 1 });
    await eventually(async () => (await mailsTo(user.email)).some((m) => m.subject === 'Conversation escalated: Ana Gil'), 20_000);
    expect((await itemsOf(`USER#${userId}`)).filter((i) => String(i.sk).startsWith('PERSON#'))).toEqual([]);
  }, 60_000);
});
