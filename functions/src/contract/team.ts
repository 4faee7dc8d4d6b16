/**
 * A team in one account (issue 32): members, roles, invitations, seats and the activity log.
 * Used by the handlers (validation), the pre-token trigger, the frontend (types, forms) and tests.
 * Browser-safe.
 *
 * The tenant is the account. An account's id is its first owner's user id (Cognito `sub`), so a
 * single-user account is unchanged: no item moves, no request pays a lookup. A member's sign-in
 * resolves them to the account once (the pre-token-generation trigger puts ACCOUNT_CLAIMS in the
 * tokens); a token without them is its own user's account, as owner.
 */
import * as z from 'zod/mini';
import { email } from './auth.js';
import './zod-locale.js';
import { ACTIVITY_ACTIONS, ASSIGNABLE_ROLES, FORBIDDEN_BY_ROLE, type ActivityAction, type AssignableRole, type MemberRole } from './team-roles.js';

export * from './team-roles.js';


export const INVITATION_TTL_DAYS = 7;
/** The invitation's secret in the e-mailed link: 32 random bytes, base64url. */
export const INVITATION_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
export const INVITATION_STATES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

export const ACTIVITY_PAGE_SIZE = 50;

/** Errors and notices of the team routes (English; the UI shows server.es.json's Spanish). */
export const teamMessages = {
  forbidden: FORBIDDEN_BY_ROLE,
  ownerOnly: 'Only the account owner can do this.',
  emailInvalid: 'Enter a valid e-mail address',
  roleInvalid: 'Role must be admin or agent',
  tokenInvalid: 'This invitation link is not valid.',
  invitationExpired: 'This invitation has expired. Ask for a new one.',
  invitationRevoked: 'This invitation was cancelled.',
  invitationUsed: 'This invitation was already accepted.',
  invitationOtherEmail: (invited: string) => `This invitation is for ${invited}. Sign in with that e-mail address to accept it.`,
  alreadyMember: 'This person is already a member of the account.',
  alreadyInvited: 'This e-mail already has a pending invitation.',
  memberOfAnotherAccount: 'This person already belongs to another AgentDesk account.',
  ownsPaidAccount: 'Your own AgentDesk account has an active subscription. Cancel it before joining another account.',
  seatsFull: (seats: number | string) => `All ${seats} seats of your plan are taken. Remove a member or upgrade your plan to add more.`,
  seatsFullForInvitee: 'This account has no free seat left. Ask its owner to free one or upgrade the plan.',
  cannotChangeOwnRole: 'You cannot change your own role.',
  cannotChangeOwner: 'The owner’s role cannot be changed; the owner can transfer ownership instead.',
  cannotRemoveOwner: 'The account owner cannot be removed.',
  ownerCannotLeave: 'The owner cannot leave the account. Transfer ownership to an admin first.',
  transferTargetInvalid: 'Ownership can only be transferred to an admin of this account.',
  memberNotFound: 'Member not found',
  invitationNotFound: 'Invitation not found',
  invited: 'Invitation sent',
  invitationRevokedDone: 'Invitation cancelled',
  joined: 'You joined the account',
  roleChanged: 'Role changed',
  removed: 'Member removed',
  left: 'You left the account',
  transferred: 'Ownership transferred',
  activityFilterInvalid: 'Invalid activity filter',
} as const;

// ---- Requests ----

export const inviteRequest = z.object({
  email,
  role: z.enum(ASSIGNABLE_ROLES, { error: teamMessages.roleInvalid }),
});
export const roleChangeRequest = z.object({ role: z.enum(ASSIGNABLE_ROLES, { error: teamMessages.roleInvalid }) });
export const acceptInvitationRequest = z.object({
  token: z.string({ error: teamMessages.tokenInvalid }).check(z.regex(INVITATION_TOKEN_RE, teamMessages.tokenInvalid)),
});
export const transferOwnershipRequest = z.object({ memberId: z.string({ error: teamMessages.transferTargetInvalid }).check(z.minLength(1, teamMessages.transferTargetInvalid), z.maxLength(64, teamMessages.transferTargetInvalid)) });

const isoDate = z.string({ error: teamMessages.activityFilterInvalid }).check(z.refine((v) => v.length <= 40 && !Number.isNaN(Date.parse(v)), teamMessages.activityFilterInvalid));
/** GET /api/team/activity: newest first, ACTIVITY_PAGE_SIZE a page, `cursor` from the previous page. */
export const activityQuery = z.object({
  member: z.optional(z.string().check(z.maxLength(64, teamMessages.activityFilterInvalid))),
  action: z.optional(z.enum(ACTIVITY_ACTIONS, { error: teamMessages.activityFilterInvalid })),
  from: z.optional(isoDate),
  to: z.optional(isoDate),
  cursor: z.optional(z.string().check(z.maxLength(512, teamMessages.activityFilterInvalid))),
});

// ---- Responses ----

export interface Member {
  /** The person's user id (Cognito sub). */
  _id: string;
  name: string;
  email: string;
  role: MemberRole;
  joinedAt: string;
  avatarUrl?: string;
}

export interface Invitation {
  _id: string;
  email: string;
  role: AssignableRole;
  state: InvitationState;
  invitedBy: { _id: string; name: string };
  createdAt: string;
  expiresAt: string;
}

/** GET /api/team. */
export interface TeamView {
  accountId: string;
  /** The caller's own role and id. */
  you: { _id: string; role: MemberRole };
  members: Member[];
  /** Pending ones first, then the last 30 days' others (admins and owners only; [] for agents). */
  invitations: Invitation[];
  seats: { used: number; limit: number };
}

/** GET /api/team/invitations/{token} (public): what the invitee sees before signing in. */
export interface InvitationPreview {
  accountName: string;
  invitedBy: string;
  email: string;
  role: AssignableRole;
  state: InvitationState;
  expiresAt: string;
  /** Whether the e-mail already has an AgentDesk login (the page offers sign-in, else sign-up). */
  hasLogin: boolean;
}

/** data of POST /api/team/invitations/accept: the client refreshes its tokens to carry the new account. */
export interface JoinedAccount {
  accountId: string;
  role: MemberRole;
  refreshRequired: true;
}

export interface ActivityEntry {
  _id: string;
  at: string;
  action: ActivityAction;
  /** Who: a member (their id, and name/e-mail at the time), an API key, or the system. */
  actor: { kind: 'member'; _id: string; name: string; email: string } | { kind: 'apiKey'; _id: string; name: string } | { kind: 'system' };
  /** What: the object's type and id (a route's path parameter), and a label when one is known. */
  object: { type: string; id: string | null; label?: string } | null;
  /** Issue 33: figures of the action (what an erasure or export counted), never personal data. */
  details?: Record<string, number>;
}

export interface ActivityPage {
  entries: ActivityEntry[];
  /** Pass back for the next page; null = no more. */
  cursor: string | null;
}
