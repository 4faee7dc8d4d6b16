/**
 * The stored session (SPEC §4): a token in local storage marks the user authenticated.
 * Access token, refresh token and the access token's expiry live under one key so that
 * they change together; other tabs see changes through the `storage` event.
 */
export interface StoredSession {
  token: string;
  refreshToken: string;
  /** Epoch milliseconds when `token` expires. */
  expiresAt: number;
}

/**
 * Access tokens live 5 minutes (issue 28): the app refreshes this long before one expires, on a
 * timer (app/auth.tsx) and before any call made closer to the expiry than this (api/client.ts).
 */
export const REFRESH_MARGIN_MS = 60_000;

/** Milliseconds until the session's token should be refreshed; 0 when it is due now. */
export function msUntilRefresh(session: Pick<StoredSession, 'expiresAt'>, now = Date.now()): number {
  return Math.max(session.expiresAt - now - REFRESH_MARGIN_MS, 0);
}

const KEY = 'agentdesk.session';
const listeners = new Set<() => void>();

let cachedRaw: string | null | undefined;
let cachedSession: StoredSession | null = null;

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function parseSession(raw: string | null): StoredSession | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof v.token !== 'string' || !v.token) return null;
    return {
      token: v.token,
      refreshToken: typeof v.refreshToken === 'string' ? v.refreshToken : '',
      expiresAt: typeof v.expiresAt === 'number' ? v.expiresAt : 0,
    };
  } catch {
    return null;
  }
}

/** The current session; the same object until the stored value changes (safe for useSyncExternalStore). */
export function getSession(): StoredSession | null {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedSession = parseSession(raw);
  }
  return cachedSession;
}

function emit() {
  for (const l of listeners) l();
}

export function setSession(token: string, refreshToken: string, expiresInSeconds: number): void {
  const value: StoredSession = { token, refreshToken, expiresAt: Date.now() + expiresInSeconds * 1000 };
  try {
    window.localStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    // Storage unavailable: nothing to persist; the user will have to sign in again.
  }
  emit();
}

export function clearSession(): void {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // ignore
  }
  cachedRaw = undefined;
  cachedSession = null;
  emit();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY || e.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
