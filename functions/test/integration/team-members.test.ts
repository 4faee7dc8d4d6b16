/**
 * The people of an account after they joined (issue 32): a role change (member item and pointer
 * together, in the token's claims after a refresh), removal (signed out everywhere at once — the
 * next refresh fails —, their conversations back to Unassigned, their access token refused by the
 * team routes), leaving, and ownership transfer; each refusal changes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/contract/whatsapp.js';
import { teamMessages, type JoinedAccount, type Member, type TeamView } from '../../src/contract/team.js';
import { api, get, getItem, itemsOf, post } from '../support/api.js';
import { inbound, openConversation, spanishWaId } from '../support/conversations.js';
import { connectWhatsApp } from '../support/whatsapp.js';
import { claimsOf, joinedMember, ownerOn, refresh, refreshed, teamItems, type Owner } from '../support/team.js';

const teamOf = (token: string) => get<TeamView>('/api/team', token);
const setRole = (token: string, personId: string, role: string) => api<Member>('PUT', `/api/team/members/${personId}/role`, { token, body: { role } });
const removeMember = (token: string, personId: string) => api('DELETE', `/api/team/members/${personId}`, { token });
const logged = async (accountId: string, action: string) => (await itemsOf(`USER#${accountId}`)).filter((i) => String(i.sk).startsWith('ACTIVITY#') && i.action === action);

/** Customers' conversations in the account, each assigned (through the API) to one person. */
async function assignedConversations(owner: Owner, assignees: string[]): Promise<string[]> {
  const wa = await connectWhatsApp(owner.token, { phoneNumber: `+3491${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` });
  const business = { phoneId: wa.phoneId, phoneNumber: wa.phoneNumber };
  const ids: string[] = [];
  for (const [i, assignee] of assignees.entries()) {
    const conv = await openConversation(owner.accountId, business, { waId: spanishWaId(), name: `Cliente ${i + 1}` });
    await inbound(owner.accountId, business, conv, { body: 'Hola, ¿tenéis cita?', at: new Date(Date.now() - 60_000) });
    const res = await api<Conversation>('PUT', `/api/conversations/${conv.id}`, { token: owner.token, body: { assignee } });
    if (res.status !== 200) throw new Error(`assign failed: ${res.status} ${res.body.message}`);
    ids.push(conv.id);
  }
  return ids;
}
const assigneeOf = async (accountId: string, id: string) => (await getItem(`USER#${accountId}`, `CONV#${id}`))?.assignee ?? null;

describe('role change', () => {
  it('the owner makes an agent an admin: member item and pointer, the new role in her token after a refresh; nobody changes their own or the owner’s role', async () => {
    const owner = await ownerOn('professional');
    const lucia = await joinedMember(owner, 'agent', 'Lucía Martín');
    const ramon = await joinedMember(owner, 'agent', 'Ramón Núñez');

    const res = await setRole(owner.token, lucia.personId, 'admin');

    expect(res.status, res.body.message).toBe(200);
    expect(res.body.message).toBe(teamMessages.roleChanged);
    expect(res.body.data).toMatchObject({ _id: lucia.personId, name: 'Lucía Martín', role: 'admin' });
    expect(await getItem(`USER#${owner.accountId}`, `MEMBER#${lucia.personId}`)).toMatchObject({ role: 'admin', state: 'active' });
    expect(await getItem(`PERSON#${lucia.personId}`, 'MEMBERSHIP')).toMatchObject({ accountId: owner.accountId, role: 'admin' });
    const luciaAdmin = await refreshed(lucia.user.session);
    expect(claimsOf(luciaAdmin)).toMatchObject({ account: owner.accountId, role: 'admin' });

    const snapshot = await teamItems(owner.accountId, [lucia.personId, ramon.personId]);
    const own = await setRole(luciaAdmin, lucia.personId, 'agent');
    expect([own.status, own.body.message]).toEqual([403, teamMessages.cannotChangeOwnRole]);
    const ownerRole = await setRole(luciaAdmin, owner.accountId, 'agent');
    expect([ownerRole.status, ownerRole.body.message]).toEqual([403, teamMessages.cannotChangeOwner]);
    const byAgent = await setRole(ramon.token, lucia.personId, 'agent');
    expect([byAgent.status, byAgent.body.message]).toEqual([403, teamMessages.forbidden]);
    const toOwner = await setRole(owner.token, ramon.personId, 'owner');
    expect([toOwner.status, toOwner.body.message]).toEqual([400, teamMessages.roleInvalid]);
    expect((await setRole(owner.token, 'no-such-person', 'admin')).status).toBe(404);
    expect(await teamItems(owner.accountId, [lucia.personId, ramon.personId])).toEqual(snapshot);
    // Lucía, now an admin, may change Ramón's.
    expect((await setRole(luciaAdmin, ramon.personId, 'admin')).status).toBe(200);
    expect(await logged(owner.accountId, 'member.role_changed')).toHaveLength(2);
  });
});

describe('removal', () => {
  it('ends the member’s sessions at once, unassigns her conversations, frees her seat; her still-valid access token changes nothing in the team', async () => {
    const owner = await ownerOn('starter');
    const lucia = await joinedMember(owner, 'admin', 'Lucía Martín');
    const [hers1, hers2, owners] = await assignedConversations(owner, [lucia.personId, lucia.personId, owner.accountId]);
    expect((await refresh(lucia.user.session.refreshToken)).status).toBe(200);

    const res = await removeMember(owner.token, lucia.personId);

    expect(res.status, res.body.message).toBe(200);
    expect(res.body.message).toBe(teamMessages.removed);
    // Signed out everywhere: the next refresh fails now, not in 5 minutes.
    expect((await refresh(lucia.user.session.refreshToken)).status).toBe(401);
    expect(await assigneeOf(owner.accountId, hers1!)).toBeNull();
    expect(await assigneeOf(owner.accountId, hers2!)).toBeNull();
    expect(await assigneeOf(owner.accountId, owners!)).toBe(owner.accountId);
    expect(await getItem(`USER#${owner.accountId}`, `MEMBER#${lucia.personId}`)).toMatchObject({ state: 'removed', name: 'Lucía Martín' });
    expect(await getItem(`PERSON#${lucia.personId}`, 'MEMBERSHIP')).toBeUndefined();
    expect(await getItem(`USER#${owner.accountId}`, 'TEAM')).toMatchObject({ seatsUsed: 1 });
    const view = (await teamOf(owner.token)).body.data!;
    expect(view.members.map((m) => m._id)).toEqual([owner.accountId]);
    expect(view.seats).toEqual({ used: 1, limit: 2 });

    // Her access token (valid up to 5 minutes) still names the account as admin: the team's
    // routes read her role from the team's items and refuse it.
    const snapshot = await teamItems(owner.accountId, [lucia.personId]);
    expect((await teamOf(lucia.token)).status).toBe(403);
    expect((await api('POST', '/api/team/invitations', { token: lucia.token, body: { email: 'x@example.com', role: 'admin' } })).status).toBe(403);
    expect((await removeMember(lucia.token, owner.accountId)).status).toBe(403);
    expect(await teamItems(owner.accountId, [lucia.personId])).toEqual(snapshot);
    // Removing her again, or the owner: nothing changes.
    expect((await removeMember(owner.token, lucia.personId)).status).toBe(404);
    const ownerRemoved = await removeMember(owner.token, owner.accountId);
    expect([ownerRemoved.status, ownerRemoved.body.message]).toEqual([403, teamMessages.cannotRemoveOwner]);
    expect(await teamItems(owner.accountId, [lucia.personId])).toEqual(snapshot);
    expect(await logged(owner.accountId, 'member.removed')).toHaveLength(1);
    // Her seat is free again: she can be invited back and rejoin.
    const back = await joinedMember(owner, 'agent', 'Otra Persona');
    expect(back.personId).not.toBe(lucia.personId);
  });

  it('an agent cannot remove anyone (403, nothing changed)', async () => {
    const owner = await ownerOn('professional');
    const agent = await joinedMember(owner, 'agent');
    const other = await joinedMember(owner, 'agent', 'Ramón Núñez');
    const snapshot = await teamItems(owner.accountId, [agent.personId, other.personId]);
    const res = await removeMember(agent.token, other.personId);
    expect([res.status, res.body.message]).toEqual([403, teamMessages.forbidden]);
    expect(await teamItems(owner.accountId, [agent.personId, other.personId])).toEqual(snapshot);
    expect((await refresh(other.user.session.refreshToken)).status).toBe(200);
  });
});

describe('leaving', () => {
  it('a member leaves: her seat is freed, her conversations unassigned, her next token is her own account’s; the owner cannot leave', async () => {
    const owner = await ownerOn('starter');
    const lucia = await joinedMember(owner, 'agent');
    const [hers] = await assignedConversations(owner, [lucia.personId]);

    const res = await post<JoinedAccount>('/api/team/leave', undefined, lucia.token);

    expect(res.status, res.body.message).toBe(200);
    expect(res.body).toMatchObject({ message: teamMessages.left, data: { accountId: lucia.personId, role: 'owner', refreshRequired: true } });
    expect(await getItem(`USER#${owner.accountId}`, `MEMBER#${lucia.personId}`)).toMatchObject({ state: 'removed' });
    expect(await getItem(`PERSON#${lucia.personId}`, 'MEMBERSHIP')).toBeUndefined();
    expect(await getItem(`USER#${owner.accountId}`, 'TEAM')).toMatchObject({ seatsUsed: 1 });
    expect(await assigneeOf(owner.accountId, hers!)).toBeNull();
    expect(claimsOf(await refreshed(lucia.user.session))).toMatchObject({ account: lucia.personId, role: 'owner' });
    expect(await logged(owner.accountId, 'member.left')).toHaveLength(1);

    const snapshot = await teamItems(owner.accountId, [lucia.personId]);
    const ownerLeaves = await post('/api/team/leave', undefined, owner.token);
    expect([ownerLeaves.status, ownerLeaves.body.message]).toEqual([409, teamMessages.ownerCannotLeave]);
    expect(await teamItems(owner.accountId, [lucia.personId])).toEqual(snapshot);
  });
});

describe('ownership transfer', () => {
  it('the owner hands the account to an admin in one step: she is the owner, he stays as an admin; only to an admin, only by the owner', async () => {
    const owner = await ownerOn('professional', 'Pedro Peña');
    const lucia = await joinedMember(owner, 'admin', 'Lucía Martín');
    const ramon = await joinedMember(owner, 'agent', 'Ramón Núñez');
    const people = [owner.accountId, lucia.personId, ramon.personId];
    const snapshot = await teamItems(owner.accountId, people);

    const toAgent = await post('/api/team/ownership', { memberId: ramon.personId }, owner.token);
    expect([toAgent.status, toAgent.body.message]).toEqual([409, teamMessages.transferTargetInvalid]);
    const byAdmin = await post('/api/team/ownership', { memberId: lucia.personId }, lucia.token);
    expect(byAdmin.status).toBe(403);
    expect(await teamItems(owner.accountId, people)).toEqual(snapshot);

    const res = await post('/api/team/ownership', { memberId: lucia.personId }, owner.token);

    expect(res.status, res.body.message).toBe(200);
    expect(res.body.message).toBe(teamMessages.transferred);
    expect(await getItem(`USER#${owner.accountId}`, 'TEAM')).toMatchObject({ ownerId: lucia.personId, seatsUsed: 3 });
    expect(await getItem(`USER#${owner.accountId}`, `MEMBER#${lucia.personId}`)).toMatchObject({ role: 'owner', state: 'active' });
    expect(await getItem(`PERSON#${lucia.personId}`, 'MEMBERSHIP')).toMatchObject({ accountId: owner.accountId, role: 'owner' });
    expect(await getItem(`USER#${owner.accountId}`, `MEMBER#${owner.accountId}`)).toMatchObject({ role: 'admin', state: 'active' });
    expect(await getItem(`PERSON#${owner.accountId}`, 'MEMBERSHIP')).toMatchObject({ accountId: owner.accountId, role: 'admin' });
    const luciaOwner = await refreshed(lucia.user.session);
    expect(claimsOf(luciaOwner)).toMatchObject({ account: owner.accountId, role: 'owner' });
    const pedroAdmin = await refreshed(owner.user.session);
    expect(claimsOf(pedroAdmin)).toMatchObject({ account: owner.accountId, role: 'admin' });
    const view = (await teamOf(luciaOwner)).body.data!;
    expect(view.you).toEqual({ _id: lucia.personId, role: 'owner' });
    expect(view.members.map((m) => [m.name, m.role])).toEqual([
      ['Lucía Martín', 'owner'],
      ['Pedro Peña', 'admin'],
      ['Ramón Núñez', 'agent'],
    ]);
    // The old owner, with his owner's token still valid for a few minutes, cannot transfer again.
    const again = await post('/api/team/ownership', { memberId: lucia.personId }, owner.token);
    expect([again.status, again.body.message]).toEqual([403, teamMessages.ownerOnly]);
    expect(await logged(owner.accountId, 'account.ownership_transferred')).toHaveLength(1);
  });
});
