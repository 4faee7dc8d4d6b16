/**
 * Seats per plan under concurrency (issue 32): ten people accept ten invitations at the same
 * moment; the seat counter's condition inside each join transaction lets exactly the free seats
 * in (Starter 2 with the owner: 1; Professional 5: 4) and every other accept is a 409 that wrote
 * nothing — no member item, no pointer, the invitation still pending.
 */
import { describe, expect, it } from 'vitest';
import type { PlanId } from '../../src/contract/billing.js';
import { SEATS_BY_PLAN, teamMessages, type TeamView } from '../../src/contract/team.js';
import { get, getItem, registerUser, type RegisteredUser } from '../support/api.js';
import { accept, invite, invited, ownerOn } from '../support/team.js';

const PEOPLE = 10;

async function raceFor(plan: PlanId): Promise<void> {
  const owner = await ownerOn(plan);
  const people: RegisteredUser[] = [];
  for (let i = 0; i < PEOPLE; i++) people.push(await registerUser({ name: `Persona ${i + 1}` }));
  const links: { person: RegisteredUser; token: string; invitationId: string }[] = [];
  for (const person of people) {
    const { invitation, token } = await invited(owner.token, person.email);
    links.push({ person, token, invitationId: invitation._id });
  }
  const free = SEATS_BY_PLAN[plan] - 1;

  const answers = await Promise.all(links.map(({ person, token }) => accept(person.session.token, token)));

  const joined = links.filter((_, i) => answers[i]!.status === 200);
  const refused = answers.filter((a) => a.status !== 200);
  expect(joined).toHaveLength(free);
  expect(refused.map((a) => [a.status, a.body.message])).toEqual(Array.from({ length: PEOPLE - free }, () => [409, teamMessages.seatsFullForInvitee]));
  expect(await getItem(`USER#${owner.accountId}`, 'TEAM')).toMatchObject({ seatsUsed: SEATS_BY_PLAN[plan], ownerId: owner.accountId });
  for (const { person, invitationId } of links) {
    const personId = person.session.user._id;
    const isIn = joined.some((j) => j.person === person);
    const member = await getItem(`USER#${owner.accountId}`, `MEMBER#${personId}`);
    const pointer = await getItem(`PERSON#${personId}`, 'MEMBERSHIP');
    const invitation = await getItem(`USER#${owner.accountId}`, `INVITE#${invitationId}`);
    if (isIn) {
      expect(member).toMatchObject({ state: 'active', role: 'agent' });
      expect(pointer).toMatchObject({ accountId: owner.accountId, role: 'agent' });
      expect(invitation?.state).toBe('accepted');
    } else {
      // A refused accept wrote nothing: the invitation still waits for a seat.
      expect(member).toBeUndefined();
      expect(pointer).toBeUndefined();
      expect(invitation?.state).toBe('pending');
    }
  }
  const view = (await get<TeamView>('/api/team', owner.token)).body.data!;
  expect(view.members).toHaveLength(SEATS_BY_PLAN[plan]);
  expect(view.seats).toEqual({ used: SEATS_BY_PLAN[plan], limit: SEATS_BY_PLAN[plan] });
  // Full now: inviting answers seatsFull.
  const more = await invite(owner.token, 'one-more@example.com');
  expect(more.status).toBe(409);
  expect(more.body.message).toBe(teamMessages.seatsFull(SEATS_BY_PLAN[plan]));
}

describe('seats under 10 parallel accepts', () => {
  it('Starter (2 seats, the owner included): exactly 1 joins, 9 × 409 seatsFull', async () => {
    await raceFor('starter');
  }, 120_000);

  it('Professional (5 seats): exactly 4 join, 6 × 409 seatsFull', async () => {
    await raceFor('professional');
  }, 120_000);
});
