/**
 * Administrators (Cognito group 'admin') and phone-number requests through the gateway: only
 * admins pass, the list spans users with their name and e-mail, approve / reject / assign move
 * the request (the user sees it on the voice settings page), assign e-mails the user.
 */
import { AdminAddUserToGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthSession, User } from '../../src/contract/auth.js';
import { voiceMessages, type PhoneRequestAdminView, type VoiceSettings } from '../../src/contract/voice.js';
import { get, mailsTo, post, provided, registerUser, type RegisteredUser } from '../support/api.js';
import { grantSubscription } from '../support/billing.js';
import { testCognitoClient } from '../support/stack-clients.js';

/** Registers a user, adds them to the 'admin' group in cognito-local and signs in again (the new token carries cognito:groups). */
async function registerAdmin(): Promise<RegisteredUser> {
  const user = await registerUser({ name: 'Ada Admin' });
  const cognito = testCognitoClient();
  try {
    await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: provided('userPoolId'), Username: user.email, GroupName: 'admin' }));
  } finally {
    cognito.destroy();
  }
  const login = await post<AuthSession>('/api/login', { email: user.email, password: user.password });
  if (login.status !== 200 || !login.body.data) throw new Error(`login failed: ${login.status} ${login.body.message}`);
  return { ...user, session: login.body.data };
}

/** A user who may request a phone number: a paid feature (an active subscription). */
async function subscriber(input: { name?: string } = {}): Promise<RegisteredUser> {
  const user = await registerUser(input);
  await grantSubscription(user.session.user._id);
  return user;
}

const settingsOf = async (u: RegisteredUser) => (await get<VoiceSettings>('/api/voice-settings', u.session.token)).body.data as VoiceSettings;
const requestPhone = (u: RegisteredUser, notes = '') => post<VoiceSettings>('/api/voice-settings/request-phone', { notes }, u.session.token);
const listRequests = async (admin: RegisteredUser, status = '') =>
  get<PhoneRequestAdminView[]>(`/api/admin/phone-requests${status ? `?status=${status}` : ''}`, admin.session.token);

let admin: RegisteredUser;
beforeAll(async () => {
  admin = await registerAdmin();
});

describe('who is an admin', () => {
  it("GET /api/me answers role 'admin' for a member of the Cognito group, 'user' otherwise", async () => {
    const plain = await registerUser();
    expect((await get<User>('/api/me', admin.session.token)).body.data?.role).toBe('admin');
    expect((await get<User>('/api/me', plain.session.token)).body.data?.role).toBe('user');
  });

  it('a non-admin gets 403 on every admin route and changes nothing', async () => {
    const user = await subscriber();
    await requestPhone(user);
    const token = user.session.token;
    const id = user.session.user._id;
    const attempts = [
      await get('/api/admin/phone-requests', token),
      await post(`/api/admin/phone-requests/${id}/approve`, undefined, token),
      await post(`/api/admin/phone-requests/${id}/reject`, { reason: 'no' }, token),
      await post(`/api/admin/phone-requests/${id}/assign`, { number: '+14155550100' }, token),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(voiceMessages.adminOnly);
    }
    expect((await settingsOf(user)).phoneNumber.status).toBe('pending');
  });

  it('without a token the admin routes answer 401', async () => {
    expect((await get('/api/admin/phone-requests')).status).toBe(401);
  });
});

describe('phone-number requests', () => {
  it('lists every user’s request with name and e-mail, newest first, filtered by status', async () => {
    const first = await subscriber({ name: 'First Caller' });
    const second = await subscriber({ name: 'Second Caller' });
    await requestPhone(first, 'Madrid');
    await requestPhone(second, 'Barcelona');

    const res = await listRequests(admin, 'pending');

    expect(res.status).toBe(200);
    const rows = (res.body.data ?? []).filter((r) => [first.session.user._id, second.session.user._id].includes(r.userId));
    expect(rows.map((r) => r.userId)).toEqual([second.session.user._id, first.session.user._id]);
    expect(rows[1]).toMatchObject({ userName: 'First Caller', userEmail: first.email, request: { status: 'pending', notes: 'Madrid', requested: true } });
    const approved = (await listRequests(admin, 'approved')).body.data ?? [];
    expect(approved.some((r) => r.userId === first.session.user._id)).toBe(false);
    const all = (await listRequests(admin)).body.data ?? [];
    expect(all.filter((r) => r.userId === first.session.user._id)).toHaveLength(1);
  });

  it('approve → assign: the user sees the number on the voice settings page and gets an e-mail with it; others are untouched', async () => {
    const user = await subscriber({ name: 'Nora Number' });
    const bystander = await subscriber();
    await requestPhone(user, 'Please');
    await requestPhone(bystander, 'Me too');
    const bystanderBefore = await settingsOf(bystander);
    const id = user.session.user._id;

    const approved = await post<PhoneRequestAdminView>(`/api/admin/phone-requests/${id}/approve`, undefined, admin.session.token);
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe(voiceMessages.requestApproved);
    expect(approved.body.data?.request.status).toBe('approved');
    expect((await settingsOf(user)).phoneNumber.status).toBe('approved');

    const before = Date.now();
    const assigned = await post<PhoneRequestAdminView>(`/api/admin/phone-requests/${id}/assign`, { number: ' +34911234567 ' }, admin.session.token);

    expect(assigned.status).toBe(200);
    expect(assigned.body.message).toBe(voiceMessages.numberAssigned);
    const phone = (await settingsOf(user)).phoneNumber;
    expect(phone).toMatchObject({ requested: true, status: 'assigned', number: '+34911234567', notes: 'Please' });
    expect(Date.parse(phone.assignedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(assigned.body.data).toEqual({ userId: id, userName: 'Nora Number', userEmail: user.email, request: phone });
    const mails = await mailsTo(user.email);
    const mail = mails.find((m) => /phone number/i.test(m.subject));
    expect(mail?.body.text).toContain('+34911234567');
    expect(mail?.body.text).toContain('/voice-settings#phone-number');
    expect(await settingsOf(bystander)).toEqual(bystanderBefore);
    expect((await mailsTo(bystander.email)).some((m) => /phone number/i.test(m.subject))).toBe(false);

    // Assigned: no more changes, and the user cannot request or cancel.
    const again = await post(`/api/admin/phone-requests/${id}/reject`, { reason: 'late' }, admin.session.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(voiceMessages.requestNotPendingOrApproved);
    expect((await requestPhone(user)).body.message).toBe(voiceMessages.phoneAlreadyAssigned);
  });

  it('assign straight from pending works too; a number not in E.164 is refused', async () => {
    const user = await subscriber();
    await requestPhone(user);
    const id = user.session.user._id;
    const bad = await post(`/api/admin/phone-requests/${id}/assign`, { number: '555 0100' }, admin.session.token);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(voiceMessages.assignedNumberInvalid);
    expect((await settingsOf(user)).phoneNumber.status).toBe('pending');

    const ok = await post<PhoneRequestAdminView>(`/api/admin/phone-requests/${id}/assign`, { number: '+14155550199' }, admin.session.token);
    expect(ok.status).toBe(200);
    expect((await settingsOf(user)).phoneNumber).toMatchObject({ status: 'assigned', number: '+14155550199' });
  });

  it('reject with a reason: the user sees it and may request again', async () => {
    const user = await subscriber();
    await requestPhone(user);
    const id = user.session.user._id;

    const rejected = await post<PhoneRequestAdminView>(`/api/admin/phone-requests/${id}/reject`, { reason: 'No numbers in that area' }, admin.session.token);

    expect(rejected.status).toBe(200);
    expect(rejected.body.message).toBe(voiceMessages.requestRejected);
    expect((await settingsOf(user)).phoneNumber).toMatchObject({ status: 'rejected', rejectionReason: 'No numbers in that area' });
    const approveRejected = await post(`/api/admin/phone-requests/${id}/approve`, undefined, admin.session.token);
    expect(approveRejected.status).toBe(409);
    const again = await requestPhone(user, 'second try');
    expect(again.status).toBe(200);
    expect(again.body.data?.phoneNumber).toMatchObject({ status: 'pending', notes: 'second try', rejectionReason: null });
  });

  it('a user without a request (or an unknown user id) answers 404', async () => {
    const user = await registerUser();
    for (const id of [user.session.user._id, 'no-such-user']) {
      const res = await post(`/api/admin/phone-requests/${id}/approve`, undefined, admin.session.token);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(voiceMessages.phoneRequestNotFound);
    }
  });
});
