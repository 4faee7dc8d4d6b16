/**
 * Each person's own profile vs the account's settings (issue 32) on the local stack: an owner
 * ("Ana García", a clinic in Madrid) and her receptionist ("Lucía Martín") in one account — the
 * member item and pointer written as the team service writes them, Lucía's tokens issued through
 * cognito-local's pre-token trigger so they carry the account. Name, phone, language, avatar and
 * password are the person's; country and time zone the account's, changed only by an admin or
 * the owner; /api/me shows the account's subscription, features and settings with the person's role.
 * And a plan change never leaves the team with fewer seats than people.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthSession, User } from '../../src/contract/auth.js';
import type { Subscription } from '../../src/contract/billing.js';
import { ACCOUNT_CLAIMS, teamMessages } from '../../src/contract/team.js';
import { api, db, getItem, itemsOf, post, registerUser, STRONG_PASSWORD, tableName, uniqueEmail, type RegisteredUser } from '../support/api.js';
import { paidUser, subscribedUser } from '../support/billing.js';
import { fakeStripe } from '../support/fake-stripe-client.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** The member item and pointer the team service writes when someone joins (adapters/dynamo/team.ts keys). */
async function join(accountId: string, person: RegisteredUser, role: 'admin' | 'agent'): Promise<void> {
  const personId = person.session.user._id;
  const joinedAt = new Date().toISOString();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { pk: `USER#${accountId}`, sk: `MEMBER#${personId}`, entity: 'member', personId, role, joinedAt, state: 'active', name: person.name, email: person.email },
    }),
  );
  await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `PERSON#${personId}`, sk: 'MEMBERSHIP', accountId, role } }));
}

/** A new person in the owner's account, signed in again so their tokens carry the account (pre-token trigger). */
async function member(accountId: string, name: string, role: 'admin' | 'agent'): Promise<{ person: RegisteredUser; id: string; token: string; login: AuthSession }> {
  const person = await registerUser({ name, email: uniqueEmail(name.toLowerCase().replace(/\s+/g, '.')) });
  await join(accountId, person, role);
  const login = await post<AuthSession>('/api/login', { email: person.email, password: STRONG_PASSWORD });
  if (login.status !== 200 || !login.body.data) throw new Error(`login failed: ${login.status} ${login.body.message}`);
  const claims = decodeJwt(login.body.data.token);
  // Without these the rest would test a single-user account: say so plainly.
  if (claims[ACCOUNT_CLAIMS.account] !== accountId || claims[ACCOUNT_CLAIMS.role] !== role) {
    throw new Error(`the local stack issued no account claims (got ${JSON.stringify(claims)}): is cognito-local running the pre-token trigger?`);
  }
  return { person, id: person.session.user._id, token: login.body.data.token, login: login.body.data };
}

const profileOf = (userId: string) => getItem(`USER#${userId}`, 'PROFILE');
/** The account's activity entries 'account_settings.changed' made by a person. */
const settingsChangesBy = async (personId: string) =>
  (await itemsOf(`USER#${owner.id}`)).filter((i) => String(i.sk).startsWith('ACTIVITY#') && i.action === 'account_settings.changed' && i.actorId === personId);
const saveProfile = (token: string, body: Record<string, unknown>) => api<User>('PUT', '/api/user/profile', { token, body });

let owner: { token: string; id: string };

beforeAll(async () => {
  const { token, userId } = await paidUser({ name: 'Ana García', plan: 'professional' });
  owner = { token, id: userId };
  const saved = await saveProfile(token, { name: 'Ana García', language: 'es', phoneNumber: '', country: 'ES', timeZone: 'Europe/Madrid' });
  if (saved.status !== 200) throw new Error(`owner settings: ${saved.status} ${saved.body.message}`);
}, 120_000);

describe('GET /api/me of a member', () => {
  it('shows the person with the account: its subscription, features, settings and name, and their role in it', async () => {
    const lucia = await member(owner.id, 'Lucía Martín', 'agent');

    const me = await api<User>('GET', '/api/me', { token: lucia.token });

    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      _id: lucia.id,
      name: 'Lucía Martín',
      email: lucia.person.email,
      language: 'en',
      // The account's: a member of a paying clinic in Madrid has the app, in Madrid's time.
      hasActiveSubscription: true,
      features: { whatsapp: true },
      country: 'ES',
      timeZone: 'Europe/Madrid',
      accountId: owner.id,
      accountRole: 'agent',
      accountName: 'Ana García',
      // The platform's badge, unchanged.
      role: 'user',
    });
    // Her own login is not subscribed: the subscription shown is the account's.
    expect(await getItem(`USER#${lucia.id}`, 'SUBSCRIPTION')).toBeUndefined();
    // The sign-in answer already says where she works (the app draws its menus from it).
    expect(lucia.login.user).toMatchObject({ _id: lucia.id, accountId: owner.id, accountRole: 'agent', hasActiveSubscription: true });
    expect((await api<User>('GET', '/api/user/profile', { token: lucia.token })).body.data).toEqual(me.body.data);
  });

  it('is unchanged for the owner of the account: their own id, as owner', async () => {
    const me = await api<User>('GET', '/api/me', { token: owner.token });

    expect(me.body.data).toMatchObject({ _id: owner.id, accountId: owner.id, accountRole: 'owner', accountName: 'Ana García', hasActiveSubscription: true, timeZone: 'Europe/Madrid' });
  });
});

describe('a member edits their own profile', () => {
  it('name, phone and language are hers; the owner\'s profile is unchanged', async () => {
    const lucia = await member(owner.id, 'Lucía Martín', 'agent');
    const ownerBefore = await profileOf(owner.id);

    // The settings form sends the account's country and zone back as they are: allowed.
    const res = await saveProfile(lucia.token, { name: 'Lucía Martín Peña', phoneNumber: '612 34 56 78', language: 'es', country: 'ES', timeZone: 'Europe/Madrid' });

    expect(res.status).toBe(200);
    // A phone without prefix is read in the account's country.
    expect(res.body.data).toMatchObject({ _id: lucia.id, name: 'Lucía Martín Peña', phoneNumber: '+34612345678', language: 'es', accountId: owner.id });
    expect(await profileOf(lucia.id)).toMatchObject({ name: 'Lucía Martín Peña', phoneNumber: '+34612345678', language: 'es' });
    expect(await profileOf(owner.id)).toEqual(ownerBefore);
    // Her own name and language are not the account's settings: nothing in the activity log.
    expect(await settingsChangesBy(lucia.id)).toEqual([]);

    // POST /api/settings too (the spec's three fields).
    const spec = await post<User>('/api/settings', { name: 'Lucía M.', phoneNumber: '', language: 'en' }, lucia.token);
    expect(spec.status).toBe(200);
    expect(await profileOf(lucia.id)).toMatchObject({ name: 'Lucía M.', language: 'en' });
    expect(await profileOf(owner.id)).toEqual(ownerBefore);
  });

  it('her avatar is stored under her own id and shown on her profile only', async () => {
    const lucia = await member(owner.id, 'Lucía Martín', 'agent');
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'lucia.png');

    const res = await api<User>('POST', '/api/user/avatar', { token: lucia.token, rawBody: form });

    expect(res.status).toBe(200);
    expect(String((await profileOf(lucia.id))?.avatarKey)).toMatch(new RegExp(`^avatars/${lucia.id}/`));
    expect(await profileOf(owner.id)).not.toHaveProperty('avatarKey');
    expect(res.body.data).toMatchObject({ _id: lucia.id, accountId: owner.id, accountRole: 'agent' });
  });

  it('her password change is her login\'s: she signs in with the new one, the owner with theirs', async () => {
    const lucia = await member(owner.id, 'Lucía Martín', 'agent');

    const res = await post('/api/update-password', { currentPassword: STRONG_PASSWORD, newPassword: 'Nueva#2026' }, lucia.token);

    expect(res.status).toBe(200);
    expect((await post('/api/login', { email: lucia.person.email, password: 'Nueva#2026' })).status).toBe(200);
    expect((await api<User>('GET', '/api/me', { token: owner.token })).status).toBe(200);
  });
});

describe('the account\'s country and time zone', () => {
  it('an agent cannot change them: 403 with the text, nothing written (not even her name)', async () => {
    const lucia = await member(owner.id, 'Lucía Martín', 'agent');
    const ownerBefore = await profileOf(owner.id);
    const hersBefore = await profileOf(lucia.id);

    const zone = await saveProfile(lucia.token, { name: 'Lucía Cambiada', phoneNumber: '', language: 'es', timeZone: 'Atlantic/Canary' });
    const country = await post('/api/settings', { name: 'Lucía Cambiada', phoneNumber: '', language: 'es', country: 'MX' }, lucia.token);

    for (const res of [zone, country]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, message: teamMessages.forbidden });
    }
    expect(await profileOf(owner.id)).toEqual(ownerBefore);
    expect(await profileOf(lucia.id)).toEqual(hersBefore);
    expect(await settingsChangesBy(lucia.id)).toEqual([]);
  });

  it('an admin changes them for the whole account: the owner\'s profile holds them, everyone reads them', async () => {
    const admin = await member(owner.id, 'Jorge Núñez', 'admin');
    const agent = await member(owner.id, 'Lucía Martín', 'agent');

    const res = await saveProfile(admin.token, { name: 'Jorge Núñez', phoneNumber: '', language: 'es', timeZone: 'Atlantic/Canary' });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ _id: admin.id, timeZone: 'Atlantic/Canary', accountRole: 'admin' });
    expect(await profileOf(owner.id)).toMatchObject({ name: 'Ana García', timeZone: 'Atlantic/Canary', country: 'ES' });
    expect((await profileOf(admin.id))?.timeZone).not.toBe('Atlantic/Canary');
    expect((await api<User>('GET', '/api/me', { token: agent.token })).body.data?.timeZone).toBe('Atlantic/Canary');
    expect((await api<User>('GET', '/api/me', { token: owner.token })).body.data?.timeZone).toBe('Atlantic/Canary');
    // Who did it: once, in the account's activity log.
    expect(await settingsChangesBy(admin.id)).toHaveLength(1);

    // Back to Madrid, by the owner: the account's setting, as before issue 32.
    const back = await saveProfile(owner.token, { name: 'Ana García', phoneNumber: '', language: 'es', timeZone: 'Europe/Madrid' });
    expect(back.status).toBe(200);
    expect(await profileOf(owner.id)).toMatchObject({ timeZone: 'Europe/Madrid' });
  });
});

describe('seats when the plan changes', () => {
  it('a downgrade below the team\'s size is refused (409, naming how many to remove), Stripe untouched; with room it goes through', async () => {
    const { token, userId, subscriptionId } = await subscribedUser('professional');
    // The owner and three receptionists: what the team repository's seat counter holds.
    await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `USER#${userId}`, sk: 'TEAM', entity: 'team', seatsUsed: 4, ownerId: userId } }));
    const stripeCalls = async () => (await fakeStripe().requests({ path: `/v1/subscriptions/${subscriptionId}`, method: 'POST' })).length;
    const before = await stripeCalls();

    const refused = await api<Subscription>('PUT', '/api/subscription/plan', { token, body: { plan: 'starter' } });

    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ success: false, message: 'This plan has 2 seats and your team has 4 people, you included. Remove 2 from your team before changing to it.' });
    expect(await stripeCalls()).toBe(before);
    expect((await getItem(`USER#${userId}`, 'SUBSCRIPTION'))?.plan).toBe('professional');

    await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `USER#${userId}`, sk: 'TEAM', entity: 'team', seatsUsed: 2, ownerId: userId } }));
    const done = await api<Subscription>('PUT', '/api/subscription/plan', { token, body: { plan: 'starter' } });
    expect(done.status).toBe(200);
    expect(done.body.data?.plan).toBe('starter');
  });
});
