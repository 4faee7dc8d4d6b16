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
