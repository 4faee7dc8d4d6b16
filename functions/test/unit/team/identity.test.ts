/**
 * Who is calling (issue 32, auth/identity.ts): the account and role come from the verified token's
 * claims; a token without them is its own user's account as owner; claims that do not add up are
 * unauthenticated, never guessed at; an API key acts for its account as an admin.
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { API_KEY_ROLE, callerIdentity } from '../../../src/auth/identity.js';
import type { ApiAuthContext } from '../../../src/auth/context.js';
import { ACCOUNT_CLAIMS } from '../../../src/contract/team.js';

const SUB = '3f1c2a9e-0d4b-4c57-9a61-5be1f0c2d7a4';
const ACCOUNT = '9b8d7c6e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';

/** An event as API Gateway's JWT authorizer hands it (every claim a string). */
const jwtEvent = (claims: Record<string, unknown>) =>
  ({ requestContext: { authorizer: { jwt: { claims, scopes: [] } } } }) as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;
/** An event as the API authorizer (userOrApiKey routes) hands it. */
const lambdaEvent = (lambda: ApiAuthContext) => ({ requestContext: { authorizer: { lambda } } }) as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;

describe('callerIdentity: JWT authorizer claims', () => {
  it('no account claims: the caller’s own account, as its owner (every single-user account)', () => {
    expect(callerIdentity(jwtEvent({ sub: SUB, 'cognito:groups': '[admin]' }))).toEqual({ accountId: SUB, memberId: SUB, role: 'owner', kind: 'user', groups: '[admin]' });
  });

  it.each(['owner', 'admin', 'agent'] as const)('a member’s claims: the account and the role %s, the person kept apart', (role) => {
    const who = callerIdentity(jwtEvent({ sub: SUB, [ACCOUNT_CLAIMS.account]: ACCOUNT, [ACCOUNT_CLAIMS.role]: role }));
    expect(who).toEqual({ accountId: ACCOUNT, memberId: SUB, role, kind: 'user', groups: '' });
  });

  it('groups given as an array are flattened like API Gateway does', () => {
    expect(callerIdentity(jwtEvent({ sub: SUB, 'cognito:groups': ['admin', 'other'] }))?.groups).toBe('[admin other]');
  });

  it.each<[string, Record<string, unknown>]>([
    ['an unknown role', { [ACCOUNT_CLAIMS.account]: ACCOUNT, [ACCOUNT_CLAIMS.role]: 'superuser' }],
    ['a role without an account', { [ACCOUNT_CLAIMS.role]: 'admin' }],
    ['an account without a role', { [ACCOUNT_CLAIMS.account]: ACCOUNT }],
    ['an account id that is not an id', { [ACCOUNT_CLAIMS.account]: 'USER#x/../y', [ACCOUNT_CLAIMS.role]: 'agent' }],
    ['an over-long account id', { [ACCOUNT_CLAIMS.account]: 'a'.repeat(65), [ACCOUNT_CLAIMS.role]: 'agent' }],
    ['a role in another case', { [ACCOUNT_CLAIMS.account]: ACCOUNT, [ACCOUNT_CLAIMS.role]: 'Owner' }],
  ])('malformed claims (%s) are unauthenticated, not a guess', (_case, claims) => {
    expect(callerIdentity(jwtEvent({ sub: SUB, ...claims }))).toBeNull();
  });

  it('no sub, or a sub that is not an id: unauthenticated', () => {
    expect(callerIdentity(jwtEvent({}))).toBeNull();
    expect(callerIdentity(jwtEvent({ sub: 'a b' }))).toBeNull();
    expect(callerIdentity({ requestContext: {} } as unknown as APIGatewayProxyEventV2WithJWTAuthorizer)).toBeNull();
  });
});

describe('callerIdentity: the API authorizer’s context (userOrApiKey routes)', () => {
  it('passes a token’s account claims through', () => {
    expect(callerIdentity(lambdaEvent({ authType: 'user', sub: SUB, groups: '', account: ACCOUNT, role: 'agent' }))).toEqual({ accountId: ACCOUNT, memberId: SUB, role: 'agent', kind: 'user', groups: '' });
    expect(callerIdentity(lambdaEvent({ authType: 'user', sub: SUB, groups: '', account: '', role: '' }))).toMatchObject({ accountId: SUB, role: 'owner' });
    expect(callerIdentity(lambdaEvent({ authType: 'user', sub: SUB, groups: '', account: ACCOUNT, role: 'root' }))).toBeNull();
  });

  it('an API key acts for its account as an admin, with no person', () => {
    expect(API_KEY_ROLE).toBe('admin');
    expect(callerIdentity(lambdaEvent({ authType: 'apiKey', sub: ACCOUNT, keyId: 'key-1', keyHash: 'h' }))).toEqual({ accountId: ACCOUNT, memberId: null, role: 'admin', kind: 'apiKey', keyId: 'key-1', groups: '' });
  });

  it('no credentials: null', () => {
    expect(callerIdentity(lambdaEvent({ authType: 'none', reason: 'missing' }))).toBeNull();
  });
});
