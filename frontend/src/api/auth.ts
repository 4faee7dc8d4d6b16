/** Auth and account calls (SPEC §7 Auth). */
import { countryFromLocale, type AuthSession, type Language, type PasswordChangedSession, type User } from '@agentdesk/functions/contract';
import { request, requestData } from './client';
import { currentLanguage } from '../i18n';
import { setSession } from './session';

export function storeSession(session: Pick<AuthSession, 'token' | 'refreshToken' | 'expiresIn'>): void {
  setSession(session.token, session.refreshToken, session.expiresIn);
}

/**
 * The country a new account starts with (issue 19): the browser's locale ("es-ES" → ES, "es-MX" →
 * MX); the server keeps its default when there is none. The user can change it in Settings.
 */
export function browserCountry(): string | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return countryFromLocale(navigator.language);
}

/** The browser's IANA time zone ('Europe/Madrid'), for the zone a new account starts with. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a sign-up tells the server about the person (issue 29): the page's language (their choice,
 * else their browser's) becomes the account's, so onboarding, the app and every e-mail follow it;
 * the country and zone preset the account's. An existing account keeps its own.
 */
const signUpPreferences = () => ({ country: browserCountry(), language: currentLanguage(), timeZone: browserTimeZone() });

export const authApi = {
  login: (body: { email: string; password: string }) =>
    requestData<AuthSession>('/api/login', { method: 'POST', body }),
  register: (body: { name: string; email: string; password: string; verificationCode: string }) =>
    requestData<AuthSession>('/api/register', { method: 'POST', body: { ...body, ...signUpPreferences() } }),
  /** The preferences only matter when this sign-in creates the account. */
  googleAuth: (credential: string) =>
    requestData<AuthSession>('/api/google-auth', { method: 'POST', body: { credential, ...signUpPreferences() } }),
  /** The code e-mail is written in the page's language. */
  sendVerification: (email: string) => request('/api/send-verification', { method: 'POST', body: { email, language: currentLanguage() } }),
  sendPasswordReset: (email: string) => request('/api/send-password-reset', { method: 'POST', body: { email } }),
  resetPassword: (body: { email: string; resetCode: string; newPassword: string }) =>
    request('/api/reset-password', { method: 'POST', body }),
  me: (signal?: AbortSignal) => requestData<User>('/api/me', { signal }),
  /** Signs out every other device; the answer carries this device's new tokens. */
  updatePassword: (body: { currentPassword: string; newPassword: string }) =>
    requestData<PasswordChangedSession>('/api/update-password', { method: 'POST', body }),
  updateSettings: (body: { name: string; phoneNumber: string; language: Language; timeZone?: string | undefined; country?: string | undefined }) =>
    request<User>('/api/settings', { method: 'POST', body }),
  uploadAvatar: (file: File) => {
    const form = new FormData();
    form.append('avatar', file);
    return requestData<User>('/api/user/avatar', { method: 'POST', body: form });
  },
};

export interface PublicConfig {
  googleClientId: string;
}

/** GET /config.json (same origin, not under /api). Missing or broken → no Google button. */
export async function fetchPublicConfig(): Promise<PublicConfig> {
  try {
    const res = await fetch('/config.json', { headers: { Accept: 'application/json' } });
    if (!res.ok) return { googleClientId: '' };
    const body = (await res.json()) as Partial<PublicConfig>;
    return { googleClientId: typeof body.googleClientId === 'string' ? body.googleClientId : '' };
  } catch {
    return { googleClientId: '' };
  }
}
