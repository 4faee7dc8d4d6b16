/**
 * Who sees what (SPEC §2, §6), as pure decisions the route guards render.
 * - visitor: /login, /register, /forgot-password, /reset-password; any other path → /login?redirectUrl=…
 *   (/ for a visitor goes to plain /login: the spec lists / among visitor routes but has no public home page)
 * - signed in without an active subscription: every path shows onboarding, the URL stays
 *   (except OPEN_WITHOUT_SUBSCRIPTION: /subscription and /subscription/success)
 * - signed in with an active subscription: the full route table; /onboarding → /
 * - while access loads: a spinner
 */
import type { Access } from '../shared/session';
import { loginUrlFor, sanitizeRedirect } from './redirect';

export type Decision =
  | { type: 'spinner' }
  | { type: 'redirect'; to: string }
  | { type: 'render'; view: 'visitor' | 'onboarding' | 'app' };

export const ONBOARDING_PATH = '/onboarding';

/**
 * Paths a signed-in user without an active subscription may open outside onboarding: the plan
 * choice (a past_due user fixes billing there) and the return from checkout, which verifies the
 * payment. Everything else shows onboarding.
 */
export const OPEN_WITHOUT_SUBSCRIPTION: readonly string[] = ['/subscription', '/subscription/success'];

/** Whether a path (trailing slash ignored) is one of OPEN_WITHOUT_SUBSCRIPTION. */
export function isOpenWithoutSubscription(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return OPEN_WITHOUT_SUBSCRIPTION.includes(path);
}

/**
 * When the subscription just became active: leave for / (SPEC §2), except on the open paths,
 * where the page itself (the payment success page) shows the way on.
 */
export function redirectOnActivation(wasActive: boolean | undefined, active: boolean | undefined, pathname: string): string | null {
  if (wasActive === false && active === true && !isOpenWithoutSubscription(pathname)) return '/';
  return null;
}

/** /login, /register, /forgot-password, /reset-password. */
export function decideVisitorRoute(access: Access, pathname: string, search: string): Decision {
  if (access.status === 'loading') return { type: 'spinner' };
  if (access.status === 'visitor') return { type: 'render', view: 'visitor' };
  // Signed in: login and register (an invitation's sign-up, issue 32) return to their redirectUrl, every other auth page to /.
  if (pathname === '/login' || pathname === '/register') {
    return { type: 'redirect', to: sanitizeRedirect(new URLSearchParams(search).get('redirectUrl')) };
  }
  return { type: 'redirect', to: '/' };
}

/** Every other path. */
export function decideProtectedRoute(access: Access, pathname: string, search: string): Decision {
  if (access.status === 'loading') return { type: 'spinner' };
  if (access.status === 'visitor') {
    return { type: 'redirect', to: access.signedOut ? '/login' : loginUrlFor(pathname, search) };
  }
  if (!access.hasActiveSubscription) {
    if (isOpenWithoutSubscription(pathname)) return { type: 'render', view: 'app' };
    return { type: 'render', view: 'onboarding' };
  }
  if (pathname === ONBOARDING_PATH || pathname.startsWith(`${ONBOARDING_PATH}/`)) return { type: 'redirect', to: '/' };
  return { type: 'render', view: 'app' };
}
