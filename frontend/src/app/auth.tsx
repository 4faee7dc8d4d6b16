/**
 * Access state for the whole app (SPEC §4): a stored token marks the user authenticated;
 * on load the current user is fetched and on failure the token is dropped. The access token
 * is refreshed shortly before it expires; losing the session sends the browser to /login.
 */
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuthSession } from '@agentdesk/functions/contract';
import { authApi, storeSession } from '../api/auth';
import { ApiError, endServerSession, refreshSession, setForbiddenHandler, setUnauthorizedHandler } from '../api/client';
import { clearSession, getSession, msUntilRefresh, subscribeSession } from '../api/session';
import { setLanguage, translateMessage } from '../i18n';
import { useToast } from '../shared/useToast';
import { setDisplayCountry } from '../shared/displayCountry';
import { setDisplayTimeZone } from '../shared/intl';
import { AuthContext, ME_QUERY_KEY, type Access } from '../shared/session';

const REFRESH_RETRY_MS = 30_000;
const MAX_TIMER_MS = 2_147_483_647;

export function AuthProvider({ children }: { children: ReactNode }) {
  const session = useSyncExternalStore(subscribeSession, getSession, () => null);
  const hasToken = session !== null;
  const queryClient = useQueryClient();

  const me = useQuery({
    queryKey: ME_QUERY_KEY,
    queryFn: ({ signal }) => authApi.me(signal),
    enabled: hasToken,
    retry: (failures, err) => !(err instanceof ApiError && err.status === 401) && failures < 1,
    staleTime: 60_000,
  });

  // The token could not produce a user: drop it (SPEC §4).
  useEffect(() => {
    if (hasToken && me.isError) clearSession();
  }, [hasToken, me.isError]);

  // Without a session nothing cached belongs to anyone (logout, 401, another tab logging out).
  useEffect(() => {
    if (!hasToken) queryClient.clear();
  }, [hasToken, queryClient]);

  // The session ended in this tab (Logout, or a 401 a refresh could not cure): the access guard
  // then sends the browser to plain /login. A new sign-in resets it.
  const [signedOut, setSignedOut] = useState(false);
  useEffect(() => {
    setUnauthorizedHandler(() => setSignedOut(true));
  }, []);

  // A call the person's role does not allow (issue 32): the server's 403 text, in their language.
  const toast = useToast();
  useEffect(() => {
    setForbiddenHandler((message) => toast.error(translateMessage(message)));
  }, [toast]);

  // Refresh the access token shortly before it expires.
  const [retryTick, setRetryTick] = useState(0);
  const expiresAt = session?.expiresAt ?? 0;
  const canRefresh = Boolean(session?.refreshToken);
  useEffect(() => {
    if (!hasToken || !canRefresh || !expiresAt) return;
    const delay = Math.min(msUntilRefresh({ expiresAt }), MAX_TIMER_MS);
    const timer = window.setTimeout(() => {
      void refreshSession().then((outcome) => {
        if (outcome === 'rejected') {
          setSignedOut(true);
          clearSession();
        } else if (outcome === 'error') {
          window.setTimeout(() => setRetryTick((n) => n + 1), REFRESH_RETRY_MS);
        }
      });
    }, delay);
    return () => window.clearTimeout(timer);
  }, [hasToken, canRefresh, expiresAt, retryTick]);

  const user = hasToken ? (me.data ?? null) : null;

  // Dates and times follow the profile's time zone; set while rendering so this render's children already use it.
  setDisplayTimeZone(user?.timeZone);
  // Phone numbers show in national form for the account's country (shared/phone.ts).
  setDisplayCountry(user?.country);

  // The user's language setting switches the UI.
  const userLanguage = user?.language;
  useEffect(() => {
    if (userLanguage === 'en' || userLanguage === 'es') setLanguage(userLanguage);
  }, [userLanguage]);

  const signIn = useCallback(
    (s: AuthSession) => {
      setSignedOut(false);
      queryClient.clear();
      queryClient.setQueryData(ME_QUERY_KEY, s.user);
      storeSession(s);
      // The sign-in answer does not know the token's groups: /api/me says whether the user is an admin.
      void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
    [queryClient],
  );

  const signOut = useCallback(() => {
    // The server revokes the refresh tokens; leaving here never waits for it or depends on it.
    const current = getSession();
    if (current) void endServerSession(current);
    setSignedOut(true);
    clearSession();
    queryClient.clear();
  }, [queryClient]);

  const refetchUser = useCallback(() => queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }), [queryClient]);

  const access: Access = useMemo(() => {
    if (!hasToken) return { status: 'visitor', signedOut };
    if (!user) return { status: 'loading' };
    return { status: 'authenticated', hasActiveSubscription: user.hasActiveSubscription };
  }, [hasToken, user, signedOut]);

  const value = useMemo(() => ({ access, user, signIn, signOut, refetchUser }), [access, user, signIn, signOut, refetchUser]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
