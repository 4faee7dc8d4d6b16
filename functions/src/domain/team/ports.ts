/**
 * Ports of the team in one account (issue 32). The tenant stays "the account": an account's id
 * is its first owner's user id, so every existing partition is already an account's.
 */
import type { ActivityAction, AssignableRole, MemberRole } from '../../contract/team.js';

/** Where a person belongs, as the pre-token trigger resolves it at sign-in (one GetItem). */
export interface Membership {
  accountId: string;
  role: MemberRole;
}

/** The person → account pointers (an item keyed by the person, written with the member item). */
export interface MembershipDirectory {
  /** null: no pointer — the person is the owner of their own account (every single-user account). */
  resolve(personId: string): Promise<Membership | null>;
}

/** A person in an account, as the rest of the product needs them (assignment, "sent by", notifications). */
export interface MemberRecord {
  personId: string;
  accountId: string;
  role: MemberRole;
  /** From the person's own profile (they edit it themselves). */
  name: string;
  email: string;
  /** Issue 33: their profile's phone (E.164 as stored, '' when none): a member is never erased as a customer. */
  phoneNumber?: string;
  language: 'en' | 'es';
  joinedAt: string;
}

/**
 * The account's people, read by the inbox (assignment to a member, "sent by"), notifications
 * (who gets an alert, in which language) and the team screens. A single-user account has one:
 * its owner, from the user profile (no member items needed).
 */
export interface TeamMembers {
  /** Active members, the owner first. */
  list(accountId: string): Promise<MemberRecord[]>;
  /** An active member of the account, or null (removed, another account's, unknown). */
  get(accountId: string, personId: string): Promise<MemberRecord | null>;
}

/** One activity-log entry as stored (append-only: the log has no update and no delete). */
export interface StoredActivity {
  id: string;
  at: string;
  action: ActivityAction;
  actor: { kind: 'member'; id: string } | { kind: 'apiKey'; id: string } | { kind: 'system' };
  object: { type: string; id: string | null; label?: string } | null;
  /** Issue 33: figures of the action (an erasure's counts), never personal data. */
  details?: Record<string, number>;
}

export interface ActivityFilter {
  member?: string;
  action?: ActivityAction;
  /** ISO bounds of `at`, inclusive. */
  from?: string;
  to?: string;
  cursor?: string;
  limit: number;
}

export interface ActivityLog {
  /** Appends one entry (its id and time are the log's); kept ACTIVITY_RETENTION_DAYS. */
  append(accountId: string, entry: Omit<StoredActivity, 'id' | 'at'>, now?: Date): Promise<StoredActivity>;
  /** Newest first; `cursor` continues a previous page. An unreadable cursor starts from the newest. */
  page(accountId: string, filter: ActivityFilter): Promise<{ entries: StoredActivity[]; cursor: string | null }>;
}

export type { ActivityAction, AssignableRole, MemberRole };

// ---- The team itself: members, invitations, seats (domain/team/service.ts; adapters/dynamo/team.ts) ----

/** An account's seat counter and owner (no item yet: the first owner alone, one seat used). */
export interface TeamState {
  ownerId: string;
  seatsUsed: number;
}

/** A person's member item, removed ones included (the activity log and "sent by" still name them). */
export interface StoredMember {
  personId: string;
  role: MemberRole;
  state: 'active' | 'removed';
  joinedAt: string;
  /** Their name and e-mail when they joined: the fallback when their own profile is gone. */
  name: string;
  email: string;
}

/** An invitation as stored; 'expired' is never stored: a pending one past expiresAt is expired. */
export interface StoredInvitation {
  id: string;
  accountId: string;
  email: string;
  role: AssignableRole;
  state: 'pending' | 'accepted' | 'revoked';
  /** The person who invited. */
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  tokenHash: string;
  /** The e-mail's language, decided when it was sent (the invitee's profile, else the inviter's). */
  language: 'en' | 'es';
  /** When it was accepted or revoked. */
  closedAt?: string;
  acceptedBy?: string;
}

export type InviteOutcome = 'created' | 'alreadyInvited' | 'seatsFull';
export type RenewOutcome = 'renewed' | 'alreadyInvited' | 'changed';
export type AcceptOutcome = 'joined' | 'seatsFull' | 'alreadyMember' | 'memberOfAnotherAccount' | 'ownsPaidAccount' | 'invitationChanged';

/**
 * The team's items. Every change that touches seats, members and pointers is ONE transaction
 * whose conditions decide (the seat limit is a conditional ADD on the counter, never a read).
 */
export interface TeamRepository {
  team(accountId: string): Promise<TeamState>;
  /** The member item (active or removed), or null. */
  member(accountId: string, personId: string): Promise<StoredMember | null>;
  /** Names and e-mails of people of the account (their profile, else their member item's). */
  names(accountId: string, personIds: readonly string[]): Promise<Map<string, { name: string; email: string }>>;
  /** Invitation + token lookup + the e-mail's one-pending slot, while the account has a free seat. */
  createInvitation(invitation: StoredInvitation, seatLimit: number, now: string): Promise<InviteOutcome>;
  invitation(accountId: string, id: string): Promise<StoredInvitation | null>;
  invitationByToken(tokenHash: string): Promise<StoredInvitation | null>;
  /** The account's invitations (bounded), newest first. */
  invitations(accountId: string): Promise<StoredInvitation[]>;
  /** pending → revoked; false when it was not pending. */
  revokeInvitation(accountId: string, id: string, at: string): Promise<boolean>;
  /** A new token and expiry for a pending invitation (the old token stops at once). */
  renewInvitation(accountId: string, id: string, expectedHash: string, next: { tokenHash: string; expiresAt: string }, now: string): Promise<RenewOutcome>;
  /** Counter +1 within `seatLimit`, member item, pointer, invitation accepted: one transaction. */
  accept(input: { invitation: StoredInvitation; personId: string; name: string; email: string; seatLimit: number; at: string }): Promise<AcceptOutcome>;
  /** Member item and pointer, one transaction; false when the member is not active with role `from`. */
  changeRole(accountId: string, personId: string, from: AssignableRole, to: AssignableRole): Promise<boolean>;
  /** Member item removed, pointer deleted, counter −1: one transaction; false when not an active non-owner member. */
  remove(accountId: string, personId: string, at: string): Promise<boolean>;
  /** TEAM.ownerId, the new owner's member item and pointer, the old owner's (admin, joined `fromJoinedAt`): one transaction. */
  transferOwnership(accountId: string, from: string, to: string, at: string, fromJoinedAt: string): Promise<boolean>;
}

/** Conversations assigned to a person, unassigned when they leave (bounded Query, no Scan). */
export interface ConversationAssignees {
  /** Sets `assignee` null on every conversation of the account assigned to the person; how many. */
  unassignAll(accountId: string, personId: string): Promise<number>;
}
