/** The signed-in user's account through the gateway: /api/me, settings, profile, password, avatar. */
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { User } from '../../src/contract/auth.js';
import { api, db, get, getItem, post, provided, registerUser, tableName } from '../support/api.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function avatarForm(bytes: Buffer, filename: string, type: string, field = 'avatar') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}

describe('GET /api/me and /api/user/profile', () => {
  it('returns the user with role, language, features and subscription state', async () => {
    const { session, email, name } = await registerUser({ name: 'Mia Me' });
    const me = await get<User>('/api/me', session.token);
    expect(me.status).toBe(200);
    expect(me.body.success).toBe(true);
    expect(me.body.data).toEqual({
      _id: session.user._id,
      name,
      email,
      phoneNumber: '',
      language: 'en',
      timeZone: 'UTC',
      // Issue 19: the deployment's default country until the user chooses one.
      country: 'US',
      role: 'user',
      createdAt: session.user.createdAt,
      authProvider: 'password',
      // Issue 29 item 7: no rollout list configured = WhatsApp for every account.
      features: { whatsapp: true },
      hasActiveSubscription: false,
      // Issue 32: a single-user account is its owner's, named after them.
      accountId: session.user._id,
      accountRole: 'owner',
      accountName: name,
    });
    expect((await get<User>('/api/user/profile', session.token)).body.data).toEqual(me.body.data);
  });

  it('reports an active subscription when billing has written one (active or trialing)', async () => {
    const { session } = await registerUser();
    const put = (status: string) =>
      db().send(new PutCommand({ TableName: tableName(), Item: { pk: `USER#${session.user._id}`, sk: 'SUBSCRIPTION', status } }));
    await put('trialing');
    expect((await get<User>('/api/me', session.token)).body.data?.hasActiveSubscription).toBe(true);
    await put('canceled');
    expect((await get<User>('/api/me', session.token)).body.data?.hasActiveSubscription).toBe(false);
  });
});

describe('POST /api/settings and PUT /api/user/profile', () => {
  it("updates name, phone and language, answering 'User updated successfully' with the user", async () => {
    const { session } = await registerUser();
    const res = await post<User>('/api/settings', { name: ' Nora Nueva ', phoneNumber: '+34600111222', language: 'es' }, session.token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('User updated successfully');
    expect(res.body.data).toMatchObject({ name: 'Nora Nueva', phoneNumber: '+34600111222', language: 'es', email: session.user.email });
    expect(await getItem(`USER#${session.user._id}`, 'PROFILE')).toMatchObject({ name: 'Nora Nueva', phoneNumber: '+34600111222', language: 'es' });

    const put = await api<User>('PUT', '/api/user/profile', { token: session.token, body: { name: 'Nora', phoneNumber: '', language: 'en' } });
    expect(put.status).toBe(200);
    expect(put.body.message).toBe('Profile updated successfully');
    expect(put.body.data).toMatchObject({ name: 'Nora', phoneNumber: '', language: 'en' });
  });

  it('keeps the dashboard time zone (default UTC) and leaves it unchanged when absent', async () => {
    const { session } = await registerUser();
    expect(session.user.timeZone).toBe('UTC');

    const set = await api<User>('PUT', '/api/user/profile', { token: session.token, body: { name: 'Ana', language: 'en', timeZone: 'America/New_York' } });
    expect(set.status).toBe(200);
    expect(set.body.data?.timeZone).toBe('America/New_York');
    const without = await post<User>('/api/settings', { name: 'Ana', language: 'en' }, session.token);
    expect(without.body.data?.timeZone).toBe('America/New_York');
    expect((await get<User>('/api/user/profile', session.token)).body.data?.timeZone).toBe('America/New_York');
  });

  it('cannot change the e-mail', async () => {
    const { session } = await registerUser();
    const res = await post<User>('/api/settings', { name: 'Ana', language: 'en', email: 'other@example.com' }, session.token);
    expect(res.status).toBe(200);
    expect(res.body.data?.email).toBe(session.user.email);
  });

  const ok = { name: 'Ana', phoneNumber: '+34600111222', language: 'en' };
  it.each([
    [{ ...ok, name: '' }, 'Name is required'],
    [{ ...ok, name: 'A' }, 'Name must be at least 2 characters'],
    [{ ...ok, name: 'A'.repeat(51) }, 'Name must be less than 50 characters'],
    // Issue 19: a number is read in the account's country (US by default) and the refusal names its form.
    [{ ...ok, phoneNumber: '0600111222' }, 'Please enter a valid phone number, e.g. (201) 555-0123 or +1 201 555 0123'],
    [{ ...ok, phoneNumber: '+12345678901234567' }, 'Please enter a valid phone number'],
    [{ ...ok, phoneNumber: '600 111 222' }, 'Please enter a valid phone number, e.g. (201) 555-0123 or +1 201 555 0123'],
    [{ ...ok, language: 'fr' }, 'Language is required'],
    [{ name: 'Ana', phoneNumber: '' }, 'Language is required'],
    [{ ...ok, timeZone: 'Mars/Olympus' }, 'Time zone must be a valid IANA time zone, e.g. Europe/Madrid'],
    [{ ...ok, timeZone: '' }, 'Time zone must be a valid IANA time zone, e.g. Europe/Madrid'],
  ])('%j → 400 %s', async (body, message) => {
    const { session } = await registerUser();
    const res = await post('/api/settings', body, session.token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
  });

  it('answers 401 without a token', async () => {
    expect((await post('/api/settings', ok)).status).toBe(401);
  });
});

describe('POST /api/update-password', () => {
  it('changes the password after checking the current one', async () => {
    const { session, email, password } = await registerUser();
    const res = await post('/api/update-password', { currentPassword: password, newPassword: 'Fresh#Pass9' }, session.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Password updated successfully',
      data: { token: expect.any(String), refreshToken: expect.any(String), expiresIn: expect.any(Number) },
    });
    expect((await post('/api/login', { email, password })).status).toBe(401);
    expect((await post('/api/login', { email, password: 'Fresh#Pass9' })).status).toBe(200);
  });

  it('answers 400 (never 401) for a wrong current password', async () => {
    const { session, email, password } = await registerUser();
    const res = await post('/api/update-password', { currentPassword: 'Wrong#1234', newPassword: 'Fresh#Pass9' }, session.token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Current password is incorrect');
    expect((await post('/api/login', { email, password })).status).toBe(200);
  });

  it.each([
    [{ newPassword: 'Fresh#Pass9' }, 'Current password is required'],
    [{ currentPassword: 'x' }, 'New password is required'],
    [{ currentPassword: 'x', newPassword: 'Ab1!' }, 'Password must be at least 8 characters'],
    [{ currentPassword: 'x', newPassword: 'abcdefgh1' }, 'Password must include at least one letter, one number, and one special character'],
    [{ currentPassword: 'x', newPassword: 'abcdefgh!' }, 'Password must include at least one letter, one number, and one special character'],
    [{ currentPassword: 'x', newPassword: '123456789!' }, 'Password must include at least one letter, one number, and one special character'],
  ])('%j → 400 %s', async (body, message) => {
    const { session } = await registerUser();
    const res = await post('/api/update-password', body, session.token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});

describe('POST /api/user/avatar', () => {
  it('stores a PNG in the uploads bucket and returns a working presigned URL', async () => {
    const { session } = await registerUser();

    const res = await api<User>('POST', '/api/user/avatar', { token: session.token, rawBody: avatarForm(PNG, 'me.png', 'image/png') });

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Avatar updated successfully');
    const profile = await getItem(`USER#${session.user._id}`, 'PROFILE');
    expect(profile?.avatarKey).toMatch(new RegExp(`^avatars/${session.user._id}/[0-9a-f-]{36}\\.png$`));
    const s3 = new S3Client({
      endpoint: provided('s3Endpoint'),
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const object = await s3.send(new GetObjectCommand({ Bucket: provided('uploadsBucket'), Key: String(profile?.avatarKey) }));
    expect(object.ContentType).toBe('image/png');
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(PNG)).toBe(true);
    const url = res.body.data?.avatarUrl as string;
    expect(url).toContain('X-Amz-Signature');
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await api<User>('GET', '/api/me', { token: session.token })).body.data?.avatarUrl).toContain(String(profile?.avatarKey));
  });

  it('rejects a file that is not an image, whatever it claims to be', async () => {
    const { session } = await registerUser();
    const res = await api('POST', '/api/user/avatar', {
      token: session.token,
      rawBody: avatarForm(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'me.png', 'image/png'),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Avatar must be a PNG, JPEG, WebP or GIF image');
    expect((await getItem(`USER#${session.user._id}`, 'PROFILE'))?.avatarKey).toBeUndefined();
  });

  it('rejects a file over 2 MB', async () => {
    const { session } = await registerUser();
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await api('POST', '/api/user/avatar', { token: session.token, rawBody: avatarForm(big, 'big.png', 'image/png') });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Avatar must be 2 MB or smaller');
  });

  it('asks for the file when the avatar field is missing', async () => {
    const { session } = await registerUser();
    const res = await api('POST', '/api/user/avatar', { token: session.token, rawBody: avatarForm(PNG, 'me.png', 'image/png', 'photo') });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Avatar image is required');
  });
});
