/**
 * The account claims of a sign-in (issue 32), decided once per token issue by the
 * pre-token-generation trigger: the person's membership, else their own account as owner.
 */
import { ACCOUNT_CLAIMS, type MemberRole } from '../../contract/team-roles.js';
import type { ActivityLog, MembershipDirectory } from './ports.js';

/** Cognito's trigger sources of a sign-in (a refresh is 'TokenGeneration_RefreshTokens'). */
const SIGN_IN_SOURCES = new Set(['TokenGeneration_Authentication', 'TokenGeneration_HostedAuth', 'TokenGeneration_NewPasswordChallenge', 'TokenGeneration_AuthenticateDevice']);

export interface TokenClaimsDeps {
  directory: MembershipDirectory;
  activity: Pick<ActivityLog, 'append'>;
  onError?: (message: string, error: unknown) => void;
}

/**
 * The claims to add to the access and ID tokens. A directory read that fails throws: Cognito then
 * refuses the sign-in rather than issue a member tokens for the wrong account.
 */
export async function accountClaims(deps: TokenClaimsDeps, personId: string, triggerSource: string): Promise<Record<string, string>> {
  const membership = await deps.directory.resolve(personId);
  const accountId = membership?.accountId ?? personId;
  const role: MemberRole = membership?.role ?? 'owner';
  if (SIGN_IN_SOURCES.has(triggerSource)) {
    // Who signed in when: the account's log (a failed write never blocks the sign-in).
    await deps.activity.append(accountId, { action: 'member.signed_in', actor: { kind: 'member', id: personId }, object: null }).catch((error: unknown) => deps.onError?.('Activity log: a sign-in could not be recorded', error));
  }
  return { [ACCOUNT_CLAIMS.account]: accountId, [ACCOUNT_CLAIMS.role]: role };
}
