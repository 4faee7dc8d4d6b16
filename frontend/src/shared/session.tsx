/**
 * The signed-in session as features see it: who is signed in, the access state, and sign-in /
 * sign-out. app/ provides it (AuthProvider in app/auth.tsx); features read it here, so they never
 * import app/, which composes them.
 */
import { createContext, useContext } from 'react';
import type { AuthSession, User } from '@agentdesk/functions/contract';

/** The TanStack Query key of the current user (/api/me). */
export const ME_QUERY_KEY = ['me'] as const;

export type Access =
  | { status: 'loading' }
  /** `signedOut`: the session just ended in this tab (Logout, a 401): plain /login, no redirectUrl. */
  | { status: 'visitor'; signedOut?: boolean }
  | { status: 'authenticated'; hasActiveSubscription: boolean };

export interface AuthContextValue {
  access: Access;
  user: User | null;
  /** Stores a session from login, register or Google sign-in. */
  signIn: (session: AuthSession) => void;
  /** Signs out on the server (every device, best effort) and clears the session; the access guard then goes to /login. */
  signOut: () => void;
  /** Reloads the current user (after settings, avatar, subscription changes). */
  refetchUser: () => Promise<unknown>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/** The signed-in user; only for pages behind the access guard. */
export function useCurrentUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error('useCurrentUser without a signed-in user');
  return user;
}
