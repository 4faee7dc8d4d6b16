/**
 * The auth use cases (SPEC §7 Auth): sign-up with an e-mailed code, login with a failed-login
 * throttle, token refresh, password reset, Google sign-in. Plain TypeScript over the ports.
 */
import { randomBytes } from 'node:crypto';
import type { AuthSession, Language, RefreshedSession } from '../../contract/auth.js';
import { ConflictError, UnauthorizedError, ValidationError } from '../errors.js';
import { OneTimeCodes, resetCodePolicy, verificationCodePolicy } from './codes.js';
import { accountExistsEmail, passwordResetEmail, verificationEmail } from './emails.js';
import {
  IdentityExistsError,
  IdentityPasswordPolicyError,
  type Clock,
  type CodeStore,
  type GoogleTokenVerifier,
  type IdentityProvider,
  type Mailer,
  type RateLimiter,
  type Tokens,
  type UserProfile,
} from './ports.js';
import {
  RATE_ACTIONS,
  checkPasswordThrottled,
  codeEmailRules,
  loginFailureRules,
  throwIfLimited,
  tooManyCodeEmails,
} from './throttle.js';
import { newProfile, toUser, type UserViewDeps } from './user-view.js';
import type { MembershipDirectory } from '../team/ports.js';
import { messages as contractMessages } from '../../contract/auth.js';
import { authMessages } from '../../contract/account-texts.js';
import { mainTimeZoneOf } from '../../contract/time-zones.js';

/** Its texts live in the contract, where the UI's translations are checked against them. */
export { authMessages };

/**
 * How soon send-password-reset and reset-password may answer (ms after the request began): the
 * same whether or not the e-mail has an account (or a pending code), so their timing cannot tell
 * which e-mails are registered. Well above both routes' slowest answer under load (~250 ms
 * measured on a busy local stack; the DynamoDB and Cognito calls of the reset itself included).
 */
export const RESET_RESPONSE_FLOOR_MS = 700;

/** The response floor of the reset routes and how to wait (tests pass 0 or record the waits). */
interface ResponseFloorDeps {
  clock: Clock;
  /** RESET_RESPONSE_FLOOR_MS in the compositions. */
  resetResponseFloorMs: number;
  sleep?: (ms: number) => Promise<void>;
}

/** What the sign-in use cases need (the `auth` route group). */
export interface SignInDeps extends UserViewDeps, ResponseFloorDeps {
  identity: IdentityProvider;
  codes: CodeStore;
  rateLimiter: RateLimiter;
  google: GoogleTokenVerifier;
  /** Issue 32: a member's account, for the `User` of the sign-in answer; absent = everyone owns their own. */
  memberships?: MembershipDirectory;
}

/**
 * What the code e-mails need (the `codes` route group, the only one that sends mail). The
 * account is looked up by its profile's e-mail, so this group needs no Cognito client.
 */
export interface CodeMailDeps extends UserViewDeps, ResponseFloorDeps {
  codes: CodeStore;
  rateLimiter: RateLimiter;
  mailer: Mailer;
  /** Public origin of the app, for the links in the "you already have an account" e-mail. */
  appUrl: string;
}

export type AuthDeps = SignInDeps & CodeMailDeps;

export interface SessionResult {
  session: AuthSession;
  created: boolean;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `work`; its outcome (result or error) goes out no sooner than the floor after the start. */
async function answerNoSooner<T>(deps: ResponseFloorDeps, work: () => Promise<T>): Promise<T> {
  const started = deps.clock.now();
  try {
    return await work();
  } finally {
    const wait = deps.resetResponseFloorMs - (deps.clock.now() - started);
    if (wait > 0) await (deps.sleep ?? defaultSleep)(wait);
  }
}

/**
 * Register, login, refresh, Google sign-in and password reset. Kept apart from the code
 * e-mails so the function serving these routes does not bundle the mail client.
 */
export function createSignInService(deps: SignInDeps) {
  const otp = new OneTimeCodes(deps.codes, deps.clock);

  async function session(profile: UserProfile, tokens: Tokens): Promise<AuthSession> {
    // Issue 32: the account the tokens carry (the pre-token trigger read the same pointer).
    const [membership, withZone] = await Promise.all([deps.memberships?.resolve(profile.userId) ?? null, withTimeZone(profile)]);
    return {
      token: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresIn: tokens.expiresIn,
      user: await toUser(withZone, deps, membership ?? undefined),
    };
  }

  /**
   * A profile made before sign-up set the zone (issue 29) has none, which every reader takes for
   * UTC: one with a country gets that country's main zone at its next sign-in, stored, so the
   * dashboard's days and the e-mails' times agree with the app. A zone once set is never changed.
   */
  async function withTimeZone(profile: UserProfile): Promise<UserProfile> {
    const timeZone = profile.timeZone ? undefined : mainTimeZoneOf(profile.country);
    if (!timeZone) return profile;
    return (await deps.users.update(profile.userId, { timeZone }, new Date(deps.clock.now()).toISOString())) ?? profile;
  }

  /** The profile of an identity, created with defaults if a previous sign-up stopped half way. */
  async function profileOf(userId: string, email: string, authProvider: UserProfile['authProvider'], name?: string) {
    const existing = await deps.users.get(userId);
    if (existing) return existing;
    const profile = newProfile({ userId, email, name: name ?? defaultName(email), authProvider, now: deps.clock.now() });
    await deps.users.create(profile);
    return (await deps.users.get(userId)) ?? profile;
  }

  return {
    async register(input: {
      name: string;
      email: string;
      password: string;
      verificationCode: string;
      country?: string | undefined;
      language?: Language | undefined;
      timeZone?: string | undefined;
    }): Promise<AuthSession> {
      // The code first: a registered address is never sent one (send-verification mails it how
      // to sign in instead), so without proof of the mailbox register cannot tell who has an account.
      const checked = await otp.check(verificationCodePolicy, input.email, input.verificationCode);
      if (await deps.identity.findByEmail(input.email)) throw new ConflictError(authMessages.accountExists);
      let identity;
      try {
        identity = await deps.identity.createUser({ email: input.email, password: input.password, name: input.name });
      } catch (error) {
        if (error instanceof IdentityExistsError) throw new ConflictError(authMessages.accountExists);
        if (error instanceof IdentityPasswordPolicyError) throw new ValidationError(contractMessages.passwordStrength, 'password');
        throw error;
      }
      try {
        await deps.users.create(
          newProfile({
            userId: identity.userId,
            email: input.email,
            name: input.name,
            authProvider: 'password',
            now: deps.clock.now(),
            country: input.country,
            language: input.language,
            timeZone: input.timeZone,
          }),
        );
      } catch (error) {
        await deps.identity.deleteUser(input.email).catch(() => undefined);
        throw error;
      }
      await otp.consume(verificationCodePolicy, input.email, checked);
      const tokens = await deps.identity.signInWithPassword(input.email, input.password);
      if (!tokens) throw new Error('A user just created could not sign in');
      const profile = await profileOf(identity.userId, input.email, 'password', input.name);
      return session(profile, tokens);
    },

    /** `client`: the caller's address, for the per-client failed-login budget ('' = none known). */
    async login(input: { email: string; password: string }, client = ''): Promise<AuthSession> {
      const tokens = await checkPasswordThrottled(
        deps.rateLimiter,
        input.email,
        () => deps.identity.signInWithPassword(input.email, input.password),
        client,
      );
      if (!tokens) throw new UnauthorizedError(authMessages.invalidCredentials);
      const identity = await deps.identity.findByEmail(input.email);
      if (!identity) throw new UnauthorizedError(authMessages.invalidCredentials);
      const profile = await profileOf(identity.userId, identity.email, 'password');
      return session(profile, tokens);
    },

    async refresh(refreshToken: string): Promise<RefreshedSession> {
      const tokens = await deps.identity.refresh(refreshToken);
      if (!tokens) throw new UnauthorizedError(authMessages.sessionExpired);
      return {
        token: tokens.accessToken,
        expiresIn: tokens.expiresIn,
        ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      };
    },

    /**
     * Google sign-in: the credential is verified here (signature, audience, issuer, expiry,
     * email_verified) before anything else. First use creates the user; an e-mail that already
     * has a password account is not taken over by a Google sign-in (409: log in with the password).
     */
    async googleSignIn(input: {
      credential: string;
      country?: string | undefined;
      language?: Language | undefined;
      timeZone?: string | undefined;
    }): Promise<SessionResult> {
      const google = await deps.google.verify(input.credential);
      const email = google.email.toLowerCase();
      let identity = await deps.identity.findByEmail(email);
      let created = false;
      if (!identity) {
        try {
          identity = await deps.identity.createUser({ email, password: randomPassword(), name: google.name ?? defaultName(email) });
          created = true;
          await deps.users.create(
            newProfile({
              userId: identity.userId,
              email,
              name: profileName(google.name, email),
              authProvider: 'google',
              googleSub: google.googleSub,
              now: deps.clock.now(),
              country: input.country,
              language: input.language,
              timeZone: input.timeZone,
            }),
          );
        } catch (error) {
          if (!(error instanceof IdentityExistsError)) throw error;
          identity = await deps.identity.findByEmail(email);
          if (!identity) throw error;
        }
      }
      const profile = await profileOf(identity.userId, email, 'google', profileName(google.name, email));
      if (profile.authProvider !== 'google') throw new ConflictError(authMessages.googleAccountUsesPassword);
      const tokens = await deps.identity.signInWithGoogle(email, input.credential);
      return { session: await session(profile, tokens), created };
    },

    /**
     * No sooner than the response floor, whatever the outcome: an e-mail with a pending code does
     * more work on a wrong guess (the guess is counted) than one without, which is every unknown
     * e-mail, and the difference in time told them apart (issue 28).
     */
    resetPassword(input: { email: string; resetCode: string; newPassword: string }): Promise<void> {
      return answerNoSooner(deps, async () => {
        const checked = await otp.check(resetCodePolicy, input.email, input.resetCode);
        const identity = await deps.identity.findByEmail(input.email);
        if (!identity) throw new ValidationError(resetCodePolicy.messages.invalid);
        if (!(await otp.consume(resetCodePolicy, input.email, checked))) throw new ValidationError(resetCodePolicy.messages.invalid);
        try {
          await deps.identity.setPassword(input.email, input.newPassword);
        } catch (error) {
          if (error instanceof IdentityPasswordPolicyError) throw new ValidationError(contractMessages.passwordStrength, 'newPassword');
          throw error;
        }
        // Whoever knew the old password is signed out everywhere (their refresh tokens stop working).
        await deps.identity.signOutEverywhere(input.email);
        // Proving control of the mailbox lifts a failed-login lockout.
        await deps.rateLimiter.clear(RATE_ACTIONS.loginFailure, input.email, loginFailureRules);
      });
    },
  };
}

/** The two e-mails that carry one-time codes: sign-up verification and password reset. */
export function createCodeMailService(deps: CodeMailDeps) {
  const otp = new OneTimeCodes(deps.codes, deps.clock);

  /** Refused requests do not use up the budget: peek first, then count (the count re-checks races). */
  async function throttleCodeEmail(action: string, email: string) {
    throwIfLimited(await deps.rateLimiter.peek(action, email, codeEmailRules), tooManyCodeEmails);
    throwIfLimited(await deps.rateLimiter.hit(action, email, codeEmailRules), tooManyCodeEmails);
  }

  return {
    async sendVerification(input: { email: string; language?: Language }) {
      await throttleCodeEmail(RATE_ACTIONS.sendVerification, input.email);
      // The same answer whether or not the address is registered (no account enumeration): a
      // registered address gets an e-mail saying how to sign in instead of a code.
      const existing = await deps.users.findByEmail(input.email);
      if (existing) {
        const mail = accountExistsEmail({
          appUrl: deps.appUrl,
          authProvider: existing.authProvider,
          language: existing.language,
          name: existing.name,
        });
        await deps.mailer.send({ to: input.email, ...mail });
      } else {
        const code = await otp.issue(verificationCodePolicy, input.email);
        const mail = verificationEmail(code, verificationCodePolicy.ttlMinutes, input.language ?? 'en');
        await deps.mailer.send({ to: input.email, ...mail });
      }
      return { expiresInMinutes: verificationCodePolicy.ttlMinutes };
    },

    /** Always the same answer, and no sooner than the floor, whether or not the account exists. */
    sendPasswordReset(input: { email: string }): Promise<void> {
      return answerNoSooner(deps, async () => {
        await throttleCodeEmail(RATE_ACTIONS.sendPasswordReset, input.email);
        const profile = await deps.users.findByEmail(input.email);
        if (profile) {
          const code = await otp.issue(resetCodePolicy, input.email);
          const mail = passwordResetEmail(code, resetCodePolicy.ttlMinutes, profile.language, profile.name);
          await deps.mailer.send({ to: input.email, ...mail });
        }
      });
    },
  };
}

/** Every auth use case in one object (the domain's tests exercise them together). */
export function createAuthService(deps: AuthDeps) {
  return { ...createSignInService(deps), ...createCodeMailService(deps) };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** A password nobody knows, meeting any reasonable pool policy (Google accounts). */
export function randomPassword(): string {
  return `${randomBytes(24).toString('base64url')}aA1!`;
}

function defaultName(email: string): string {
  const local = email.split('@')[0] ?? '';
  return local.length >= 2 ? local.slice(0, 50) : 'User';
}

/** Google's display name when it fits the profile rules (2 to 50 characters), else from the e-mail. */
function profileName(name: string | undefined, email: string): string {
  const trimmed = name?.trim() ?? '';
  return trimmed.length >= 2 && trimmed.length <= 50 ? trimmed : defaultName(email);
}
