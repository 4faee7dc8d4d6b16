/** Login's return target (SPEC §2): only same-site paths, never back to an auth page. */
export const DEFAULT_AFTER_LOGIN = '/';

const VISITOR_ONLY = ['/login', '/register', '/forgot-password', '/reset-password'];

export function sanitizeRedirect(raw: string | null | undefined): string {
  if (!raw) return DEFAULT_AFTER_LOGIN;
  const target = raw.trim();
  // A path on this site: one leading slash, not protocol-relative (//host) or its backslash twin.
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return DEFAULT_AFTER_LOGIN;
  // No control characters or whitespace that browsers strip before resolving.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\s]/.test(target)) return DEFAULT_AFTER_LOGIN;
  let url: URL;
  try {
    url = new URL(target, 'http://agentdesk.invalid');
  } catch {
    return DEFAULT_AFTER_LOGIN;
  }
  if (url.origin !== 'http://agentdesk.invalid') return DEFAULT_AFTER_LOGIN;
  if (VISITOR_ONLY.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`))) return DEFAULT_AFTER_LOGIN;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** /login?redirectUrl=<path+search> for a visitor on a protected path; plain /login for /. */
export function loginUrlFor(pathname: string, search = ''): string {
  const target = `${pathname}${search}`;
  if (target === '/' || target === '') return '/login';
  return `/login?redirectUrl=${encodeURIComponent(target)}`;
}
