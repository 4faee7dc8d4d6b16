/**
 * The security headers of the site and the API, defined once: the CDK stack turns them into
 * CloudFront response headers policies (infra/lib/site.ts), the local gateway sends the same
 * values (functions/local/gateway.ts), so the built app runs under the same CSP everywhere.
 */

/** Google Identity Services (the "Sign in with Google" button), per Google's CSP guidance. */
const GOOGLE_SIGN_IN = {
  script: 'https://accounts.google.com/gsi/client',
  style: 'https://accounts.google.com/gsi/style',
  frame: 'https://accounts.google.com/gsi/',
  connect: 'https://accounts.google.com/gsi/',
} as const;

export interface SiteCspSources {
  /**
   * Origins of the uploads bucket: the browser PUTs files to presigned URLs (connect-src), shows
   * avatars and customers' photos from presigned GET URLs (img-src) and plays customers' voice
   * notes and videos from them (media-src, issue 31). In AWS the bucket's virtual-host origin,
   * locally the s3rver endpoint.
   */
  uploads: readonly string[];
}

/**
 * The built React app's CSP. Scripts only from our origin (Vite emits no inline script);
 * styles also inline because MUI/emotion inject <style> tags at run time; data: images and
 * fonts for MUI/embedded assets; blob: media for call recordings (fetched with the token,
 * played from an object URL) and the uploads bucket's presigned links for WhatsApp media;
 * frame-ancestors 'none' against clickjacking.
 */
export function siteContentSecurityPolicy(sources: SiteCspSources): string {
  const uploads = sources.uploads.join(' ');
  const directives: [string, string][] = [
    ['default-src', "'self'"],
    ['script-src', `'self' ${GOOGLE_SIGN_IN.script}`],
    ['style-src', `'self' 'unsafe-inline' ${GOOGLE_SIGN_IN.style}`],
    ['img-src', `'self' data: blob: ${uploads}`],
    ['font-src', "'self' data:"],
    ['media-src', `'self' blob: ${uploads}`],
    ['connect-src', `'self' ${uploads} ${GOOGLE_SIGN_IN.connect}`],
    ['frame-src', GOOGLE_SIGN_IN.frame],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map(([name, value]) => `${name} ${value.replace(/\s+/g, ' ').trim()}`).join('; ');
}

/** API answers are data, never documents: nothing may load from them or frame them. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Two years, subdomains included (no preload: that is a decision for the domain's owner). */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;

export const STRICT_TRANSPORT_SECURITY = `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`;

/** Referrer-Policy of the site (the API's is no-referrer). */
export const SITE_REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** The headers every site response carries (lower-case names, as Node sends them). */
export function siteSecurityHeaders(sources: SiteCspSources): Record<string, string> {
  return {
    'content-security-policy': siteContentSecurityPolicy(sources),
    'strict-transport-security': STRICT_TRANSPORT_SECURITY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': SITE_REFERRER_POLICY,
  };
}

/** The headers every API response carries. */
export const apiSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': API_CONTENT_SECURITY_POLICY,
  'strict-transport-security': STRICT_TRANSPORT_SECURITY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};
