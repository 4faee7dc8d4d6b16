/**
 * Token claims end to end, locally (issue 32): cognito-local runs the pre-token-generation trigger
 * (triggers/pre-token.ts) through the local Lambda endpoint with Cognito's V2 event, so the access
 * token (what the API checks) and the ID token carry the account and role; password sign-in,
 * Google sign-in and refresh all run it, and a sign-in (not a refresh) is logged once.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AuthSession, RefreshedSession } from '../../src/contract/auth.js';
import { authMessages } from '../../src/contract/account-texts.js';
import { ACCOUNT_CLAIMS } from '../../src/contract/team.js';
import { mintGoogleIdToken } from '../support/fake-google.js';
import { clearProxy, switchProxy } from '../support/faults.js';
import { db, get, itemsOf, post, provided, registerUser, tableName, uniqueEmail, until } from '../support/api.js';

const claimsOf = (token: string) => decodeJwt(token);
const signIns = async (accountId: string, personId: string) =>
  (await itemsOf(`USER#${accountId}`)).filter((i) => String(i.sk).startsWith('ACTIVITY#') && i.action === 'member.signed_in' && i.actorId === personId);
/** The membership pointer the team service writes (read by the trigger). */
const pointTo = (personId: string, accountId: string, role: string) =>
  db().send(new PutCommand({ TableName: tableName(), Item: { pk: `PERSON#${personId}`, sk: 'MEMBERSHIP', accountId, role } }));

describe('pre-token-generation trigger (local, V2 event)', () => {
  it('a single-user account: its own account as owner, in the access and ID tokens; a refresh keeps them and logs nothing', async () => {
    const { email, password, session } = await registerUser({ name: 'Lucía Martín', email: uniqueEmail('lucía.martín') });
    const sub = session.user._id;
    const login = await post<AuthSession & { idToken?: string }>('/api/login', { email, password });
    expect(login.status).toBe(200);
    const access = claimsOf(login.body.data!.token);
    expect(access).toMatchObject({ [ACCOUNT_CLAIMS.account]: sub, [ACCOUNT_CLAIMS.role]: 'owner', sub, token_use: 'access' });
    // Reserved claims and times are cognito-local's own (the access token was re-signed, not rebuilt).
    expect(access.exp! - access.iat!).toBe(5 * 60);
    expect(access.iss).toBe(provided('cognitoIssuer'));
    expect((await get('/api/me', login.body.data!.token)).status).toBe(200);
    // Sign-ups and logins are sign-ins; each logged once.
    const logged = await until(async () => ((await signIns(sub, sub)).length >= 2 ? signIns(sub, sub) : false), 'the sign-ins in the log');
    const refreshed = await post<RefreshedSession>('/api/refresh-token', { refreshToken: login.body.data!.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(claimsOf(refreshed.body.data!.token)).toMatchObject({ [ACCOUNT_CLAIMS.account]: sub, [ACCOUNT_CLAIMS.role]: 'owner' });
    expect(await signIns(sub, sub)).toHaveLength(logged.length);
  });

  it('a member: the next refresh carries the account and role the pointer says, and a role change shows on the refresh after', async () => {
    const owner = await registerUser({ name: 'Clínica Peña' });
    const member = await registerUser({ name: 'Lucía Martín' });
    const accountId = owner.session.user._id;
    const personId = member.session.user._id;
    await pointTo(personId, accountId, 'agent');

    const first = await post<RefreshedSession>('/api/refresh-token', { refreshToken: member.session.refreshToken });
    expect(claimsOf(first.body.data!.token)).toMatchObject({ sub: personId, [ACCOUNT_CLAIMS.account]: accountId, [ACCOUNT_CLAIMS.role]: 'agent' });

    await pointTo(personId, accountId, 'admin');
    const second = await post<RefreshedSession>('/api/refresh-token', { refreshToken: member.session.refreshToken });
    expect(claimsOf(second.body.data!.token)).toMatchObject({ [ACCOUNT_CLAIMS.account]: accountId, [ACCOUNT_CLAIMS.role]: 'admin' });
    // Refreshes are not sign-ins.
    expect(await signIns(accountId, personId)).toHaveLength(0);

    // A password sign-in is, logged in the account the member works in.
    const login = await post<AuthSession>('/api/login', { email: member.email, password: member.password });
    expect(claimsOf(login.body.data!.token)).toMatchObject({ [ACCOUNT_CLAIMS.account]: accountId, [ACCOUNT_CLAIMS.role]: 'admin' });
    await until(async () => (await signIns(accountId, personId)).length === 1, 'the member sign-in in the account log');
  });

  it('Google sign-in (the local adapter) yields tokens with the claims too', async () => {
    const owner = await registerUser();
    const email = uniqueEmail('gmail');
    const mint = () => mintGoogleIdToken(provided('googlePrivateJwk'), { email, name: 'Lucía Martín' });
    const created = await post<AuthSession>('/api/google-auth', { credential: await mint() });
    expect(created.status).toBe(201);
    const personId = created.body.data!.user._id;
    expect(claimsOf(created.body.data!.token)).toMatchObject({ [ACCOUNT_CLAIMS.account]: personId, [ACCOUNT_CLAIMS.role]: 'owner' });

    await pointTo(personId, owner.session.user._id, 'agent');
    const again = await post<AuthSession>('/api/google-auth', { credential: await mint() });
    expect(again.status).toBe(200);
    expect(claimsOf(again.body.data!.token)).toMatchObject({ sub: personId, [ACCOUNT_CLAIMS.account]: owner.session.user._id, [ACCOUNT_CLAIMS.role]: 'agent' });
  });

  it('a pointer that does not add up is not trusted: the person stays in their own account', async () => {
    const member = await registerUser();
    const personId = member.session.user._id;
    await pointTo(personId, `acc-${randomUUID()}`, 'superuser');
    const res = await post<RefreshedSession>('/api/refresh-token', { refreshToken: member.session.refreshToken });
    expect(claimsOf(res.body.data!.token)).toMatchObject({ [ACCOUNT_CLAIMS.account]: personId, [ACCOUNT_CLAIMS.role]: 'owner' });
  });

  it('a trigger that cannot read the membership refuses the sign-in (no tokens for a guessed account), and the next one works', async () => {
    const member = await registerUser({ name: 'Lucía Martín' });
    const personId = member.session.user._id;
    const id = `pointer-${personId}`;
    // The trigger's GetItem of this person's pointer fails (the SDK's retries included).
    await switchProxy('dynamodb', { state: 'error', id, times: 20, match: { bodyIncludes: `PERSON#${personId}` } });
    try {
      // A passing fault of ours, said so (never a 500), with no tokens.
      for (const res of [
        await post<AuthSession>('/api/login', { email: member.email, password: member.password }),
        await post<RefreshedSession>('/api/refresh-token', { refreshToken: member.session.refreshToken }),
      ]) {
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ success: false, message: authMessages.signInUnavailable });
        expect(res.headers.get('retry-after')).toBe('30');
      }
    } finally {
      await clearProxy('dynamodb', id);
    }
    expect((await post<AuthSession>('/api/login', { email: member.email, password: member.password })).status).toBe(200);
  });
});
