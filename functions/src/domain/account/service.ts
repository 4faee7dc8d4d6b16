/** The signed-in user's account: profile, settings, password change, avatar. */
import { randomUUID } from 'node:crypto';
import type { Language, PasswordChangedSession, User } from '../../contract/auth.js';
import { messages as contractMessages } from '../../contract/auth.js';
import { accountMessages } from '../../contract/account-texts.js';
import { NotFoundError, ValidationError } from '../errors.js';
import {
  IdentityPasswordPolicyError,
  type Clock,
  type IdentityProvider,
  type RateLimiter,
  type UserProfile,
} from '../auth/ports.js';
import { checkPasswordThrottled } from '../auth/throttle.js';
import { toUser, type UserViewDeps } from '../auth/user-view.js';
import { phoneInvalidFor, toE164 } from '../contacts/text.js';
import { AVATAR_MAX_BYTES, avatarMessages, detectImageType } from './avatar.js';
import type { AvatarStore } from './ports.js';

/** Its texts live in the contract, where the UI's translations are checked against them. */
export { accountMessages };

export interface AccountDeps extends UserViewDeps {
  identity: IdentityProvider;
  rateLimiter: RateLimiter;
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The avatar upload is its own route group: only it bundles the S3 client. */
export interface AvatarDeps extends UserViewDeps {
  avatars: AvatarStore;
  clock: Clock;
}

async function profileOf(deps: UserViewDeps, userId: string): Promise<UserProfile> {
  const found = await deps.users.get(userId);
  if (!found) throw new NotFoundError(accountMessages.userNotFound);
  return found;
}

export function createAccountService(deps: AccountDeps) {
  const profile = (userId: string) => profileOf(deps, userId);

  /** E.164 of the typed profile phone, or the 400 naming the country's form; '' stays ''. */
  async function profilePhone(userId: string, typed: string, country: string | undefined): Promise<string> {
    if (!typed) return '';
    const stored = await profile(userId);
    // A number saved before issue 19 (SPEC's digits-only pattern) is kept as it is when unchanged.
    if (typed === stored.phoneNumber) return typed;
    const readIn = country || stored.country || deps.defaultCountry;
    const e164 = toE164(typed, readIn);
    if (!e164) throw new ValidationError(phoneInvalidFor(readIn), 'phoneNumber');
    return e164;
  }

  return {
    async me(userId: string): Promise<User> {
      return toUser(await profile(userId), deps);
    },

    /**
     * `timeZone` and `country` absent = unchanged (older clients send only the three spec fields).
     * The phone is read like every phone input (issue 19): a number without its prefix belongs to
     * the country being saved, else the account's; it is stored in E.164.
     */
    async updateSettings(
      userId: string,
      input: { name: string; phoneNumber: string; language: Language; timeZone?: string | undefined; country?: string | undefined },
    ): Promise<User> {
      const phoneNumber = await profilePhone(userId, input.phoneNumber, input.country);
      const updated = await deps.users.update(
        userId,
        {
          name: input.name,
          phoneNumber,
          language: input.language,
          ...(input.timeZone ? { timeZone: input.timeZone } : {}),
          ...(input.country ? { country: input.country } : {}),
        },
        new Date(deps.clock.now()).toISOString(),
      );
      if (!updated) throw new NotFoundError(accountMessages.userNotFound);
      return toUser(updated, deps);
    },

    /** Signs the user out everywhere: every refresh token stops working (access tokens expire on their own). */
    async logout(userId: string): Promise<void> {
      await deps.identity.signOutEverywhere((await profile(userId)).email);
    },

    /**
     * Checks the current password (a wrong one is a 400, never a 401: the client logs out on
     * any 401), counting failures against the same per-e-mail throttle as logins. The new
     * password signs the user out everywhere (a stolen session ends with the old password); this
     * device gets new tokens.
     */
    async changePassword(userId: string, input: { currentPassword: string; newPassword: string }): Promise<PasswordChangedSession> {
      const user = await profile(userId);
      if (user.authProvider === 'google') throw new ValidationError(accountMessages.googleAccount);
      const ok = await checkPasswordThrottled(deps.rateLimiter, user.email, () =>
        deps.identity.signInWithPassword(user.email, input.currentPassword),
      );
      if (!ok) throw new ValidationError(accountMessages.currentPasswordIncorrect, 'currentPassword');
      if (input.newPassword === input.currentPassword) throw new ValidationError(accountMessages.samePassword, 'newPassword');
      try {
        await deps.identity.setPassword(user.email, input.newPassword);
      } catch (error) {
        if (error instanceof IdentityPasswordPolicyError) throw new ValidationError(contractMessages.passwordStrength, 'newPassword');
        throw error;
      }
      await deps.identity.signOutEverywhere(user.email);
      // Cognito may also revoke tokens issued within the second of a global sign-out: sign in after it.
      await (deps.sleep ?? defaultSleep)(1100 - (deps.clock.now() % 1000));
      const tokens = await deps.identity.signInWithPassword(user.email, input.newPassword);
      if (!tokens) throw new Error('The password just set could not sign in');
      return { token: tokens.accessToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

export function createAvatarService(deps: AvatarDeps) {
  return {
    /** Stores the image at avatars/{userId}/{uuid}.{ext} and points the profile at it. */
    async uploadAvatar(userId: string, file: { bytes: Uint8Array; truncated: boolean } | null): Promise<User> {
      if (!file || file.bytes.length === 0) throw new ValidationError(avatarMessages.required, 'avatar');
      if (file.truncated || file.bytes.length > AVATAR_MAX_BYTES) throw new ValidationError(avatarMessages.tooLarge, 'avatar');
      const type = detectImageType(file.bytes);
      if (!type) throw new ValidationError(avatarMessages.badType, 'avatar');
      await profileOf(deps, userId);
      const key = `avatars/${userId}/${randomUUID()}.${type.ext}`;
      await deps.avatars.put(key, file.bytes, type.contentType);
      const updated = await deps.users.update(userId, { avatarKey: key }, new Date(deps.clock.now()).toISOString());
      if (!updated) throw new NotFoundError(accountMessages.userNotFound);
      return toUser(updated, deps);
    },
  };
}

