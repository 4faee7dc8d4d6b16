/**
 * Auth and account contract (SPEC §5 validation, §7 Auth). Used by the handlers to
 * validate input, by the frontend forms (react-hook-form + zodResolver) and by tests.
 * Messages are the spec's exact texts.
 */
import * as z from 'zod/mini';
import './zod-locale.js';
import { timeZoneField } from './dashboard.js';
import { isPhoneCountry, looksLikePhone } from './phone.js';
import type { MemberRole } from './team.js';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The one password rule (SPEC §5 change password), for every password that is set — sign-up,
 * reset and change — in the forms' hint and validation, the API and the user pool's policy
 * (infra/lib/auth.ts, functions/local/services.ts read minLength from here).
 */
export const PASSWORD_RULE = {
  minLength: 8,
  maxLength: 256,
  /** At least one of these; the user pool's own symbol set contains them all. */
  symbols: '@$!%*#?&',
} as const;
/** Letter, digit and one of the symbols (none of them is special inside a character class). */
const STRONG_PASSWORD_RE = new RegExp(`^(?=.*[A-Za-z])(?=.*\\d)(?=.*[${PASSWORD_RULE.symbols}]).+$`);

/** Session token lifetimes (issue 28): contract/session-tokens.ts. */
export { SESSION_TOKENS } from './session-tokens.js';

export const VERIFICATION_CODE_LENGTH = 10;
export const VERIFICATION_CODE_TTL_MINUTES = 60;
export const RESET_CODE_LENGTH = 10;
export const RESET_CODE_TTL_MINUTES = 60;

export const messages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email address',
  passwordRequired: 'Password is required',
  passwordMin8: `Password must be at least ${PASSWORD_RULE.minLength} characters`,
  passwordStrength: 'Password must include at least one letter, one number, and one special character',
  nameRequired: 'Name is required',
  nameMin2: 'Name must be at least 2 characters',
  nameMax50: 'Name must be less than 50 characters',
  confirmRequired: 'Please confirm your password',
  passwordsMismatch: 'Passwords do not match',
  codeRequired: 'Verification code is required',
  codeInvalid: 'Please enter a valid 10-character code',
  emailFirst: 'Please enter your email first',
  termsRequired: 'You must accept the terms of service to register',
  resetCodeRequired: 'Reset code is required',
  resetCodeInvalid: 'Reset code must be 10 characters',
  currentPasswordRequired: 'Current password is required',
  newPasswordRequired: 'New password is required',
  passwordMax256: `Password must be ${PASSWORD_RULE.maxLength} characters or less`,
  phoneInvalid: 'Please enter a valid phone number',
  languageRequired: 'Language is required',
  countryInvalid: 'Country must be a two-letter country code, e.g. ES, MX or US',
} as const;

export const email = z
  .string({ error: messages.emailRequired })
  .check(z.trim(), z.minLength(1, messages.emailRequired), z.regex(EMAIL_RE, messages.emailInvalid), z.toLowerCase());

const loginPassword = z
  .string({ error: messages.passwordRequired })
  .check(
    z.minLength(1, messages.passwordRequired),
    z.minLength(PASSWORD_RULE.minLength, messages.passwordMin8),
    z.maxLength(PASSWORD_RULE.maxLength, messages.passwordMax256),
  );

/**
 * A password the account can be created or changed with: PASSWORD_RULE. The spec's register form
 * asked for 6+ characters, but login asks for 8+ and the user pool enforces the change-password
 * rule, so sign-up, reset and change all use this one rule (issue 19: one rule, one message).
 */
export const newPassword = (requiredMessage: string = messages.passwordRequired) =>
  z
    .string({ error: requiredMessage })
    .check(
      z.minLength(1, requiredMessage),
      z.minLength(PASSWORD_RULE.minLength, messages.passwordMin8),
      z.maxLength(PASSWORD_RULE.maxLength, messages.passwordMax256),
      z.regex(STRONG_PASSWORD_RE, messages.passwordStrength),
    );

/** The rule's message for a new password, or null when it meets PASSWORD_RULE. */
export function passwordProblem(password: string): string | null {
  const result = newPassword().safeParse(password);
  return result.success ? null : (result.error.issues[0]?.message ?? messages.passwordStrength);
}

export const userName = z
  .string({ error: messages.nameRequired })
  .check(
    z.trim(),
    z.minLength(1, messages.nameRequired),
    z.minLength(2, messages.nameMin2),
    z.maxLength(50, messages.nameMax50),
  );

export const verificationCode = z
  .string({ error: messages.codeRequired })
  .check(
    z.trim(),
    z.minLength(1, messages.codeRequired),
    z.length(VERIFICATION_CODE_LENGTH, messages.codeInvalid),
    z.toUpperCase(),
  );

export const resetCode = z
  .string({ error: messages.resetCodeRequired })
  .check(
    z.trim(),
    z.minLength(1, messages.resetCodeRequired),
    z.regex(/^[0-9a-fA-F]{10}$/, messages.resetCodeInvalid),
    z.toLowerCase(),
  );

/**
 * The profile phone: empty, or typed like every phone input (issue 19: "600 111 333", "+34 600…");
 * the server reads it in the account's country and stores E.164, or names the country's form.
 */
export const phoneNumber = z
  .string()
  .check(
    z.trim(),
    z.refine((v) => v === '' || looksLikePhone(v), messages.phoneInvalid),
  );

export const language = z.enum(['en', 'es'], { error: messages.languageRequired });

/** The account's country (issue 19): ISO 3166-1 alpha-2 of a country whose phone numbers the server parses. */
export const countryField = z
  .string({ error: messages.countryInvalid })
  .check(z.trim(), z.toUpperCase(), z.refine(isPhoneCountry, messages.countryInvalid));
export type Language = z.infer<typeof language>;

/**
 * The product language a browser's Accept-Language prefers ("es-ES,es;q=0.9,en;q=0.8" → 'es'):
 * the highest-weighted of English and Spanish; undefined when it names neither. For a sign-up
 * whose page named no language (issue 29): the page's own choice always wins.
 */
export function languageFromAcceptLanguage(header: string | undefined): Language | undefined {
  const ranked = (header ?? '')
    .slice(0, 512)
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? '1');
      return { base: tag.trim().toLowerCase().split('-')[0], q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  const found = ranked.find((entry) => entry.base === 'es' || entry.base === 'en');
  return found ? (found.base as Language) : undefined;
}

// ---- Requests ----

/**
 * What the page knows of a person signing up (issue 29), for the account it creates: the UI
 * language (their choice on the page, else their browser's) and the browser's time zone. Neither
 * ever blocks a sign-up: an unknown value is dropped (English; the country's zone).
 */
const signUpPreferences = {
  language: z.catch(z.optional(z.enum(['en', 'es'])), undefined),
  timeZone: z.catch(z.optional(timeZoneField), undefined),
};

export const sendVerificationRequest = z.object({
  email,
  /** Optional: the language of the code e-mail (the UI language); English when absent. */
  language: z.catch(z.optional(z.enum(['en', 'es'])), undefined),
});
export const registerRequest = z.object({
  name: userName,
  email,
  password: newPassword(),
  verificationCode,
  /** Beyond the spec: preset from the browser locale; absent = the deployment's default country. */
  country: z.optional(countryField),
  ...signUpPreferences,
});
export const loginRequest = z.object({ email, password: loginPassword });
export const refreshTokenRequest = z.object({
  // Cognito refresh tokens are under 2 KB; a bound keeps oversized values away from the user pool.
  refreshToken: z.string({ error: 'Refresh token is required' }).check(z.minLength(1, 'Refresh token is required'), z.maxLength(8192, 'Refresh token is invalid')),
});
export const googleAuthRequest = z.object({
  // A Google ID token is a JWT of 1–2 KB; the bound keeps megabyte values away from the verifier.
  credential: z
    .string({ error: 'Google credential is required' })
    .check(z.minLength(1, 'Google credential is required'), z.maxLength(8192, 'Google credential is invalid')),
  /** The country of an account this sign-in creates (browser locale); never blocks a sign-in. */
  country: z.catch(z.optional(countryField), undefined),
  ...signUpPreferences,
});
export const sendPasswordResetRequest = z.object({ email });
export const resetPasswordRequest = z.object({
  email,
  resetCode,
  newPassword: newPassword(messages.newPasswordRequired),
});
export const updatePasswordRequest = z.object({
  currentPassword: z
    .string({ error: messages.currentPasswordRequired })
    .check(z.minLength(1, messages.currentPasswordRequired), z.maxLength(256, messages.passwordMax256)),
  newPassword: newPassword(messages.newPasswordRequired),
});
export const settingsRequest = z.object({
  name: userName,
  phoneNumber: z._default(z.optional(phoneNumber), ''),
  language,
  /** The user's day boundaries for the dashboard (beyond the spec): IANA zone; absent = unchanged. */
  timeZone: z.optional(timeZoneField),
  /** Issue 19: the country of phone numbers typed without a prefix; absent = unchanged. */
  country: z.optional(countryField),
});
/** PUT /api/user/profile: the same editable fields as settings. */
export const profileUpdateRequest = settingsRequest;

// ---- Form schemas (the frontend adds confirm fields and the terms checkbox) ----

const confirmPassword = z.string().check(z.minLength(1, messages.confirmRequired));

export const registerForm = z
  .object({
    name: userName,
    email,
    verificationCode,
    password: newPassword(),
    confirmPassword,
    acceptTerms: z.boolean().check(z.refine((v) => v, messages.termsRequired)),
  })
  .check(
    // Object-level rule: the issue's path puts it under confirmPassword, where the form shows it.
    z.refine((v) => v.password === v.confirmPassword, { message: messages.passwordsMismatch, path: ['confirmPassword'] }),
  );

export const loginForm = loginRequest;

export const forgotPasswordForm = sendPasswordResetRequest;

export const resetPasswordForm = z
  .object({
    email,
    resetCode,
    newPassword: newPassword(messages.newPasswordRequired),
    confirmPassword,
  })
  .check(
    z.refine((v) => v.newPassword === v.confirmPassword, { message: messages.passwordsMismatch, path: ['confirmPassword'] }),
  );

export const changePasswordForm = z
  .object({
    currentPassword: z.string().check(z.minLength(1, messages.currentPasswordRequired)),
    newPassword: newPassword(messages.newPasswordRequired),
    confirmPassword,
  })
  .check(
    z.refine((v) => v.newPassword === v.confirmPassword, { message: messages.passwordsMismatch, path: ['confirmPassword'] }),
  );

export const settingsForm = settingsRequest;

// ---- Responses ----

export interface User {
  _id: string;
  name: string;
  email: string;
  phoneNumber: string;
  language: Language;
  /** IANA time zone of the dashboard's days (beyond the spec); 'UTC' until set. The account's (issue 32). */
  timeZone: string;
  /** Issue 19: ISO country of phone numbers typed without a prefix (the deployment's default until chosen). The account's (issue 32). */
  country: string;
  role: string;
  createdAt: string;
  /** Whether the user signed up with Google (no password to change). */
  authProvider: 'password' | 'google';
  avatarUrl?: string;
  /**
   * Whether the WhatsApp group shows: true for every account unless the operator set the optional
   * rollout list WHATSAPP_USER_IDS (issue 29 item 7; the app itself only shows to subscribed accounts).
   */
  features: { whatsapp: boolean };
  /** Active means status active or trialing (SPEC §4). Without it the app shows only onboarding. The account's (issue 32). */
  hasActiveSubscription: boolean;
  /**
   * Issue 32: the account the person works in (its id is its first owner's user id: `_id` itself
   * for the owner of a single-user account), their role there (`role` above stays the platform's
   * badge) and its name (the owner's name, as the account's people know it).
   */
  accountId: string;
  accountRole: MemberRole;
  accountName: string;
}

export interface AuthSession {
  /** Cognito access token, sent as the bearer on every call. */
  token: string;
  refreshToken: string;
  /** Seconds until `token` expires. */
  expiresIn: number;
  user: User;
}

export interface RefreshedSession {
  token: string;
  expiresIn: number;
  /** Present only when the pool rotates refresh tokens: the client then replaces its stored one. */
  refreshToken?: string;
}

/**
 * data of POST /api/update-password: a changed password signs the user out everywhere, and this
 * device continues with these new tokens.
 */
export type PasswordChangedSession = Pick<AuthSession, 'token' | 'refreshToken' | 'expiresIn'>;

/** data of POST /api/send-verification. */
export interface VerificationSent {
  expiresInMinutes: number;
}

export interface ApiEnvelope<T> {
  success: boolean;
  message?: string;
  data?: T;
}
