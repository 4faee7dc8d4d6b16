/** The `User` the API returns (contract/auth.ts), built from the profile item. */
import type { Language, User } from '../../contract/auth.js';
import { startingTimeZone } from '../../contract/time-zones.js';
import type { MemberRole } from '../../contract/team.js';
import type { AvatarUrlSigner, UserProfile, UserRepository } from './ports.js';

export interface UserViewDeps {
  users: UserRepository;
  /**
   * The operator's optional WhatsApp rollout list (config WHATSAPP_USER_IDS, issue 29 item 7):
   * empty = every account sees WhatsApp (the default); otherwise only these sub ids.
   */
  whatsappUserIds: readonly string[];
  /** The country of profiles that never chose one (config CONTACTS_DEFAULT_COUNTRY). */
  defaultCountry: string;
  /** Absent in route groups without uploads access: avatarUrl is then omitted. */
  avatars?: AvatarUrlSigner;
}

/** WhatsApp is every account's unless the operator set a rollout list (then only its ids). */
export const whatsappFor = (userId: string, allowList: readonly string[]): boolean => allowList.length === 0 || allowList.includes(userId);

/**
 * Where the person works (issue 32): the account's id and their role there, as the request's
 * token says. Absent: their own account, as its owner (every single-user account).
 */
export interface AccountContext {
  accountId: string;
  role: MemberRole;
  /** The account's profile (its owner's user item) when the caller already read it. */
  profile?: UserProfile | null;
}

/**
 * The `User` of a person in an account: name, language, avatar and login are the person's own
 * profile; the business settings (country, time zone), the subscription and the features are
 * the account's. A member costs one more GetItem (the account's profile); an owner none.
 */
export async function toUser(profile: UserProfile, deps: UserViewDeps, account?: AccountContext): Promise<User> {
  const accountId = account?.accountId ?? profile.userId;
  const own = accountId === profile.userId;
  const [accountProfile, hasActiveSubscription, avatarUrl] = await Promise.all([
    own ? profile : account?.profile !== undefined ? account.profile : deps.users.get(accountId),
    deps.users.hasActiveSubscription(accountId),
    profile.avatarKey && deps.avatars ? deps.avatars.urlFor(profile.avatarKey) : Promise.resolve(undefined),
  ]);
  // An account whose profile is gone (a stale token): the person's own settings, never a crash.
  const business = accountProfile ?? profile;
  return {
    _id: profile.userId,
    name: profile.name,
    email: profile.email,
    phoneNumber: profile.phoneNumber,
    language: profile.language,
    timeZone: business.timeZone || 'UTC',
    country: business.country || deps.defaultCountry,
    role: profile.role,
    createdAt: profile.createdAt,
    authProvider: profile.authProvider,
    ...(avatarUrl ? { avatarUrl } : {}),
    features: { whatsapp: whatsappFor(accountId, deps.whatsappUserIds) },
    hasActiveSubscription,
    accountId,
    accountRole: account?.role ?? 'owner',
    accountName: business.name,
  };
}

/**
 * A new profile with the defaults of SPEC §3 (role 'user', language 'en'), except what the person
 * signing up already told us (issue 29): the language of the page they signed up in, and the time
 * zone from their country and browser.
 */
export function newProfile(input: {
  userId: string;
  email: string;
  name: string;
  authProvider: UserProfile['authProvider'];
  now: number;
  googleSub?: string;
  /** From the sign-up's browser locale; absent = the deployment's default until the user chooses. */
  country?: string | undefined;
  /** The sign-up page's language; absent = English. */
  language?: Language | undefined;
  /** The browser's IANA zone; kept only when it lies in `country` (startingTimeZone). */
  timeZone?: string | undefined;
}): UserProfile {
  const at = new Date(input.now).toISOString();
  const timeZone = startingTimeZone(input.country, input.timeZone);
  return {
    userId: input.userId,
    email: input.email,
    name: input.name,
    phoneNumber: '',
    language: input.language ?? 'en',
    role: 'user',
    authProvider: input.authProvider,
    createdAt: at,
    updatedAt: at,
    ...(input.googleSub ? { googleSub: input.googleSub } : {}),
    ...(input.country ? { country: input.country } : {}),
    ...(timeZone ? { timeZone } : {}),
  };
}
