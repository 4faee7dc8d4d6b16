/**
 * Team test support (issue 32): an owner on a plan, invitations through the API with their link
 * read from the SES mailbox, accepting, refreshing into the account's claims, and the team's
 * items as they are in the table.
 */
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { PlanId } from '../../src/contract/billing.js';
import type { AuthSession, RefreshedSession } from '../../src/contract/auth.js';
import { ACCOUNT_CLAIMS, type AssignableRole, type Invitation, type JoinedAccount } from '../../src/contract/team.js';
import { api, getItem, itemsOf, mailsTo, post, registerUser, until, type RegisteredUser } from './api.js';
import { grantSubscription } from './billing.js';

export interface Owner {
  user: RegisteredUser;
  token: string;
  accountId: string;
}

/** A registered person whose account has an active subscription on `plan` (none: no subscription). */
export async function ownerOn(plan: PlanId | null, name = 'Clínica Peña'): Promise<Owner> {
  const user = await registerUser({ name });
  const accountId = user.session.user._id;
  if (plan) await grantSubscription(accountId, { plan });
  return { user, token: user.session.token, accountId };
}

export const invite = (token: string, email: string, role: AssignableRole = 'agent') => api<Invitation>('POST', '/api/team/invitations', { token, body: { email, role } });

const LINK_RE = /\/invite\/([A-Za-z0-9_-]{43})/;

/** The tokens of every invitation link mailed to the address so far, oldest first. */
export async function invitationLinks(email: string): Promise<string[]> {
  return (await mailsTo(email)).flatMap((m) => {
    const match = LINK_RE.exec(m.body.text ?? '');
    return match ? [match[1]!] : [];
  });
}

/** Waits for the `n`-th invitation e-mail to the address; its link's token. */
export async function invitationToken(email: string, n = 1): Promise<string> {
  return until(async () => (await invitationLinks(email))[n - 1], `invitation e-mail #${n} to ${email}`);
}

/** The latest invitation e-mail to the address (subject and text). */
export async function invitationMail(email: string) {
  await invitationToken(email);
  return (await mailsTo(email)).filter((m) => LINK_RE.test(m.body.text ?? '')).at(-1)!;
}

/** Invites the address and returns the invitation and its mailed token. */
export async function invited(ownerToken: string, email: string, role: AssignableRole = 'agent'): Promise<{ invitation: Invitation; token: string }> {
  const before = (await invitationLinks(email)).length;
  const res = await invite(ownerToken, email, role);
  if (res.status !== 201 || !res.body.data) throw new Error(`invite failed: ${res.status} ${res.body.message}`);
  const token = await invitationToken(email, before + 1);
  // Until its delivery reads sent: tests comparing the team's items before and after start settled.
  const lookup = await getItem(`INVITETOKEN#${createHash('sha256').update(token).digest('hex')}`, 'INVITE');
  await until(async () => ((await getItem(`USER#${String(lookup?.accountId)}`, `INVITE#${res.body.data!._id}`))?.emailDelivery as { state?: string } | undefined)?.state === 'sent', 'the invitation e-mail marked sent');
  return { invitation: res.body.data, token };
}

export const accept = (sessionToken: string, invitationToken: string) => post<JoinedAccount>('/api/invitations/accept', { token: invitationToken }, sessionToken);

export const refresh = (refreshToken: string) => post<RefreshedSession>('/api/refresh-token', { refreshToken });

/** A fresh access token for the session (the pre-token trigger puts the account's claims in it). */
export async function refreshed(session: AuthSession): Promise<string> {
  const res = await refresh(session.refreshToken);
  if (res.status !== 200 || !res.body.data) throw new Error(`refresh failed: ${res.status} ${res.body.message}`);
  return res.body.data.token;
}

export const claimsOf = (token: string) => {
  const claims = decodeJwt(token);
  return { account: claims[ACCOUNT_CLAIMS.account], role: claims[ACCOUNT_CLAIMS.role], sub: claims.sub };
};

/** A person who accepted an invitation to the owner's account and refreshed into it. */
export async function joinedMember(owner: Owner, role: AssignableRole = 'agent', name = 'Lucía Martín'): Promise<{ user: RegisteredUser; personId: string; token: string }> {
  const user = await registerUser({ name });
  const { token } = await invited(owner.token, user.email, role);
  const res = await accept(user.session.token, token);
  if (res.status !== 200) throw new Error(`accept failed: ${res.status} ${res.body.message}`);
  return { user, personId: user.session.user._id, token: await refreshed(user.session) };
}

/** Every team item of an account and the pointers of the given people: "nothing changed" compares these. */
export async function teamItems(accountId: string, people: readonly string[] = []): Promise<unknown[]> {
  const own = (await itemsOf(`USER#${accountId}`)).filter((i) => /^(TEAM|MEMBER#|INVITE#|INVITEMAIL#)/.test(String(i.sk)));
  const pointers = await Promise.all(people.map((p) => getItem(`PERSON#${p}`, 'MEMBERSHIP')));
  return [...own, ...pointers];
}
