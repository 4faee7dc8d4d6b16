/**
 * The team in one account (issue 32): who is in it, invitations (sent, previewed, accepted,
 * revoked, resent), role changes, removal, leaving, ownership transfer, and the activity log's
 * read side.
 *
 * The route's role (the token's claim) lets a caller in; for what changes the team, the caller's
 * role is read again from the team's items (`actingRole`): a member removed or demoted a minute
 * ago still holds an access token with the old claim for up to 5 minutes, and must not use it to
 * invite, remove or promote anyone meanwhile. Seats are enforced by the repository's transaction
 * (the counter's condition), never by a count read here.
 */
import type { PlanId } from '../../contract/billing.js';
import {
  ACTIVITY_PAGE_SIZE,
  INVITATION_TOKEN_RE,
  INVITATION_TTL_DAYS,
  SEATS_BY_PLAN,
  SEATS_WITHOUT_PLAN,
  roleAtLeast,
  teamMessages,
  type ActivityEntry,
  type ActivityPage,
  type AssignableRole,
  type Invitation,
  type InvitationPreview,
  type InvitationState,
  type JoinedAccount,
  type Member,
  type MemberRole,
  type TeamView,
} from '../../contract/team.js';
import { ConflictError, ForbiddenError, GoneError, NotFoundError, ValidationError } from '../errors.js';
import type { IdentityProvider, UserRepository } from '../auth/ports.js';
import type { OutboundEmails } from '../notifications/emails.js';
import { isId, newId } from '../../lib/ids.js';
import type { ActivityLog, ConversationAssignees, MemberRecord, MembershipDirectory, StoredInvitation, TeamMembers, TeamRepository } from './ports.js';
import { hashInvitationToken, newInvitationToken } from './tokens.js';

export interface TeamServiceDeps {
  team: TeamRepository;
  members: TeamMembers;
  directory: MembershipDirectory;
  users: Pick<UserRepository, 'get' | 'findByEmail'>;
  /** The account's plan while its subscription is active or trialing; null otherwise. */
  currentPlan(accountId: string): Promise<PlanId | null>;
  /** What the invitee sees the account called (the business's name, else its owner's). */
  accountName(accountId: string): Promise<string>;
  /** The account's API keys by id → name (the log's actors). */
  apiKeyNames(accountId: string): Promise<Map<string, string>>;
  /** Signs a removed member out everywhere (the identity provider's global sign-out, as logout). */
  sessions: Pick<IdentityProvider, 'signOutEverywhere'>;
  conversations: ConversationAssignees;
  emails: Pick<OutboundEmails, 'queue' | 'restart'>;
  activity: ActivityLog;
  now?: () => number;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
}

const DAY_MS = 86_400_000;
/** Closed and expired invitations the team page still lists. */
const RECENT_INVITATIONS_MS = 30 * DAY_MS;

/** A person's id (a Cognito sub): a path parameter of another shape names nobody, read nothing. */
const PERSON_ID_RE = /^[A-Za-z0-9-]{1,64}$/;

const memberView = (m: MemberRecord): Member => ({ _id: m.personId, name: m.name, email: m.email, role: m.role, joinedAt: m.joinedAt });

export function invitationState(inv: StoredInvitation, nowMs: number): InvitationState {
  return inv.state === 'pending' && Date.parse(inv.expiresAt) <= nowMs ? 'expired' : inv.state;
}

export function createTeamService(deps: TeamServiceDeps) {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();

  async function seatLimit(accountId: string): Promise<number> {
    const plan = await deps.currentPlan(accountId);
    return plan ? SEATS_BY_PLAN[plan] : SEATS_WITHOUT_PLAN;
  }

  /** The caller's role as the team's items say now (null: not, or no longer, in the account). */
  async function actingRole(accountId: string, personId: string): Promise<MemberRole | null> {
    const [team, member] = await Promise.all([deps.team.team(accountId), deps.team.member(accountId, personId)]);
    if (team.ownerId === personId) return 'owner';
    return member?.state === 'active' ? member.role : null;
  }

  async function requireRole(accountId: string, personId: string, needed: MemberRole): Promise<MemberRole> {
    const role = await actingRole(accountId, personId);
    if (!role || !roleAtLeast(role, needed)) throw new ForbiddenError(needed === 'owner' ? teamMessages.ownerOnly : teamMessages.forbidden);
    return role;
  }

  function invitationView(inv: StoredInvitation, names: Map<string, { name: string }>): Invitation {
    return {
      _id: inv.id,
      email: inv.email,
      role: inv.role,
      state: invitationState(inv, now()),
      invitedBy: { _id: inv.invitedBy, name: names.get(inv.invitedBy)?.name ?? '' },
      createdAt: inv.createdAt,
      expiresAt: inv.expiresAt,
    };
  }

  /** The person's member item in the account (active or removed), or null; a malformed id reads nothing. */
  async function memberItem(accountId: string, personId: string) {
    return PERSON_ID_RE.test(personId) ? deps.team.member(accountId, personId) : null;
  }

  async function loadInvitation(accountId: string, id: string): Promise<StoredInvitation> {
    const inv = isId(id) ? await deps.team.invitation(accountId, id) : null;
    if (!inv) throw new NotFoundError(teamMessages.invitationNotFound);
    return inv;
  }

  /** The error of an invitation that can no longer be used, for the person holding its link. */
  function unusable(inv: StoredInvitation): Error | null {
    const state = invitationState(inv, now());
    if (state === 'revoked') return new GoneError(teamMessages.invitationRevoked);
    if (state === 'expired') return new GoneError(teamMessages.invitationExpired);
    if (state === 'accepted') return new ConflictError(teamMessages.invitationUsed);
    return null;
  }

  async function queueEmail(accountId: string, id: string, token: string, restart: boolean): Promise<void> {
    const ref = { kind: 'team-invitation' as const, userId: accountId, subjectId: id, token };
    try {
      await (restart ? deps.emails.restart(ref) : deps.emails.queue(ref));
    } catch (error) {
      // The invitation stands; its delivery reads 'failed' (not_queued) and Resend sends it again.
      deps.onError?.('Team: the invitation e-mail could not be queued', error, { accountId, invitationId: id });
    }
  }

  /** After a person left the account: their conversations back to Unassigned. */
  async function unassign(accountId: string, personId: string): Promise<void> {
    await deps.conversations.unassignAll(accountId, personId);
  }

  return {
    async view(accountId: string, callerId: string): Promise<TeamView> {
      const [records, team, limit] = await Promise.all([deps.members.list(accountId), deps.team.team(accountId), seatLimit(accountId)]);
      const you = records.find((r) => r.personId === callerId);
      if (!you) throw new ForbiddenError(teamMessages.forbidden);
      let invitations: Invitation[] = [];
      if (roleAtLeast(you.role, 'admin')) {
        const stored = await deps.team.invitations(accountId);
        const names = await deps.team.names(accountId, stored.map((i) => i.invitedBy));
        const at = now();
        const views = stored.map((i) => invitationView(i, names));
        const pending = views.filter((v) => v.state === 'pending');
        const recent = views.filter((v, i) => v.state !== 'pending' && Date.parse(stored[i]!.closedAt ?? stored[i]!.expiresAt) >= at - RECENT_INVITATIONS_MS);
        invitations = [...pending, ...recent];
      }
      return { accountId, you: { _id: callerId, role: you.role }, members: records.map(memberView), invitations, seats: { used: team.seatsUsed, limit } };
    },

    async invite(accountId: string, inviterId: string, input: { email: string; role: AssignableRole }): Promise<Invitation> {
      const inviterRole = await requireRole(accountId, inviterId, 'admin');
      // Nobody invites above their own role (only admin and agent can be given anyway).
      if (!roleAtLeast(inviterRole, input.role)) throw new ForbiddenError(teamMessages.forbidden);
      const email = input.email.trim().toLowerCase();
      const [team, limit, existing, inviter] = await Promise.all([deps.team.team(accountId), seatLimit(accountId), deps.users.findByEmail(email), deps.users.get(inviterId)]);
      if (existing) {
        if (existing.userId === team.ownerId) throw new ConflictError(teamMessages.alreadyMember);
        const member = await deps.team.member(accountId, existing.userId);
        if (member?.state === 'active') throw new ConflictError(teamMessages.alreadyMember);
      }
      if (team.seatsUsed >= limit) throw new ConflictError(teamMessages.seatsFull(limit));
      const at = now();
      const { token, tokenHash } = newInvitationToken();
      const invitation: StoredInvitation = {
        id: newId(at),
        accountId,
        email,
        role: input.role,
        state: 'pending',
        invitedBy: inviterId,
        createdAt: new Date(at).toISOString(),
        expiresAt: new Date(at + INVITATION_TTL_DAYS * DAY_MS).toISOString(),
        tokenHash,
        // The invitee's language when they have a login, else the inviter's.
        language: (existing?.language ?? inviter?.language) === 'es' ? 'es' : 'en',
      };
      const outcome = await deps.team.createInvitation(invitation, limit, invitation.createdAt);
      if (outcome === 'alreadyInvited') throw new ConflictError(teamMessages.alreadyInvited);
      if (outcome === 'seatsFull') throw new ConflictError(teamMessages.seatsFull(limit));
      await queueEmail(accountId, invitation.id, token, false);
      return invitationView(invitation, new Map([[inviterId, { name: inviter?.name ?? '' }]]));
    },

    async revoke(accountId: string, callerId: string, id: string): Promise<void> {
      await requireRole(accountId, callerId, 'admin');
      const inv = await loadInvitation(accountId, id);
      if (inv.state === 'accepted') throw new ConflictError(teamMessages.invitationUsed);
      if (inv.state === 'revoked' || !(await deps.team.revokeInvitation(accountId, id, iso()))) throw new ConflictError(teamMessages.invitationRevoked);
    },

    /** A new link (the old one stops at once), valid 7 days from now, e-mailed again. */
    async resend(accountId: string, callerId: string, id: string): Promise<Invitation> {
      await requireRole(accountId, callerId, 'admin');
      const inv = await loadInvitation(accountId, id);
      if (inv.state === 'accepted') throw new ConflictError(teamMessages.invitationUsed);
      if (inv.state === 'revoked') throw new ConflictError(teamMessages.invitationRevoked);
      const at = now();
      const { token, tokenHash } = newInvitationToken();
      const expiresAt = new Date(at + INVITATION_TTL_DAYS * DAY_MS).toISOString();
      const outcome = await deps.team.renewInvitation(accountId, id, inv.tokenHash, { tokenHash, expiresAt }, new Date(at).toISOString());
      if (outcome === 'alreadyInvited') throw new ConflictError(teamMessages.alreadyInvited);
      if (outcome === 'changed') throw new ConflictError(teamMessages.invitationUsed);
      await queueEmail(accountId, id, token, true);
      const names = await deps.team.names(accountId, [inv.invitedBy]);
      return invitationView({ ...inv, tokenHash, expiresAt }, names);
    },

    /** The public preview of a link: an unknown token is a 404 and says nothing more. */
    async preview(token: string): Promise<InvitationPreview> {
      const inv = INVITATION_TOKEN_RE.test(token) ? await deps.team.invitationByToken(hashInvitationToken(token)) : null;
      if (!inv) throw new NotFoundError(teamMessages.invitationNotFound);
      const [names, accountName, login] = await Promise.all([deps.team.names(inv.accountId, [inv.invitedBy]), deps.accountName(inv.accountId), deps.users.findByEmail(inv.email)]);
      return {
        accountName,
        invitedBy: names.get(inv.invitedBy)?.name ?? '',
        email: inv.email,
        role: inv.role,
        state: invitationState(inv, now()),
        expiresAt: inv.expiresAt,
        hasLogin: login !== null,
      };
    },

    /**
     * The signed-in person joins the invitation's account. Their own claims are of their own
     * account at this point: the member.joined entry is written here, to the account they join.
     */
    async accept(personId: string, token: string): Promise<JoinedAccount> {
      const inv = INVITATION_TOKEN_RE.test(token) ? await deps.team.invitationByToken(hashInvitationToken(token)) : null;
      if (!inv) throw new NotFoundError(teamMessages.tokenInvalid);
      const closed = unusable(inv);
      if (closed) throw closed;
      const profile = await deps.users.get(personId);
      if (!profile || profile.email.trim().toLowerCase() !== inv.email.toLowerCase()) throw new ForbiddenError(teamMessages.invitationOtherEmail(inv.email));
      const membership = await deps.directory.resolve(personId);
      if (membership?.accountId === inv.accountId || (!membership && personId === inv.accountId)) throw new ConflictError(teamMessages.alreadyMember);
      if (membership) throw new ConflictError(teamMessages.memberOfAnotherAccount);
      const limit = await seatLimit(inv.accountId);
      // The counter's condition cannot tell a missing TEAM item (the owner alone) from a free seat.
      if (limit < 2) throw new ConflictError(teamMessages.seatsFullForInvitee);
      const outcome = await deps.team.accept({ invitation: inv, personId, name: profile.name, email: profile.email, seatLimit: limit, at: iso() });
      switch (outcome) {
        case 'joined':
          break;
        case 'seatsFull':
          throw new ConflictError(teamMessages.seatsFullForInvitee);
        case 'alreadyMember':
          throw new ConflictError(teamMessages.alreadyMember);
        case 'memberOfAnotherAccount':
          throw new ConflictError(teamMessages.memberOfAnotherAccount);
        case 'ownsPaidAccount':
          throw new ConflictError(teamMessages.ownsPaidAccount);
        case 'invitationChanged': {
          const latest = await deps.team.invitation(inv.accountId, inv.id);
          throw (latest && unusable(latest)) ?? new ConflictError(teamMessages.invitationUsed);
        }
      }
      await deps.activity
        .append(inv.accountId, { action: 'member.joined', actor: { kind: 'member', id: personId }, object: { type: 'member', id: personId, label: profile.name } })
        .catch((error: unknown) => deps.onError?.('Activity log: a join could not be recorded', error, { accountId: inv.accountId }));
      return { accountId: inv.accountId, role: inv.role, refreshRequired: true };
    },

    async changeRole(accountId: string, callerId: string, personId: string, role: AssignableRole): Promise<Member> {
      const callerRole = await requireRole(accountId, callerId, 'admin');
      if (personId === callerId) throw new ForbiddenError(teamMessages.cannotChangeOwnRole);
      if (!roleAtLeast(callerRole, role)) throw new ForbiddenError(teamMessages.forbidden);
      const team = await deps.team.team(accountId);
      if (personId === team.ownerId) throw new ForbiddenError(teamMessages.cannotChangeOwner);
      const member = await memberItem(accountId, personId);
      if (!member || member.state !== 'active') throw new NotFoundError(teamMessages.memberNotFound);
      if (member.role === 'owner') throw new ForbiddenError(teamMessages.cannotChangeOwner);
      if (member.role !== role && !(await deps.team.changeRole(accountId, personId, member.role, role))) throw new NotFoundError(teamMessages.memberNotFound);
      const record = await deps.members.get(accountId, personId);
      if (!record) throw new NotFoundError(teamMessages.memberNotFound);
      return memberView(record);
    },

    /** Removed at once, signed out everywhere, their conversations unassigned. */
    async remove(accountId: string, callerId: string, personId: string): Promise<void> {
      await requireRole(accountId, callerId, 'admin');
      const team = await deps.team.team(accountId);
      // The first owner can never be removed: without a pointer a person is their own account's owner.
      if (personId === team.ownerId || personId === accountId) throw new ForbiddenError(teamMessages.cannotRemoveOwner);
      const member = await memberItem(accountId, personId);
      if (!member) throw new NotFoundError(teamMessages.memberNotFound);
      const removedNow = member.state === 'active' && (await deps.team.remove(accountId, personId, iso()));
      // Also when it was removed already: a removal whose sign-out failed is finished by a retry.
      const profile = await deps.users.get(personId);
      await Promise.all([deps.sessions.signOutEverywhere(profile?.email ?? member.email), unassign(accountId, personId)]);
      if (!removedNow) throw new NotFoundError(teamMessages.memberNotFound);
    },

    /** The caller leaves (their tokens then carry their own account again after a refresh). */
    async leave(accountId: string, personId: string): Promise<JoinedAccount> {
      const team = await deps.team.team(accountId);
      if (personId === team.ownerId || personId === accountId) throw new ConflictError(teamMessages.ownerCannotLeave);
      const member = await deps.team.member(accountId, personId);
      if (!member || member.state !== 'active' || !(await deps.team.remove(accountId, personId, iso()))) throw new NotFoundError(teamMessages.memberNotFound);
      await unassign(accountId, personId);
      return { accountId: personId, role: 'owner', refreshRequired: true };
    },

    async transferOwnership(accountId: string, callerId: string, personId: string): Promise<void> {
      await requireRole(accountId, callerId, 'owner');
      if (personId === callerId) throw new ConflictError(teamMessages.transferTargetInvalid);
      const member = await memberItem(accountId, personId);
      if (!member || member.state !== 'active' || member.role !== 'admin') throw new ConflictError(teamMessages.transferTargetInvalid);
      // The old owner keeps the date they joined (the first owner's: their account's creation).
      const joinedAt = (await deps.members.get(accountId, callerId))?.joinedAt ?? '';
      if (!(await deps.team.transferOwnership(accountId, callerId, personId, iso(), joinedAt))) throw new ConflictError(teamMessages.transferTargetInvalid);
    },

    /** Newest first, names resolved now (removed members' too), ACTIVITY_PAGE_SIZE a page. */
    async activity(accountId: string, query: { member?: string; action?: ActivityEntry['action']; from?: string; to?: string; cursor?: string }): Promise<ActivityPage> {
      const from = query.from ? new Date(query.from).toISOString() : undefined;
      const to = query.to ? new Date(query.to).toISOString() : undefined;
      if (from && to && from > to) throw new ValidationError(teamMessages.activityFilterInvalid, 'from');
      const page = await deps.activity.page(accountId, { ...query, from, to, limit: ACTIVITY_PAGE_SIZE });
      const memberIds = page.entries.flatMap((e) => (e.actor.kind === 'member' ? [e.actor.id] : []));
      const hasKeys = page.entries.some((e) => e.actor.kind === 'apiKey');
      const [names, keys] = await Promise.all([deps.team.names(accountId, memberIds), hasKeys ? deps.apiKeyNames(accountId) : Promise.resolve(new Map<string, string>())]);
      const entries: ActivityEntry[] = page.entries.map((e) => ({
        _id: e.id,
        at: e.at,
        action: e.action,
        actor:
          e.actor.kind === 'member'
            ? { kind: 'member', _id: e.actor.id, name: names.get(e.actor.id)?.name ?? '', email: names.get(e.actor.id)?.email ?? '' }
            : e.actor.kind === 'apiKey'
              ? { kind: 'apiKey', _id: e.actor.id, name: keys.get(e.actor.id) ?? '' }
              : { kind: 'system' },
        object: e.object,
        ...(e.details ? { details: e.details } : {}),
      }));
      return { entries, cursor: page.cursor };
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
