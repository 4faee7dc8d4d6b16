/**
 * X-Twilio-Signature (ARCHITECTURE §8, §9), Twilio's documented algorithm: base64 of
 * HMAC-SHA1(auth token, the exact URL it called — scheme, host, port, path and query — followed
 * by each POST parameter's name and value, sorted by name), compared in constant time. As the
 * SDK's validateRequest, the URL is also tried with and without the scheme's default port
 * (Twilio may sign either) and in its WHATWG-normalised form.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signature Twilio sends for this URL and these POST parameters. */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** The URL without its port, and with the scheme's default port when it has none. */
function portVariants(url: string): string[] {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(url);
  if (!match) return [url];
  const scheme = match[1]!;
  const authority = match[2]!;
  const rest = url.slice(match[0].length);
  const userInfo = authority.slice(0, authority.lastIndexOf('@') + 1);
  const hostAndPort = authority.slice(userInfo.length);
  // A colon starts the port only after the closing bracket of an IPv6 literal.
  const portStart = hostAndPort.indexOf(':', hostAndPort.lastIndexOf(']') + 1);
  const host = portStart === -1 ? hostAndPort : hostAndPort.slice(0, portStart);
  const defaultPort = scheme.toLowerCase() === 'https://' ? ':443' : ':80';
  return [scheme + userInfo + host + rest, portStart === -1 ? scheme + userInfo + host + defaultPort + rest : url];
}

function candidateUrls(url: string): Set<string> {
  const candidates = new Set([url, ...portVariants(url)]);
  try {
    for (const variant of portVariants(new URL(url).toString())) candidates.add(variant);
  } catch {
    // Not a URL Twilio could have called: only the string as given is tried.
  }
  return candidates;
}

/** True when `signatureHeader` is Twilio's signature of this request. */
export function verifyTwilioSignature(authToken: string, signatureHeader: string | undefined, url: string, params: Record<string, string>): boolean {
  if (!authToken || !signatureHeader) return false;
  const given = Buffer.from(signatureHeader);
  for (const candidate of candidateUrls(url)) {
    const expected = Buffer.from(twilioSignature(authToken, candidate, params));
    if (expected.length === given.length && timingSafeEqual(expected, given)) return true;
  }
  return false;
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
