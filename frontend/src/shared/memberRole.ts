/**
 * The signed-in person's role in the account (issue 32), and which pages it opens. The role comes
 * from the access token's `agentdesk_role` claim, the same claim the server's role gate reads, so
 * the app hides exactly what the server would refuse (a role changed since the token was issued
 * applies from its next refresh, on both sides); a token without the claim falls back to /api/me's
 * accountRole, then to owner (a single-user account). After joining the app refreshes the token.
 */
import { useSyncExternalStore } from 'react';
import { ACCOUNT_CLAIMS, isMemberRole, roleAtLeast, type MemberRole } from '@agentdesk/functions/contract';
import { getSession, subscribeSession } from '../api/session';
import { useAuth } from './session';

/** The JWT's payload, or null when the token is not one. */
function tokenPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const parsed: unknown = JSON.parse(json);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The role an access token carries, or undefined when it carries none. */
export function roleFromToken(token: string | null | undefined): MemberRole | undefined {
  const claim = token ? tokenPayload(token)?.[ACCOUNT_CLAIMS.role] : undefined;
  return isMemberRole(claim) ? claim : undefined;
}

/** The signed-in person's role; follows token refreshes. */
export function useMemberRole(): MemberRole {
  const session = useSyncExternalStore(subscribeSession, getSession, () => null);
  const { user } = useAuth();
  return roleFromToken(session?.token) ?? (isMemberRole(user?.accountRole) ? user.accountRole : 'owner');
}

/**
 * The least role of each page that is not for everybody (the server's routes behind them declare
 * the same in functions/src/routes.ts): an agent has the inbox, contacts, calls, bookings and
 * saved replies; an admin everything but billing and ownership.
 */
export const PAGE_ROLES: ReadonlyArray<readonly [path: string, role: MemberRole]> = [
  ['/subscription', 'owner'],
  ['/integrations', 'admin'],
  ['/api-keys', 'admin'],
  ['/agents', 'admin'],
  ['/voice-settings', 'admin'],
  ['/bookings/setup', 'admin'],
  ['/activity', 'admin'],
  ['/privacy-settings', 'admin'],
  ['/admin', 'admin'],
];

/** The least role that opens a path (its own or a parent page's); agent when none is named. */
export function pageRole(pathname: string): MemberRole {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const found = PAGE_ROLES.find(([page]) => path === page || path.startsWith(`${page}/`));
  return found ? found[1] : 'agent';
}

/** Whether this role may open the path. */
export const canOpenPage = (role: MemberRole, pathname: string): boolean => roleAtLeast(role, pageRole(pathname));
