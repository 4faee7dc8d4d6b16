/**
 * Who did what (issue 32): the activity log records each team action and a member's reply once,
 * by whom, and reads back newest first with names resolved — a removed member's too —, filtered
 * by member, action and time, page by page; only owners and admins read it, and no route edits or
 * deletes an entry.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVITY_PAGE_SIZE, teamMessages, type ActivityPage } from '../../src/contract/team.js';
import { DynamoActivityLog } from '../../src/adapters/dynamo/team-activity.js';
import { api, db, get, itemsOf, tableName, uniqueEmail } from '../support/api.js';
import { inbound, openConversation, spanishWaId } from '../support/conversations.js';
import { connectWhatsApp } from '../support/whatsapp.js';
import { invite, joinedMember, ownerOn } from '../support/team.js';

const activityItems = async (accountId: string) => (await itemsOf(`USER#${accountId}`)).filter((i) => String(i.sk).startsWith('ACTIVITY#'));
const page = (token: string, query = '') => get<ActivityPage>(`/api/team/activity${query}`, token);
const TEAM_ACTIONS = ['member.invited', 'member.invitation_revoked', 'member.joined', 'member.role_changed', 'member.removed', 'conversation.replied'];

describe('the activity log', () => {
  it('records invite, revoke, join, a reply, a role change and a removal once each, by whom; names resolve after the removal; filters; agents cannot read it; no route edits or deletes an entry', async () => {
    const owner = await ownerOn('professional', 'Clínica Peña');
    const agent = await joinedMember(owner, 'agent', 'Ramón Núñez');
    const lucia = await joinedMember(owner, 'agent', 'Lucía Martín');
    const revokedInvite = await invite(owner.token, uniqueEmail('revocada'));
    expect((await api('DELETE', `/api/team/invitations/${revokedInvite.body.data!._id}`, { token: owner.token })).status).toBe(200);
    // Lucía answers a customer from the inbox.
    const wa = await connectWhatsApp(owner.token, { phoneNumber: `+3491${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` });
    const business = { phoneId: wa.phoneId, phoneNumber: wa.phoneNumber };
    const conv = await openConversation(owner.accountId, business, { waId: spanishWaId(), name: 'Carmen Ortiz' });
    await inbound(owner.accountId, business, conv, { body: '¿Tenéis cita mañana?', at: new Date(Date.now() - 60_000) });
    const replied = await api('POST', `/api/conversations/${conv.id}/messages`, { token: lucia.token, body: { text: 'Sí, a las 10:30.' } });
    expect(replied.status, replied.body.message).toBe(201);
    expect((await api('PUT', `/api/team/members/${lucia.personId}/role`, { token: owner.token, body: { role: 'admin' } })).status).toBe(200);
    expect((await api('DELETE', `/api/team/members/${lucia.personId}`, { token: owner.token })).status).toBe(200);

    const stored = (await activityItems(owner.accountId)).filter((i) => TEAM_ACTIONS.includes(String(i.action)));
    const count = (action: string) => stored.filter((i) => i.action === action).length;
    expect(TEAM_ACTIONS.map((a) => [a, count(a)])).toEqual([
      ['member.invited', 3],
      ['member.invitation_revoked', 1],
      ['member.joined', 2],
      ['member.role_changed', 1],
      ['member.removed', 1],
      ['conversation.replied', 1],
    ]);
    expect(stored.find((i) => i.action === 'conversation.replied')).toMatchObject({ actor: { kind: 'member', id: lucia.personId }, object: { type: 'conversation', id: conv.id } });
    expect(stored.find((i) => i.action === 'member.removed')).toMatchObject({ actor: { kind: 'member', id: owner.accountId }, object: { type: 'member', id: lucia.personId } });
    // Kept a year: the table's TTL attribute (epoch seconds).
    for (const item of stored) expect(Number(item.expiresAt) - Date.parse(String(item.at)) / 1000).toBeCloseTo(365 * 86_400, -1);

    // Read back, newest first, names resolved (Lucía is removed: her name still shows).
    const all = await page(owner.token);
    expect(all.status, all.body.message).toBe(200);
    const entries = all.body.data!.entries;
    expect(entries.map((e) => e.at)).toEqual([...entries.map((e) => e.at)].sort().reverse());
    expect(entries[0]).toMatchObject({ action: 'member.removed', actor: { kind: 'member', _id: owner.accountId, name: 'Clínica Peña', email: owner.user.email } });
    expect(entries.find((e) => e.action === 'conversation.replied')?.actor).toEqual({ kind: 'member', _id: lucia.personId, name: 'Lucía Martín', email: lucia.user.email });

    const byAction = await page(owner.token, '?action=conversation.replied');
    expect(byAction.body.data!.entries.map((e) => e.action)).toEqual(['conversation.replied']);
    const byMember = (await page(owner.token, `?member=${lucia.personId}`)).body.data!.entries;
    expect(byMember.length).toBeGreaterThan(0);
    expect(byMember.every((e) => e.actor.kind === 'member' && e.actor._id === lucia.personId)).toBe(true);
    expect(byMember.map((e) => e.action)).toEqual(expect.arrayContaining(['member.joined', 'conversation.replied']));
    const replyAt = entries.find((e) => e.action === 'conversation.replied')!.at;
    const window = (await page(owner.token, `?from=${encodeURIComponent(replyAt)}&to=${encodeURIComponent(replyAt)}`)).body.data!.entries;
    expect(window.map((e) => e.action)).toContain('conversation.replied');
    expect(window.every((e) => e.at === replyAt)).toBe(true);
    expect((await page(owner.token, `?from=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`)).body.data).toEqual({ entries: [], cursor: null });
    const badFilter = await page(owner.token, '?action=member.deleted_everything');
    expect([badFilter.status, badFilter.body.message]).toEqual([400, teamMessages.activityFilterInvalid]);
    const badRange = await page(owner.token, '?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z');
    expect(badRange.status).toBe(400);

    // Agents do not read it.
    const byAgent = await page(agent.token);
    expect([byAgent.status, byAgent.body.message]).toEqual([403, teamMessages.forbidden]);

    // Append-only: no route edits or deletes an entry, whoever asks.
    const before = await activityItems(owner.accountId);
    const id = entries[0]!._id;
    for (const method of ['PUT', 'DELETE', 'PATCH', 'POST']) {
      for (const path of [`/api/team/activity/${id}`, '/api/team/activity']) {
        if (method === 'POST' && path === '/api/team/activity') continue;
        const res = await api(method, path, { token: owner.token, body: method === 'DELETE' ? undefined : { action: 'member.joined' } });
        expect([404, 405], `${method} ${path}`).toContain(res.status);
      }
    }
    const del = await api('DELETE', '/api/team/activity', { token: owner.token });
    expect([404, 405]).toContain(del.status);
    expect(await activityItems(owner.accountId)).toEqual(before);
  }, 120_000);

  it('pages: ACTIVITY_PAGE_SIZE at a time, newest first, with a cursor to the next page and none after the last; another account’s cursor starts over', async () => {
    const owner = await ownerOn('starter');
    const log = new DynamoActivityLog(db(), tableName());
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < ACTIVITY_PAGE_SIZE + 7; i++) {
      await log.append(owner.accountId, { action: 'contact.created', actor: { kind: 'member', id: owner.accountId }, object: { type: 'contact', id: `c${i}` } }, new Date(start + i * 1000));
    }
    const query = '?action=contact.created';

    const first = (await page(owner.token, query)).body.data!;
    expect(first.entries).toHaveLength(ACTIVITY_PAGE_SIZE);
    expect(first.entries[0]!.object?.id).toBe(`c${ACTIVITY_PAGE_SIZE + 6}`);
    expect(first.cursor).toEqual(expect.any(String));
    const second = (await page(owner.token, `${query}&cursor=${encodeURIComponent(first.cursor!)}`)).body.data!;
    expect(second.entries.map((e) => e.object?.id)).toEqual(['c6', 'c5', 'c4', 'c3', 'c2', 'c1', 'c0']);
    expect(second.cursor).toBeNull();
    const ids = new Set([...first.entries, ...second.entries].map((e) => e._id));
    expect(ids.size).toBe(ACTIVITY_PAGE_SIZE + 7);

    // A cursor of another account is not followed there: its page starts from the newest.
    const other = await ownerOn('starter');
    const foreign = (await page(other.token, `?cursor=${encodeURIComponent(first.cursor!)}`)).body.data!;
    expect(foreign.entries.every((e) => e.object?.type !== 'contact')).toBe(true);
  }, 120_000);
});
