import { describe, expect, it } from 'vitest';
import { detectImageType } from '../../../src/domain/account/avatar.js';
import { createAccountService, createAvatarService } from '../../../src/domain/account/service.js';
import { newProfile } from '../../../src/domain/auth/user-view.js';
import { ForbiddenError, NotFoundError, TooManyRequestsError, ValidationError } from '../../../src/domain/errors.js';
import { FakeClock, FakeIdentity, MemoryAvatars, MemoryRateLimiter, MemoryUsers } from '../auth/fakes.js';

/** The owner of a single-user account: the account's id is theirs. */
const own = (id: string) => ({ accountId: id, personId: id, role: 'owner' as const });

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a464946', 'hex');
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

async function setup(authProvider: 'password' | 'google' = 'password') {
  const clock = new FakeClock();
  const users = new MemoryUsers();
  const identity = new FakeIdentity();
  const avatars = new MemoryAvatars();
  const { userId } = await identity.createUser({ email: 'ana@example.com', password: 'Secret#123' });
  await users.create(newProfile({ userId, email: 'ana@example.com', name: 'Ana', authProvider, now: clock.now() }));
  const account = createAccountService({
    clock,
    users,
    identity,
    avatars,
    rateLimiter: new MemoryRateLimiter(clock),
    whatsappUserIds: [userId],
    defaultCountry: 'US',
    sleep: async () => undefined,
  });
  const avatarService = createAvatarService({ clock, users, avatars, whatsappUserIds: [userId], defaultCountry: 'US' });
  return { clock, users, identity, avatars, account, avatarService, userId };
}

describe('profile', () => {
  it('shows the user with features and subscription state', async () => {
    const { account, userId, users } = await setup();
    expect(await account.me(own(userId))).toMatchObject({ _id: userId, features: { whatsapp: true }, hasActiveSubscription: false });
    users.subscriptions.set(userId, 'trialing');
    expect((await account.me(own(userId))).hasActiveSubscription).toBe(true);
    users.subscriptions.set(userId, 'past_due');
    expect((await account.me(own(userId))).hasActiveSubscription).toBe(false);
    await expect(account.me(own('someone-else'))).rejects.toThrow(NotFoundError);
  });

  it('updates name, phone and language', async () => {
    const { account, userId, clock } = await setup();
    clock.advance(60);
    const { user, accountSettingsChanged } = await account.updateSettings(own(userId), { name: 'Ana María', phoneNumber: '+34600111222', language: 'es' });
    expect(accountSettingsChanged).toBe(false);
    expect(user).toMatchObject({ name: 'Ana María', phoneNumber: '+34600111222', language: 'es', email: 'ana@example.com' });
  });
});

describe('a member of a team account (issue 32)', () => {
  /** The owner's account with its country and zone, and Lucía, a member with `role`. */
  async function team(role: 'admin' | 'agent') {
    const s = await setup();
    await s.users.update(s.userId, { country: 'ES', timeZone: 'Europe/Madrid' }, '2026-01-01T00:00:00.000Z');
    const personId = 'lucia-sub';
    await s.users.create(newProfile({ userId: personId, email: 'lucía.martín@example.com', name: 'Lucía', authProvider: 'password', now: s.clock.now() }));
    return { ...s, caller: { accountId: s.userId, personId, role }, personId };
  }

  it('shows the person with the account\'s settings, subscription, role and name', async () => {
    const { account, caller, users, userId } = await team('agent');
    users.subscriptions.set(userId, 'active');
    expect(await account.me(caller)).toMatchObject({
      _id: 'lucia-sub', name: 'Lucía', country: 'ES', timeZone: 'Europe/Madrid',
      hasActiveSubscription: true, features: { whatsapp: true }, accountId: userId, accountRole: 'agent', accountName: 'Ana',
    });
  });

  it('edits their own name, phone and language, never the owner\'s; a phone without prefix is read in the account\'s country', async () => {
    const { account, caller, users, userId, personId } = await team('agent');
    const { user, accountSettingsChanged } = await account.updateSettings(caller, { name: 'Lucía Martín', phoneNumber: '612 34 56 78', language: 'es', country: 'ES', timeZone: 'Europe/Madrid' });
    // Sent back as they were: nothing of the account's changed.
    expect(accountSettingsChanged).toBe(false);
    expect(user).toMatchObject({ name: 'Lucía Martín', phoneNumber: '+34612345678', language: 'es', country: 'ES' });
    expect(await users.get(personId)).toMatchObject({ name: 'Lucía Martín', language: 'es' });
    expect(await users.get(userId)).toMatchObject({ name: 'Ana', language: 'en', country: 'ES', timeZone: 'Europe/Madrid' });
  });

  it('refuses an agent a different time zone or country (403), writing nothing', async () => {
    const { account, caller, users, userId, personId } = await team('agent');
    for (const change of [{ timeZone: 'Atlantic/Canary' }, { country: 'MX' }]) {
      await expect(account.updateSettings(caller, { name: 'Lucía Martín', phoneNumber: '', language: 'es', ...change })).rejects.toThrow(ForbiddenError);
    }
    expect(await users.get(personId)).toMatchObject({ name: 'Lucía', language: 'en' });
    expect(await users.get(userId)).toMatchObject({ country: 'ES', timeZone: 'Europe/Madrid' });
  });

  it('lets an admin change the account\'s time zone: written to the account, not to the admin', async () => {
    const { account, caller, users, userId, personId } = await team('admin');
    const { user, accountSettingsChanged } = await account.updateSettings(caller, { name: 'Lucía', phoneNumber: '', language: 'es', timeZone: 'Atlantic/Canary' });
    expect(accountSettingsChanged).toBe(true);
    expect(user.timeZone).toBe('Atlantic/Canary');
    expect(await users.get(userId)).toMatchObject({ name: 'Ana', timeZone: 'Atlantic/Canary' });
    expect(await users.get(personId)).not.toHaveProperty('timeZone');
  });
});

describe('change password', () => {
  it('checks the current password with a 400, never a 401', async () => {
    const { account, userId } = await setup();
    const error = await account.changePassword(userId, { currentPassword: 'Nope#1234', newPassword: 'Newer#1234' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe('Current password is incorrect');
  });

  it('changes the password', async () => {
    const { account, userId, identity } = await setup();
    await account.changePassword(userId, { currentPassword: 'Secret#123', newPassword: 'Newer#1234' });
    expect(await identity.signInWithPassword('ana@example.com', 'Newer#1234')).not.toBeNull();
    expect(await identity.signInWithPassword('ana@example.com', 'Secret#123')).toBeNull();
  });

  it('signs out every other session and gives this device new tokens', async () => {
    const { account, userId, identity } = await setup();
    const other = await identity.signInWithPassword('ana@example.com', 'Secret#123');

    const session = await account.changePassword(userId, { currentPassword: 'Secret#123', newPassword: 'Newer#1234' });

    expect(await identity.refresh(other?.refreshToken ?? '')).toBeNull();
    expect(await identity.refresh(session.refreshToken)).not.toBeNull();
    expect(session.token).toMatch(/^access-ana@example\.com-/);
  });

  it('logout signs the user out everywhere', async () => {
    const { account, userId, identity } = await setup();
    const tokens = await identity.signInWithPassword('ana@example.com', 'Secret#123');
    await account.logout(userId);
    expect(identity.signOuts).toEqual(['ana@example.com']);
    expect(await identity.refresh(tokens?.refreshToken ?? '')).toBeNull();
  });

  it('refuses the same password and Google accounts', async () => {
    const { account, userId } = await setup();
    await expect(account.changePassword(userId, { currentPassword: 'Secret#123', newPassword: 'Secret#123' })).rejects.toThrow(
      'New password must be different from the current password',
    );
    const google = await setup('google');
    await expect(google.account.changePassword(google.userId, { currentPassword: 'x', newPassword: 'Newer#1234' })).rejects.toThrow(
      /signs in with Google/,
    );
  });

  it('throttles repeated wrong current passwords like logins', async () => {
    const { account, userId, clock } = await setup();
    clock.ms = Math.ceil(clock.ms / 900_000) * 900_000;
    for (let i = 0; i < 5; i++) {
      await account.changePassword(userId, { currentPassword: 'Nope#1234', newPassword: 'Newer#1234' }).catch(() => undefined);
    }
    await expect(account.changePassword(userId, { currentPassword: 'Secret#123', newPassword: 'Newer#1234' })).rejects.toThrow(
      TooManyRequestsError,
    );
  });
});

describe('avatar', () => {
  it('recognises PNG, JPEG, GIF and WebP by their magic bytes only', () => {
    expect(detectImageType(PNG)?.ext).toBe('png');
    expect(detectImageType(JPEG)?.ext).toBe('jpg');
    expect(detectImageType(GIF)?.ext).toBe('gif');
    expect(detectImageType(WEBP)?.ext).toBe('webp');
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageType(Buffer.from('%PDF-1.7'))).toBeNull();
    expect(detectImageType(Buffer.alloc(0))).toBeNull();
  });

  it('stores a valid image under avatars/{userId}/ and returns a signed URL', async () => {
    const { avatarService, userId, avatars } = await setup();
    const user = await avatarService.uploadAvatar(own(userId), { bytes: PNG, truncated: false });
    const [key] = [...avatars.objects.keys()];
    expect(key).toMatch(new RegExp(`^avatars/${userId}/[0-9a-f-]{36}\\.png$`));
    expect(avatars.objects.get(key as string)?.contentType).toBe('image/png');
    expect(user.avatarUrl).toBe(`https://signed.example/${key}`);
  });

  it('rejects a non-image, a too-large file and a missing file', async () => {
    const { avatarService, userId, avatars } = await setup();
    await expect(avatarService.uploadAvatar(own(userId), { bytes: Buffer.from('hello'), truncated: false })).rejects.toThrow(
      'Avatar must be a PNG, JPEG, WebP or GIF image',
    );
    await expect(avatarService.uploadAvatar(own(userId), { bytes: PNG, truncated: true })).rejects.toThrow('Avatar must be 2 MB or smaller');
    await expect(avatarService.uploadAvatar(own(userId), null)).rejects.toThrow('Avatar image is required');
    expect(avatars.objects.size).toBe(0);
  });
});
