/**
 * Who is calling, read once from what the authorizer verified (issue 32): the tenant (the
 * account every item of the request belongs to), the person, and their role in the account.
 *
 * No table read: a member's account and role are claims the pre-token-generation trigger put in
 * the token at sign-in (triggers/pre-token.ts). A token without them is its own user's account,
 * as owner — every single-user account, unchanged. Claims that are present but malformed are not
 * guessed at: the request is unauthenticated.
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { ACCOUNT_CLAIMS, isMemberRole, type MemberRole } from '../contract/team-roles.js';
import type { ApiAuthContext } from './context.js';

export interface CallerIdentity {
  /** The tenant: the account's id (its first owner's user id). */
  accountId: string;
  /** The person (Cognito sub); null for a product API key, which acts for the account. */
  memberId: string | null;
  role: MemberRole;
  kind: 'user' | 'apiKey';
  /** The API key's id (kind 'apiKey'). */
  keyId?: string;
  /** Cognito groups, flattened as API Gateway hands them: "[admin other]" (the platform's admin desk). */
  groups: string;
}

/** A Cognito sub, or an account id (which is one). */
const ID_RE = /^[A-Za-z0-9-]{1,64}$/;
/** What an API key may do in its account: everything but billing and ownership. */
export const API_KEY_ROLE: MemberRole = 'admin';

/** The identity of a signed-in request (null: no valid credentials, or claims that do not add up). */
export function callerIdentity(event: APIGatewayProxyEventV2WithJWTAuthorizer): CallerIdentity | null {
  const lambda = (event.requestContext?.authorizer as { lambda?: ApiAuthContext } | undefined)?.lambda;
  if (lambda) {
    if (lambda.authType === 'none') return null;
    if (lambda.authType === 'apiKey') {
      return ID_RE.test(lambda.sub) ? { accountId: lambda.sub, memberId: null, role: API_KEY_ROLE, kind: 'apiKey', keyId: lambda.keyId, groups: '' } : null;
    }
    return fromClaims(lambda.sub, lambda.account, lambda.role, lambda.groups);
  }
  const claims = event.requestContext?.authorizer?.jwt?.claims;
  if (!claims) return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? `[${v.map(String).join(' ')}]` : v === undefined || v === null ? '' : String(v));
  return fromClaims(text(claims.sub), text(claims[ACCOUNT_CLAIMS.account]), text(claims[ACCOUNT_CLAIMS.role]), text(claims['cognito:groups']));
}

function fromClaims(sub: string, account: string, role: string, groups: string): CallerIdentity | null {
  if (!ID_RE.test(sub)) return null;
  // No account claims: the person's own account, as its owner.
  if (account === '' && role === '') return { accountId: sub, memberId: sub, role: 'owner', kind: 'user', groups };
  if (!ID_RE.test(account) || !isMemberRole(role)) return null;
  return { accountId: account, memberId: sub, role, kind: 'user', groups };
}
