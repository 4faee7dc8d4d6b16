/**
 * X-Twilio-Signature (ARCHITECTURE §8, §9): Twilio signs HMAC-SHA1(auth token, the exact URL it
 * called — scheme, host, port, path and query — followed by the POST parameters sorted by name).
 * The SDK's own validateRequest checks it (constant-time; with and without the default port);
 * only the webhooks module is imported, not the SDK's client (bundle size).
 */
import { validateRequest } from 'twilio/lib/webhooks/webhooks.js';

/** True when `signatureHeader` is Twilio's signature of this request. */
export function verifyTwilioSignature(authToken: string, signatureHeader: string | undefined, url: string, params: Record<string, string>): boolean {
  if (!authToken || !signatureHeader) return false;
  try {
    return validateRequest(authToken, signatureHeader, url, params);
  } catch {
    // A URL validateRequest cannot parse is not one Twilio called.
    return false;
  }
}

/**
 * The URL Twilio called: the app's public origin (APP_URL: the CloudFront URL in AWS, the local
 * gateway — or the dev server that proxies /api to it — locally) + the raw path + the raw query.
 * API Gateway's HTTP API and the local gateway both hand the path and query over unchanged, so
 * the signed string is rebuilt byte for byte behind either.
 */
export function publicRequestUrl(appUrl: string, rawPath: string, rawQueryString: string | undefined): string {
  const origin = new URL(appUrl).origin;
  return `${origin}${rawPath}${rawQueryString ? `?${rawQueryString}` : ''}`;
}

/** The POST parameters of a Twilio webhook (application/x-www-form-urlencoded; a repeated name keeps the last value). */
export function formParams(rawBody: Buffer): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawBody.toString('utf8'))) params[key] = value;
  return params;
}
