/** The signed-in user's account: profile, settings, password change, avatar. */
import { randomUUID } from 'node:crypto';
import type { Language, PasswordChangedSession, User } from '../../contract/auth.js';
import { messages as contractMessages } from '../../contract/auth.js';
import { accountMessages } from '../../contract/account-texts.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { roleAtLeast, teamMessages, type MemberRole } from '../../contract/team.js';
import {
  IdentityPasswordPolicyError,
  type Clock,
  type IdentityProvider,
  type ProfilePatch,
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

/**
 * Who is asking (issue 32): the account (the tenant), the person in it and their role. For the
 * owner of a single-user account the two ids are equal.
 */
export interface AccountCaller {
  accountId: string;
  personId: string;
  role: MemberRole;
}

/** The settings that belong to the account, not the person: only an admin or the owner changes them. */
const BUSINESS_SETTINGS = ['timeZone', 'country'] as const;

export function createAccountService(deps: AccountDeps) {
  const profile = (userId: string) => profileOf(deps, userId);

  /** The account's profile (its owner's user item): the person's own when they are the owner. */
  async function accountProfileOf(caller: AccountCaller, own: UserProfile): Promise<UserProfile | null> {
    return caller.accountId === caller.personId ? own : deps.users.get(caller.accountId);
  }

  /** E.164 of the typed profile phone, or the 400 naming the country's form; '' stays ''. */
  function profilePhone(stored: UserProfile, typed: string, country: string | undefined): string {
    if (!typed) return '';
    // A number saved before issue 19 (SPEC's digits-only pattern) is kept as it is when unchanged.
    if (typed === stored.phoneNumber) return typed;
    const readIn = country || deps.defaultCountry;
    const e164 = toE164(typed, readIn);
    if (!e164) throw new ValidationError(phoneInvalidFor(readIn), 'phoneNumber');
    return e164;
  }

  return {
    async me(caller: AccountCaller): Promise<User> {
      const own = await profile(caller.personId);
      return toUser(own, deps, { accountId: caller.accountId, role: caller.role });
    },

    /**
     * Name, phone and language are the person's own profile; `timeZone` and `country` are the
     * account's (its owner's profile), absent = unchanged (older clients send only the three spec
     * fields). An agent may send them back as they are (the form does) but not change them: 403
     * before anything is written. The phone is read like every phone input (issue 19): a number
     * without its prefix belongs to the country being saved, else the account's; stored in E.164.
     * `accountSettingsChanged`: the account's settings changed (the activity log records it).
     */
    async updateSettings(
      caller: AccountCaller,
      input: { name: string; phoneNumber: string; language: Language; timeZone?: string | undefined; country?: string | undefined },
    ): Promise<{ user: User; accountSettingsChanged: boolean }> {
      const own = await profile(caller.personId);
      const account = (await accountProfileOf(caller, own)) ?? own;
      const business: ProfilePatch = {};
      for (const field of BUSINESS_SETTINGS) {
        const value = input[field];
        if (value && value !== account[field]) business[field] = value;
      }
      if (Object.keys(business).length > 0 && !roleAtLeast(caller.role, 'admin')) throw new ForbiddenError(teamMessages.forbidden);
      const phoneNumber = profilePhone(own, input.phoneNumber, input.country || account.country);
      const at = new Date(deps.clock.now()).toISOString();
      const person: ProfilePatch = { name: input.name, phoneNumber, language: input.language };
      const sameItem = caller.accountId === caller.personId;
      const updated = await deps.users.update(caller.personId, sameItem ? { ...person, ...business } : person, at);
      if (!updated) throw new NotFoundError(accountMessages.userNotFound);
      let accountAfter: UserProfile | null = sameItem ? updated : account;
      if (!sameItem && Object.keys(business).length > 0) accountAfter = await deps.users.update(caller.accountId, business, at);
      const user = await toUser(updated, deps, { accountId: caller.accountId, role: caller.role, profile: accountAfter });
      return { user, accountSettingsChanged: Object.keys(business).length > 0 };
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
    /** Stores the image at avatars/{personId}/{uuid}.{ext} and points the person's own profile at it. */
    async uploadAvatar(caller: AccountCaller, file: { bytes: Uint8Array; truncated: boolean } | null): Promise<User> {
      if (!file || file.bytes.length === 0) throw new ValidationError(avatarMessages.required, 'avatar');
      if (file.truncated || file.bytes.length > AVATAR_MAX_BYTES) throw new ValidationError(avatarMessages.tooLarge, 'avatar');
      const type = detectImageType(file.bytes);
      if (!type) throw new ValidationError(avatarMessages.badType, 'avatar');
      const personId = caller.personId;
      await profileOf(deps, personId);
      const key = `avatars/${personId}/${randomUUID()}.${type.ext}`;
      await deps.avatars.put(key, file.bytes, type.contentType);
      const updated = await deps.users.update(personId, { avatarKey: key }, new Date(deps.clock.now()).toISOString());
      if (!updated) throw new NotFoundError(accountMessages.userNotFound);
      return toUser(updated, deps, { accountId: caller.accountId, role: caller.role });
    },
  };
}

