import { lazy, Suspense, useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { FullPageSpinner } from '../shared/FullPageSpinner';
import { useAuth } from '../shared/session';
import { canOpenPage, useMemberRole } from '../shared/memberRole';
import { useToast } from '../shared/useToast';
import { useTranslation } from 'react-i18next';
import { decideProtectedRoute, decideVisitorRoute, redirectOnActivation } from './guards';

const AppShell = lazy(() => import('./shell/AppShell'));
const OnboardingPage = lazy(() => import('./OnboardingRoute'));

/** /login, /register, /forgot-password, /reset-password: visitors only. */
export function VisitorOnly() {
  const { access } = useAuth();
  const { pathname, search } = useLocation();
  const decision = decideVisitorRoute(access, pathname, search);
  if (decision.type === 'spinner') return <FullPageSpinner />;
  if (decision.type === 'redirect') return <Navigate to={decision.to} replace />;
  return <Outlet />;
}

/** Everything else: spinner, redirect to login, onboarding or the app shell. */
export function RequireAccess() {
  const { access } = useAuth();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const decision = decideProtectedRoute(access, pathname, search);
  const role = useMemberRole();

  // Once the subscription becomes active the user is sent to / (SPEC §2); the payment success
  // page stays to show its summary and links.
  const active = access.status === 'authenticated' ? access.hasActiveSubscription : undefined;
  const wasActive = useRef(active);
  useEffect(() => {
    const to = redirectOnActivation(wasActive.current, active, pathname);
    if (to) navigate(to, { replace: true });
    wasActive.current = active;
    // Only a change of `active` matters here, not every navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, navigate]);

  if (decision.type === 'spinner') return <FullPageSpinner />;
  if (decision.type === 'redirect') return <Navigate to={decision.to} replace />;
  // Issue 32: a page the person's role cannot open (a typed or old URL; the sidebar hides it).
  if (!canOpenPage(role, pathname)) return <RoleRefused />;
  if (decision.view === 'onboarding') {
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <OnboardingPage />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <AppShell>
        <Suspense fallback={<FullPageSpinner inline />}>
          <Outlet />
        </Suspense>
      </AppShell>
    </Suspense>
  );
}

/** Back to the dashboard, saying why. */
function RoleRefused() {
  const { t } = useTranslation();
  const toast = useToast();
  useEffect(() => {
    toast.error(t('nav.notAllowed'));
  }, [toast, t]);
  return <Navigate to="/" replace />;
}
