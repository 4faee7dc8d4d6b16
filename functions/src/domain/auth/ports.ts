/**
 * Ports of the auth and account domain. The domain is plain TypeScript over these
 * interfaces; adapters (DynamoDB, Cognito, SES, S3, Google JWKS) implement them and
 * unit tests use in-memory fakes.
 */
import type { Language } from '../../contract/auth.js';

export type AuthProvider = 'password' | 'google';

/** The profile item of a user (pk=USER#{sub}, sk=PROFILE). */
export interface UserProfile {
  userId: string;
  email: string;
  name: string;
  phoneNumber: string;
  language: Language;
  /** IANA time zone of the dashboard's days; absent = 'UTC'. */
  timeZone?: string;
  /** Issue 19: ISO country of phone numbers typed without a prefix; absent = the deployment's default. */
  country?: string;
  role: string;
  authProvider: AuthProvider;
  createdAt: string;
  updatedAt: string;
  /** S3 key of the current avatar, if any. */
  avatarKey?: string;
  /** Google's `sub` for accounts created by Google sign-in. */
  googleSub?: string;
}

export type ProfilePatch = Partial<Pick<UserProfile, 'name' | 'phoneNumber' | 'language' | 'timeZone' | 'country' | 'avatarKey'>>;

export interface UserRepository {
  get(userId: string): Promise<UserProfile | null>;
  /** The profile owning this e-mail (e-mails never change, SPEC §3); lets code e-mails skip Cognito. */
  findByEmail(email: string): Promise<UserProfile | null>;
  /** Creates the profile; a profile that already exists is left as it is (returns false). */
  create(profile: UserProfile): Promise<boolean>;
  /** Updates an existing profile and returns it; null when there is none. */
  update(userId: string, patch: ProfilePatch, updatedAt: string): Promise<UserProfile | null>;
  /** Subscription item status is active or trialing (SPEC §4). */
  hasActiveSubscription(userId: string): Promise<boolean>;
}

export type CodePurpose = 'verify' | 'reset';

/** A one-time code as stored: never the code itself, only a salted hash. */
export interface StoredCode {
  hash: string;
  salt: string;
  /** Epoch seconds (the table's TTL attribute). */
  expiresAt: number;
  /** Wrong guesses so far. */
  attempts: number;
  createdAt: string;
}

export interface CodeStore {
  /** Stores the code for this e-mail and purpose, replacing any previous one. */
  put(purpose: CodePurpose, email: string, code: StoredCode): Promise<void>;
  get(purpose: CodePurpose, email: string): Promise<StoredCode | null>;
  /**
   * Counts one guess against the code with this hash, atomically and only while it has had fewer
   * than `max`: returns the new count, or null when refused (used up, replaced or gone). Guesses are
   * counted before they are checked, so parallel guesses cannot exceed the budget.
   */
  reserveAttempt(purpose: CodePurpose, email: string, hash: string, max: number): Promise<number | null>;
  /** Gives back a guess counted by reserveAttempt (the right code is not a wrong guess). */
  releaseAttempt(purpose: CodePurpose, email: string, hash: string): Promise<void>;
  /** Deletes the code if it still has this hash; false when it was already used or replaced. */
  consume(purpose: CodePurpose, email: string, hash: string): Promise<boolean>;
  delete(purpose: CodePurpose, email: string): Promise<void>;
}

export interface RateRule {
  windowSeconds: number;
  max: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** An event counted ahead of the work it limits; `release` un-counts it (e.g. a login that succeeded). */
export type RateReservation = { allowed: true; release(): Promise<void> } | { allowed: false; retryAfterSeconds: number };

/** Fixed-window counters per (action, e-mail); `email` may also be a client address as throttle.ts clientRateKey() writes it. */
export interface RateLimiter {
  /** Counts one event in every rule's current window; not allowed when any count is now above its max. */
  hit(action: string, email: string, rules: readonly RateRule[]): Promise<RateDecision>;
  /**
   * Counts one event in every rule's current window only if each holds fewer than `max` (one
   * conditional update per window), so parallel callers can never exceed the budget. Refused
   * reservations count nothing.
   */
  reserve(action: string, email: string, rules: readonly RateRule[]): Promise<RateReservation>;
  /** Not allowed when any rule's current window already holds `max` events (does not count). */
  peek(action: string, email: string, rules: readonly RateRule[]): Promise<RateDecision>;
  /** Forgets the current windows (e.g. failed logins after a successful reset). */
  clear(action: string, email: string, rules: readonly RateRule[]): Promise<void>;
}

export interface Tokens {
  /** Cognito access token (the bearer). */
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
}

export interface IdentityUser {
  /** Cognito `sub`: the user id everywhere else. */
  userId: string;
  email: string;
}

/** Thrown by IdentityProvider when an e-mail is already registered. */
export class IdentityExistsError extends Error {
  constructor() {
    super('Identity already exists');
    this.name = 'IdentityExistsError';
  }
}

/** Thrown by IdentityProvider when the pool rejects a password (its own policy). */
export class IdentityPasswordPolicyError extends Error {
  constructor() {
    super('Password does not meet the pool policy');
    this.name = 'IdentityPasswordPolicyError';
  }
}

export interface IdentityProvider {
  findByEmail(email: string): Promise<IdentityUser | null>;
  /** Creates a confirmed user with a permanent password and no welcome message. Throws IdentityExistsError. */
  createUser(input: { email: string; password: string; name: string }): Promise<IdentityUser>;
  /** Null for a wrong e-mail or password. */
  signInWithPassword(email: string, password: string): Promise<Tokens | null>;
  /** Signs in a user whose Google credential the domain has already verified. */
  signInWithGoogle(email: string, credential: string): Promise<Tokens>;
  /** Null when the refresh token is invalid, expired or revoked. */
  refresh(refreshToken: string): Promise<Omit<Tokens, 'refreshToken'> & { refreshToken?: string } | null>;
  /** Sets a permanent password. Throws IdentityPasswordPolicyError. */
  setPassword(email: string, password: string): Promise<void>;
  /**
   * Signs the user out everywhere (logout, password change, password reset): every refresh token
   * issued so far stops working. Access tokens stay valid until they expire (5 minutes): the
   * API's JWT authorizer checks only their signature and expiry. An unknown user is not an error.
   */
  signOutEverywhere(email: string): Promise<void>;
  /** Compensation when a sign-up fails half way. */
  deleteUser(email: string): Promise<void>;
}

export interface Mailer {
  send(message: { to: string; subject: string; text: string; html: string }): Promise<void>;
}

export interface GoogleIdentity {
  email: string;
  googleSub: string;
  name?: string;
}

export interface GoogleTokenVerifier {
  /** Verifies signature, audience, issuer, expiry and email_verified; throws UnauthorizedError otherwise. */
  verify(credential: string): Promise<GoogleIdentity>;
}

/** Presigned read URLs for stored avatars (absent in groups without uploads access). */
export interface AvatarUrlSigner {
  urlFor(key: string): Promise<string>;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
