/**
 * Roles, token claims, seats and activity actions of a team in one account (issue 32): the part of
 * contract/team.ts that every function's HTTP layer needs, kept free of zod so it adds nothing
 * to a bundle that serves no team route (team.ts re-exports it). Browser-safe.
 */
import type { PlanId } from './billing.js';

/** What each person may do: owner ⊃ admin ⊃ agent. */
export const MEMBER_ROLES = ['owner', 'admin', 'agent'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const ROLE_RANK: Record<MemberRole, number> = { agent: 0, admin: 1, owner: 2 };
export const roleAtLeast = (role: MemberRole, needed: MemberRole): boolean => ROLE_RANK[role] >= ROLE_RANK[needed];
export const isMemberRole = (value: unknown): value is MemberRole => typeof value === 'string' && (MEMBER_ROLES as readonly string[]).includes(value);
/** Roles an invitation or a role change can give (ownership moves only by transfer). */
export const ASSIGNABLE_ROLES = ['admin', 'agent'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

/**
 * The access- and ID-token claims the pre-token-generation trigger adds (Cognito V2 event,
 * claimsAndScopeOverrideDetails). API Gateway hands them to the functions as strings.
 */
export const ACCOUNT_CLAIMS = { account: 'agentdesk_account', role: 'agentdesk_role' } as const;

/**
 * What the activity log records. Route actions are declared on the manifest's routes (`activity`)
 * and written once by the HTTP layer after the route succeeded; sign-ins by the pre-token trigger.
 */
export const ACTIVITY_ACTIONS = [
  'member.signed_in',
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.left',
  'account.ownership_transferred',
  'conversation.replied',
  'conversation.assigned',
  'conversation.updated',
  'conversation.deleted',
  'message.deleted',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'contacts.imported',
  'contacts.exported',
  'contacts.bulk_deleted',
  'agent.created',
  'agent.updated',
  'agent.deleted',
  'agent.knowledge_changed',
  'integration.changed',
  'integration.disconnected',
  'api_key.created',
  'api_key.regenerated',
  'api_key.deleted',
  'voice_settings.changed',
  'booking.created',
  'booking.changed',
  'booking.cancelled',
  'booking_setup.changed',
  'account_settings.changed',
  'billing.changed',
  // Issue 33: a person's data erased or exported (counts in `details`), the privacy settings changed, the account's deletion asked for.
  'person.erased',
  'person.exported',
  'privacy_settings.changed',
  'account.deletion_requested',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** People in an account, the owner included (issue 32: "Starter 2, Professional 5, Enterprise 20"). */
export const SEATS_BY_PLAN: Record<PlanId, number> = { starter: 2, professional: 5, enterprise: 20 };
/** An account without a subscription: the owner alone. */
export const SEATS_WITHOUT_PLAN = 1;

/** Days an activity entry is kept (DynamoDB TTL; readers also skip expired ones). */
export const ACTIVITY_RETENTION_DAYS = 365;

/** The HTTP layer's answer below a route's role (teamMessages.forbidden; Spanish in server.es.json). */
export const FORBIDDEN_BY_ROLE = 'Your role in this account does not allow this. Ask the account owner or an admin.';
