/**
 * Who sees what (SPEC §2, §6), as pure decisions the route guards render.
 * - visitor: /login, /register, /forgot-password, /reset-password; any other path → /login?redirectUrl=…
 *   (/ for a visitor goes to plain /login: the spec lists / among visitor routes but has no public home page)
 * - signed in without an active subscription: every path shows onboarding, the URL stays
 * - signed in with an active subscription: the full route table; /onboarding → /
 * - while access loads: a spinner
 */
import { loginUrlFor, sanitizeRedirect } from './redirect';

export type Access =
  | { status: 'loading' }
  /** `signedOut`: the session just ended in this tab (Logout, a 401): plain /login, no redirectUrl. */
  | { status: 'visitor'; signedOut?: boolean }
  | { status: 'authenticated'; hasActiveSubscription: boolean };

export type Decision =
  | { type: 'spinner' }
  | { type: 'redirect'; to: string }
  | { type: 'render'; view: 'visitor' | 'onboarding' | 'app' };

export const ONBOARDING_PATH = '/onboarding';

/**
 * Seam for the billing issue: paths a signed-in user without an active subscription may open
 * outside onboarding (e.g. '/subscription/success' while a checkout is being verified).
 * Empty for now: the spec says every path shows onboarding.
 */
export const OPEN_WITHOUT_SUBSCRIPTION: readonly string[] = [];

/** /login, /register, /forgot-password, /reset-password. */
export function decideVisitorRoute(access: Access, pathname: string, search: string): Decision {
  if (access.status === 'loading') return { type: 'spinner' };
  if (access.status === 'visitor') return { type: 'render', view: 'visitor' };
  // Signed in: login returns to its redirectUrl, every other auth page to /.
  if (pathname === '/login') {
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
    if (OPEN_WITHOUT_SUBSCRIPTION.includes(pathname)) return { type: 'render', view: 'app' };
    return { type: 'render', view: 'onboarding' };
  }
  if (pathname === ONBOARDING_PATH || pathname.startsWith(`${ONBOARDING_PATH}/`)) return { type: 'redirect', to: '/' };
  return { type: 'render', view: 'app' };
}
