/**
 * The inbox for a team (issue 32) on the local stack: an owner ("Marta Dueña") and a receptionist
 * ("Lucía Martín") in one account — her member item and pointer written as the team service
 * writes them, her token refreshed through cognito-local's pre-token trigger so it carries the
 * account. Assignment to any active member (and back), a foreign or removed person refused with
 * nothing changed, "Mine" per person, and who sent each human message (member, API key).
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../src/contract/api-keys.js';
import type { RefreshedSession } from '../../src/contract/auth.js';
import { ACCOUNT_CLAIMS } from '../../src/contract/team.js';
import type { AttachmentUploadTicket } from '../../src/contract/whatsapp-media.js';
import type { Conversation, ConversationDetail, ConversationMessage, ConversationOverview } from '../../src/contract/whatsapp.js';
import { whatsappMessages } from '../../src/contract/whatsapp.js';
import { postToTicket } from '../support/agents-api.js';
import { api, db, getItem, post, registerUser, tableName, uniqueEmail, type RegisteredUser } from '../support/api.js';
import { paidUser } from '../support/billing.js';
import { inbound, openConversation, spanishWaId } from '../support/conversations.js';
import { connectWhatsApp, seedGraphTemplates, type ConnectedWhatsApp } from '../support/whatsapp.js';

interface Team {
  ownerToken: string;
  accountId: string;
  lucia: RegisteredUser;
  luciaId: string;
  /** Lucía's access token once refreshed: it carries the owner's account (pre-token trigger). */
  luciaToken: string;
  stranger: RegisteredUser;
  strangerId: string;
  wa: ConnectedWhatsApp;
}

/** The member item and pointer the team service writes when someone joins (adapters/dynamo/team.ts keys). */
async function join(accountId: string, person: RegisteredUser, role: 'admin' | 'agent', state: 'active' | 'removed' = 'active'): Promise<void> {
  const personId = person.session.user._id;
  const joinedAt = new Date().toISOString();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { pk: `USER#${accountId}`, sk: `MEMBER#${personId}`, entity: 'member', personId, role, joinedAt, state, name: person.name, email: person.email },
    }),
  );
  await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `PERSON#${personId}`, sk: 'MEMBERSHIP', accountId, role } }));
}

let team: Team;

beforeAll(async () => {
  const { token: ownerToken, userId: accountId } = await paidUser({ name: 'Marta Dueña', plan: 'professional' });
  const lucia = await registerUser({ name: 'Lucía Martín', email: uniqueEmail('lucía.martín') });
  const stranger = await registerUser({ name: 'Otro Negocio' });
  await join(accountId, lucia, 'agent');
  // Her next token is the account's (cognito-local runs the pre-token-generation trigger).
  const refreshed = await post<RefreshedSession>('/api/refresh-token', { refreshToken: lucia.session.refreshToken });
  if (refreshed.status !== 200 || !refreshed.body.data) throw new Error(`refresh failed: ${refreshed.status}`);
  const wa = await connectWhatsApp(ownerToken, { phoneNumber: `+3491${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` });
  team = {
    ownerToken,
    accountId,
    lucia,
    luciaId: lucia.session.user._id,
    luciaToken: refreshed.body.data.token,
    stranger,
    strangerId: stranger.session.user._id,
    wa,
  };
}, 120_000);

/** A customer's open conversation in the account, written to a minute ago (the reply window is open). */
async function customerConversation(name: string): Promise<string> {
  const business = { phoneId: team.wa.phoneId, phoneNumber: team.wa.phoneNumber };
  const conv = await openConversation(team.accountId, business, { waId: spanishWaId(), name });
  await inbound(team.accountId, business, conv, { body: 'Hola, ¿tenéis cita mañana?', at: new Date(Date.now() - 60_000) });
  return conv.id;
}

const assign = (token: string, id: string, assignee: unknown) => api<Conversation>('PUT', `/api/conversations/${id}`, { token, body: { assignee } });
const conversationItem = (id: string) => getItem(`USER#${team.accountId}`, `CONV#${id}`);
const activeIds = async (token: string, query: string) =>
  ((await api<ConversationOverview>('GET', `/api/conversations/overview${query}`, { token })).body.data?.conversationsByStatus.active ?? []).map((c) => c._id).sort();
const listIds = async (token: string, query: string) => ((await api<Conversation[]>('GET', `/api/conversations${query}`, { token })).body.data ?? []).map((c) => c._id).sort();

describe('assignment to a member of the account', () => {
  it('her token carries the owner’s account (the pre-token trigger ran on the refresh)', () => {
    expect(decodeJwt(team.luciaToken)).toMatchObject({ sub: team.luciaId, [ACCOUNT_CLAIMS.account]: team.accountId, [ACCOUNT_CLAIMS.role]: 'agent' });
  });

  it('the owner assigns a conversation to Lucía and back to nobody; she may take it herself', async () => {
    const id = await customerConversation('Carmen Ruiz');

    const toLucia = await assign(team.ownerToken, id, team.luciaId);
    expect(toLucia.status).toBe(200);
    expect(toLucia.body.data?.assignee).toBe(team.luciaId);
    expect((await conversationItem(id))?.assignee).toBe(team.luciaId);

    const back = await assign(team.ownerToken, id, null);
    expect(back.body.data?.assignee).toBeNull();

    const taken = await assign(team.luciaToken, id, team.luciaId);
    expect(taken.status).toBe(200);
    expect(taken.body.data?.assignee).toBe(team.luciaId);
    const toOwner = await assign(team.luciaToken, id, team.accountId);
    expect(toOwner.body.data?.assignee).toBe(team.accountId);
  });

  it('another account’s person, a removed member or an unknown id: 400 with the text, nothing changed', async () => {
    const id = await customerConversation('José Núñez');
    await assign(team.ownerToken, id, team.luciaId);
    const before = await conversationItem(id);
    const gone = await registerUser({ name: 'Íñigo Baja' });
    await join(team.accountId, gone, 'agent', 'removed');

    for (const assignee of [team.strangerId, gone.session.user._id, 'someone-else', '', 42]) {
      const refused = await assign(team.ownerToken, id, assignee);
      expect(refused.status, String(assignee)).toBe(400);
      if (typeof assignee === 'string' && assignee) expect(refused.body.message).toBe(whatsappMessages.assigneeInvalid);
    }
    expect(await conversationItem(id)).toEqual(before);
  });

  it('Mine / Unassigned / All per person: assignee=me is the caller’s own, in the board and the list', async () => {
    const hers = await customerConversation('Pilar Gómez');
    const owners = await customerConversation('Andrés López');
    const nobodys = await customerConversation('Begoña Sáez');
    await assign(team.ownerToken, hers, team.luciaId);
    await assign(team.ownerToken, owners, team.accountId);

    const scope = (ids: string[]) => ids.filter((i) => [hers, owners, nobodys].includes(i));
    expect(scope(await activeIds(team.luciaToken, '?assignee=me'))).toEqual([hers]);
    expect(scope(await activeIds(team.ownerToken, '?assignee=me'))).toEqual([owners]);
    expect(scope(await listIds(team.luciaToken, '?assignee=me'))).toEqual([hers]);
    expect(scope(await listIds(team.ownerToken, '?assignee=me'))).toEqual([owners]);
    expect(scope(await activeIds(team.luciaToken, '?assignee=none'))).toEqual([nobodys]);
    expect(scope(await activeIds(team.luciaToken, '?assignee=all'))).toEqual([hers, owners, nobodys].sort());
    // The stranger's own account has none of them.
    expect(scope(await listIds(team.stranger.session.token, ''))).toEqual([]);
  });
});

describe('who sent each human message', () => {
  it('a reply stores the member and her name as of sending; the thread shows it to everyone in the account', async () => {
    const id = await customerConversation('Rocío Martínez');

    const hers = await api<ConversationMessage>('POST', `/api/conversations/${id}/messages`, { token: team.luciaToken, body: { text: 'Sí, a las 10:30. ¡Te esperamos!' } });
    expect(hers.status).toBe(201);
    expect(hers.body.data?.sender).toEqual({ kind: 'member', _id: team.luciaId, name: 'Lucía Martín' });
    const owners = await api<ConversationMessage>('POST', `/api/conversations/${id}/messages`, { token: team.ownerToken, body: { text: 'Confirmado' } });
    expect(owners.body.data?.sender).toEqual({ kind: 'member', _id: team.accountId, name: 'Marta Dueña' });

    // Stored with the message (not looked up when read).
    const stored = await getItem(`USER#${team.accountId}#CONV#${id}`, `MSG#${hers.body.data!._id.split('-')[1]}`);
    expect(stored).toMatchObject({ sentBy: 'human', sender: { kind: 'member', id: team.luciaId, name: 'Lucía Martín' } });

    const detail = await api<ConversationDetail>('GET', `/api/conversations/${id}`, { token: team.ownerToken });
    const senders = detail.body.data?.messages.filter((m) => m.fromMe).map((m) => m.sender?.name);
    expect(senders).toEqual(['Lucía Martín', 'Marta Dueña']);
    // The customer's message has none.
    expect(detail.body.data?.messages.find((m) => !m.fromMe)?.sender).toBeUndefined();
  });

  it('a template sent once the window closed stores its sender too', async () => {
    const business = { phoneId: team.wa.phoneId, phoneNumber: team.wa.phoneNumber };
    const conv = await openConversation(team.accountId, business, { waId: spanishWaId(), name: 'Carmen Ortiz' });
    await inbound(team.accountId, business, conv, { body: '¿Me dais cita?', at: new Date(Date.now() - 30 * 3600_000) });
    await seedGraphTemplates(team.wa.businessId, [{ name: 'cita_recordatorio', language: 'es', components: [{ type: 'BODY', text: 'Hola {{1}}, ¿seguimos con tu cita?' }] }], team.wa.phoneId);

    const sent = await api<ConversationMessage>('POST', `/api/conversations/${conv.id}/template`, {
      token: team.luciaToken,
      body: { name: 'cita_recordatorio', language: 'es', parameters: ['Carmen'] },
    });
    expect(sent.status, sent.body.message).toBe(201);
    expect(sent.body.data).toMatchObject({ type: 'template', sentBy: 'human', sender: { kind: 'member', _id: team.luciaId, name: 'Lucía Martín' } });
  });

  it('a reply with a file (attachment) stores its sender too', async () => {
    const id = await customerConversation('Elena Fernández');
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n% Presupuesto\n'), Buffer.alloc(512, 7), Buffer.from('\n%%EOF\n')]);
    const fileName = 'Presupuesto limpieza.pdf';
    const ticket = await api<AttachmentUploadTicket>('POST', `/api/conversations/${id}/attachments`, {
      token: team.luciaToken,
      body: { fileName, mimeType: 'application/pdf', size: bytes.length },
    });
    expect(ticket.status, ticket.body.message).toBe(201);
    expect((await postToTicket(ticket.body.data!, bytes)).status).toBeLessThan(300);

    const sent = await api<ConversationMessage>('POST', `/api/conversations/${id}/messages`, {
      token: team.luciaToken,
      body: { text: 'Te mando el presupuesto', attachment: { uploadId: ticket.body.data!.uploadId } },
    });
    expect(sent.status, sent.body.message).toBe(201);
    expect(sent.body.data).toMatchObject({ type: 'document', sender: { kind: 'member', _id: team.luciaId, name: 'Lucía Martín' } });
  });

  it('an API key’s reply stores the key and its name', async () => {
    const id = await customerConversation('Nuria Peña');
    const created = await api<CreatedApiKey>('POST', '/api/api-keys', { token: team.ownerToken, body: { name: 'CRM de la clínica' } });
    expect(created.status).toBe(201);
    const { key, apiKey } = created.body.data!;

    const sent = await api<ConversationMessage>('POST', `/api/conversations/${id}/messages`, {
      headers: { authorization: `Bearer ${key}` },
      body: { text: 'Recordatorio de tu cita' },
    });
    expect(sent.status, sent.body.message).toBe(201);
    expect(sent.body.data?.sender).toEqual({ kind: 'apiKey', _id: apiKey._id, name: 'CRM de la clínica' });
  });

  it('a member removed while her token lives cannot reply (403, nothing stored) nor be assigned', async () => {
    const id = await customerConversation('Sergio Ibáñez');
    const leaving = await registerUser({ name: 'Ángela Ruiz', email: uniqueEmail('ángela') });
    await join(team.accountId, leaving, 'agent');
    const refreshed = await post<RefreshedSession>('/api/refresh-token', { refreshToken: leaving.session.refreshToken });
    const token = refreshed.body.data!.token;
    // Removed: what the team service does to her member item (her access token still lives up to 5 minutes).
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${team.accountId}`, sk: `MEMBER#${leaving.session.user._id}` },
        UpdateExpression: 'SET #state = :removed',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':removed': 'removed' },
      }),
    );
    const before = await conversationItem(id);

    const refused = await api('POST', `/api/conversations/${id}/messages`, { token, body: { text: 'Hola' } });
    expect(refused.status).toBe(403);
    expect(await conversationItem(id)).toEqual(before);
    expect((await assign(team.ownerToken, id, leaving.session.user._id)).status).toBe(400);
  });
});
