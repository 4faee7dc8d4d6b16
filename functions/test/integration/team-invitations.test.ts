/**
 * Invitations end to end (issue 32): sent by an admin or the owner, e-mailed through the
 * outbound-email queue in the invitee's language with a link whose token is stored only as its
 * SHA-256, previewed publicly, accepted by the invited person — a new e-mail that signs up the
 * normal way, or an existing login — and refused (with nothing changed) when expired, revoked,
 * already used, for another e-mail, for a member of another account or an owner of a paid account.
 */
import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { teamMessages, type Invitation, type InvitationPreview, type JoinedAccount, type TeamView } from '../../src/contract/team.js';
import { api, db, get, getItem, itemsOf, registerUser, tableName, uniqueEmail, until } from '../support/api.js';
import { grantSubscription } from '../support/billing.js';
import { accept, claimsOf, invitationLinks, invitationMail, invitationToken, invite, invited, joinedMember, ownerOn, refreshed, teamItems } from '../support/team.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const preview = (token: string) => get<InvitationPreview>(`/api/invitations/${token}`);
const teamOf = (token: string) => get<TeamView>('/api/team', token);
const activity = async (accountId: string, action: string) =>
  (await itemsOf(`USER#${accountId}`)).filter((i) => String(i.sk).startsWith('ACTIVITY#') && i.action === action);
const setLanguage = (personId: string, language: 'en' | 'es') =>
  db().send(new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${personId}`, sk: 'PROFILE' }, UpdateExpression: 'SET #l = :l', ExpressionAttributeNames: { '#l': 'language' }, ExpressionAttributeValues: { ':l': language } }));
/** Moves an invitation past its 7 days (and its e-mail's pending slot with it). */
async function expire(accountId: string, invitation: Invitation): Promise<void> {
  const past = new Date(Date.now() - 60_000).toISOString();
  await db().send(new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${accountId}`, sk: `INVITE#${invitation._id}` }, UpdateExpression: 'SET validUntil = :p', ExpressionAttributeValues: { ':p': past } }));
  await db().send(
    new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${accountId}`, sk: `INVITEMAIL#${sha256(invitation.email)}` }, UpdateExpression: 'SET validUntil = :p', ExpressionAttributeValues: { ':p': past } }),
  );
}

describe('invite → accept', () => {
  it('a new e-mail: mailed in the inviter’s Spanish with its link (only the hash at rest), previewed, signed up the normal way, accepted; the refreshed token carries the account', async () => {
    const owner = await ownerOn('starter', 'Clínica Peña');
    await setLanguage(owner.accountId, 'es');
    const email = uniqueEmail('lucía.martín');

    const sent = await invite(owner.token, email, 'agent');

    expect(sent.status, sent.body.message).toBe(201);
    expect(sent.body.message).toBe(teamMessages.invited);
    const invitation = sent.body.data!;
    expect(invitation).toMatchObject({ email, role: 'agent', state: 'pending', invitedBy: { _id: owner.accountId, name: 'Clínica Peña' } });
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * 86_400_000);
    const mail = await invitationMail(email);
    expect(mail.subject).toBe('Clínica Peña te ha invitado a Clínica Peña en AgentDesk');
    expect(mail.body.text).toContain('con el rol de agente');
    const token = await invitationToken(email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // At rest: the invitation and its lookup hold the token's SHA-256, never the token.
    expect(await getItem(`USER#${owner.accountId}`, `INVITE#${invitation._id}`)).toMatchObject({
      tokenHash: sha256(token),
      state: 'pending',
      language: 'es',
      validUntil: invitation.expiresAt,
      // The table's TTL: kept 30 days after the link expired.
      expiresAt: Math.floor(Date.parse(invitation.expiresAt) / 1000) + 30 * 86_400,
    });
    expect(await getItem(`INVITETOKEN#${sha256(token)}`, 'INVITE')).toMatchObject({ accountId: owner.accountId, inviteId: invitation._id });
    for (const item of await itemsOf(`USER#${owner.accountId}`)) expect(JSON.stringify(item)).not.toContain(token);

    const before = await preview(token);
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ accountName: 'Clínica Peña', invitedBy: 'Clínica Peña', email, role: 'agent', state: 'pending', expiresAt: invitation.expiresAt, hasLogin: false });

    // The invitee signs up through the normal sign-up (the code from the SES mailbox), then accepts.
    const lucia = await registerUser({ email, name: 'Lucía Martín' });
    expect((await preview(token)).body.data?.hasLogin).toBe(true);
    const joined = await accept(lucia.session.token, token);

    expect(joined.status, joined.body.message).toBe(200);
    expect(joined.body).toMatchObject({ message: teamMessages.joined, data: { accountId: owner.accountId, role: 'agent', refreshRequired: true } satisfies JoinedAccount });
    const personId = lucia.session.user._id;
    expect(await getItem(`USER#${owner.accountId}`, 'TEAM')).toMatchObject({ seatsUsed: 2, ownerId: owner.accountId });
    expect(await getItem(`USER#${owner.accountId}`, `MEMBER#${personId}`)).toMatchObject({ role: 'agent', state: 'active', name: 'Lucía Martín', email });
    expect(await getItem(`PERSON#${personId}`, 'MEMBERSHIP')).toMatchObject({ accountId: owner.accountId, role: 'agent' });
    expect(await getItem(`USER#${owner.accountId}`, `INVITE#${invitation._id}`)).toMatchObject({ state: 'accepted', acceptedBy: personId });
    expect(await getItem(`USER#${owner.accountId}`, `INVITEMAIL#${sha256(email)}`)).toBeUndefined();
    expect((await preview(token)).body.data?.state).toBe('accepted');

    const memberToken = await refreshed(lucia.session);
    expect(claimsOf(memberToken)).toEqual({ account: owner.accountId, role: 'agent', sub: personId });
    const seen = await teamOf(memberToken);
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({ accountId: owner.accountId, you: { _id: personId, role: 'agent' }, invitations: [], seats: { used: 2, limit: 2 } });
    expect(seen.body.data!.members.map((m) => [m.name, m.role])).toEqual([
      ['Clínica Peña', 'owner'],
      ['Lucía Martín', 'agent'],
    ]);
    const ownersView = (await teamOf(owner.token)).body.data!;
    expect(ownersView.invitations).toEqual([expect.objectContaining({ _id: invitation._id, state: 'accepted' })]);

    // Used once: the same link again changes nothing.
    const snapshot = await teamItems(owner.accountId, [personId]);
    const again = await accept(lucia.session.token, token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(teamMessages.invitationUsed);
    expect(await teamItems(owner.accountId, [personId])).toEqual(snapshot);
    // The log: one invitation, one join, by whom.
    expect(await activity(owner.accountId, 'member.invited')).toHaveLength(1);
    expect(await activity(owner.accountId, 'member.joined')).toEqual([expect.objectContaining({ actor: { kind: 'member', id: personId }, object: expect.objectContaining({ type: 'member', id: personId }) })]);
  });

  it('an existing login: the e-mail is in the invitee’s own language (Spanish) though the inviter’s is English, and the signed-in person accepts', async () => {
    const owner = await ownerOn('professional', 'Restaurante Olé');
    const existing = await registerUser({ name: 'Ramón Núñez' });
    await setLanguage(existing.session.user._id, 'es');

    const { token } = await invited(owner.token, existing.email, 'admin');

    expect((await invitationMail(existing.email)).subject).toBe('Restaurante Olé te ha invitado a Restaurante Olé en AgentDesk');
    expect((await preview(token)).body.data).toMatchObject({ hasLogin: true, role: 'admin' });
    const joined = await accept(existing.session.token, token);
    expect(joined.status, joined.body.message).toBe(200);
    expect(joined.body.data).toEqual({ accountId: owner.accountId, role: 'admin', refreshRequired: true });
    expect(claimsOf(await refreshed(existing.session))).toMatchObject({ account: owner.accountId, role: 'admin' });
  });

  it('an English inviter and a new e-mail: the e-mail is in English', async () => {
    const owner = await ownerOn('starter', 'Dental Studio');
    const email = uniqueEmail('new');
    await invited(owner.token, email);
    const mail = await invitationMail(email);
    expect(mail.subject).toBe('Dental Studio invited you to Dental Studio on AgentDesk');
    expect(mail.body.text).toMatch(/The link is valid for 7 days/);
  });
});

describe('refused invitations change nothing', () => {
  it('expired: previewed as expired, accepting answers 410; a new invitation to the same e-mail can be sent', async () => {
    const owner = await ownerOn('starter');
    const person = await registerUser({ name: 'Lucía Martín' });
    const { invitation, token } = await invited(owner.token, person.email);
    await expire(owner.accountId, invitation);
    const snapshot = await teamItems(owner.accountId, [person.session.user._id]);

    expect((await preview(token)).body.data?.state).toBe('expired');
    const res = await accept(person.session.token, token);

    expect(res.status).toBe(410);
    expect(res.body.message).toBe(teamMessages.invitationExpired);
    expect(await teamItems(owner.accountId, [person.session.user._id])).toEqual(snapshot);
    expect((await invite(owner.token, person.email)).status).toBe(201);
  });

  it('revoked: the link answers 410, revoking twice 409, and the e-mail can be invited again', async () => {
    const owner = await ownerOn('starter');
    const person = await registerUser({ name: 'Lucía Martín' });
    const { invitation, token } = await invited(owner.token, person.email);

    const revoked = await api('DELETE', `/api/team/invitations/${invitation._id}`, { token: owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.message).toBe(teamMessages.invitationRevokedDone);
    expect((await preview(token)).body.data?.state).toBe('revoked');
    const snapshot = await teamItems(owner.accountId, [person.session.user._id]);

    const res = await accept(person.session.token, token);
    expect(res.status).toBe(410);
    expect(res.body.message).toBe(teamMessages.invitationRevoked);
    const twice = await api('DELETE', `/api/team/invitations/${invitation._id}`, { token: owner.token });
    expect(twice.status).toBe(409);
    expect(await teamItems(owner.accountId, [person.session.user._id])).toEqual(snapshot);
    expect((await api('DELETE', '/api/team/invitations/01ARZ3NDEKTSV4RRFFQ69G5FAV', { token: owner.token })).status).toBe(404);
    expect((await invite(owner.token, person.email)).status).toBe(201);
    // Revoked once in the log (the refused second revoke is not an action).
    expect(await activity(owner.accountId, 'member.invitation_revoked')).toHaveLength(1);
  });

  it('another e-mail: 403 naming the invited address; unknown and malformed links: 404', async () => {
    const owner = await ownerOn('starter');
    const email = uniqueEmail('invited');
    const { token } = await invited(owner.token, email);
    const stranger = await registerUser({ name: 'Otra Persona' });
    const snapshot = await teamItems(owner.accountId, [stranger.session.user._id]);

    const res = await accept(stranger.session.token, token);

    expect(res.status).toBe(403);
    expect(res.body.message).toBe(teamMessages.invitationOtherEmail(email));
    expect(await teamItems(owner.accountId, [stranger.session.user._id])).toEqual(snapshot);
    const unknown = 'A'.repeat(43);
    expect((await preview(unknown)).status).toBe(404);
    expect((await preview(unknown)).body).toEqual({ success: false, message: teamMessages.invitationNotFound });
    expect((await preview('short')).status).toBe(404);
    expect((await accept(stranger.session.token, unknown)).status).toBe(404);
    expect((await accept(stranger.session.token, 'short')).status).toBe(400);
    expect((await accept('', token)).status).toBe(401);
    expect(await teamItems(owner.accountId, [stranger.session.user._id])).toEqual(snapshot);
  });

  it('a member of another account, or the owner of a paid account: 409, nothing written', async () => {
    const first = await ownerOn('starter', 'Primera');
    const member = await joinedMember(first);
    const second = await ownerOn('starter', 'Segunda');
    const { token } = await invited(second.token, member.user.email);
    const payer = await registerUser({ name: 'Dueña de pago' });
    await grantSubscription(payer.session.user._id, { plan: 'starter' });
    const forPayer = await invited(second.token, payer.email);
    const snapshot = await teamItems(second.accountId, [member.personId, payer.session.user._id]);

    const taken = await accept(member.user.session.token, token);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(teamMessages.memberOfAnotherAccount);
    const paying = await accept(payer.session.token, forPayer.token);
    expect(paying.status).toBe(409);
    expect(paying.body.message).toBe(teamMessages.ownsPaidAccount);
    expect(await teamItems(second.accountId, [member.personId, payer.session.user._id])).toEqual(snapshot);
    expect(await getItem(`PERSON#${member.personId}`, 'MEMBERSHIP')).toMatchObject({ accountId: first.accountId });
  });

  it('who may invite whom: an agent 403, a second invitation 409 alreadyInvited, a member 409 alreadyMember, a full account 409 seatsFull; an admin invites an admin', async () => {
    const owner = await ownerOn('professional');
    const agent = await joinedMember(owner, 'agent');
    const admin = await joinedMember(owner, 'admin', 'Marta Admin');
    const email = uniqueEmail('twice');
    expect((await invite(owner.token, email)).status).toBe(201);
    // Its e-mail sent first: the delivery state on the invitation is not what this test watches.
    await invitationToken(email);
    await until(async () => (await itemsOf(`USER#${owner.accountId}`)).every((i) => !String(i.sk).startsWith('INVITE#') || (i.emailDelivery as { state?: string } | undefined)?.state === 'sent'), 'the e-mail sent');
    const snapshot = await teamItems(owner.accountId);

    const byAgent = await invite(agent.token, uniqueEmail('x'));
    expect(byAgent.status).toBe(403);
    expect(byAgent.body.message).toBe(teamMessages.forbidden);
    const second = await invite(admin.token, email);
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(teamMessages.alreadyInvited);
    const member = await invite(owner.token, agent.user.email.toUpperCase());
    expect(member.status).toBe(409);
    expect(member.body.message).toBe(teamMessages.alreadyMember);
    const self = await invite(admin.token, owner.user.email);
    expect(self.body.message).toBe(teamMessages.alreadyMember);
    const badRole = await invite(owner.token, uniqueEmail('y'), 'owner' as never);
    expect(badRole.status).toBe(400);
    expect(badRole.body.message).toBe(teamMessages.roleInvalid);
    expect(await teamItems(owner.accountId)).toEqual(snapshot);
    expect((await invite(admin.token, uniqueEmail('admin2'), 'admin')).status).toBe(201);

    // No subscription: the owner alone, every seat taken.
    const alone = await ownerOn(null);
    const full = await invite(alone.token, uniqueEmail('z'));
    expect(full.status).toBe(409);
    expect(full.body.message).toBe(teamMessages.seatsFull(1));
    expect(await teamItems(alone.accountId)).toEqual([]);
  });

  it('resend: a new link valid 7 days from now is mailed, the old link stops at once', async () => {
    const owner = await ownerOn('starter');
    const person = await registerUser({ name: 'Lucía Martín' });
    const { invitation, token: oldToken } = await invited(owner.token, person.email);

    const res = await api<Invitation>('POST', `/api/team/invitations/${invitation._id}/resend`, { token: owner.token });

    expect(res.status, res.body.message).toBe(200);
    expect(Date.parse(res.body.data!.expiresAt)).toBeGreaterThanOrEqual(Date.parse(invitation.expiresAt));
    const newToken = await invitationToken(person.email, 2);
    expect(newToken).not.toBe(oldToken);
    expect(await invitationLinks(person.email)).toHaveLength(2);
    expect((await preview(oldToken)).status).toBe(404);
    expect((await accept(person.session.token, oldToken)).status).toBe(404);
    expect(await getItem(`INVITETOKEN#${sha256(oldToken)}`, 'INVITE')).toBeUndefined();
    const joined = await accept(person.session.token, newToken);
    expect(joined.status, joined.body.message).toBe(200);
    const after = await api('POST', `/api/team/invitations/${invitation._id}/resend`, { token: owner.token });
    expect(after.status).toBe(409);
    expect(after.body.message).toBe(teamMessages.invitationUsed);
  });
});
