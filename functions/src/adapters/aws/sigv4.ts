/**
 * Signature V4 for the two AWS calls the voice functions make with plain `fetch` instead of an SDK
 * client (issue 16): posting to ConversationRelay connections (execute-api) and the relay's
 * warm-up Invoke (lambda). An SDK client brings its protocol stack (tens of KB minified) into
 * functions whose cold start a caller hears; the signature is checked against the SDK's own signer
 * in the unit tests.
 */
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** RFC 3986 escaping, as AWS canonical requests use it. */
export const escapeRfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** The canonical query string: each name and value RFC 3986-escaped, sorted ('' without a query; `?delete` is `delete=`). */
function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([name, value]) => [escapeRfc3986(name), escapeRfc3986(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/**
 * The headers of a signed request (its query string too, issue 33: S3's ListObjectsV2 and DeleteObjects): host, x-amz-content-sha256, x-amz-date,
 * the session token and `headers` (lower-case names, e.g. content-type) are signed — the same
 * canonical request as the SDK's signer. Returns what to send (host is fetch's).
 */
export function signAwsRequest(input: {
  service: string;
  method: string;
  url: URL;
  body: string | Uint8Array;
  headers?: Record<string, string>;
  region: string;
  credentials: AwsCredentials;
  date: Date;
}): Record<string, string> {
  const amzDate = input.date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256Hex(input.body);
  const headers: Record<string, string> = { ...input.headers, host: input.url.host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
  if (input.credentials.sessionToken) headers['x-amz-security-token'] = input.credentials.sessionToken;
  const names = Object.keys(headers).sort();
  // The path as sent (segments already escaped), escaped once more: AWS's rule for every service but S3 (as sent).
  const canonicalPath = input.service === 's3' ? input.url.pathname : escapeRfc3986(input.url.pathname).replace(/%2F/g, '/');
  const canonical = [
    input.method,
    canonicalPath,
    canonicalQuery(input.url),
    ...names.map((n) => `${n}:${headers[n]!.trim()}`),
    '',
    names.join(';'),
    payloadHash,
  ].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.credentials.secretAccessKey}`, day), input.region), input.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  const { host: _host, ...sent } = headers;
  return { ...sent, authorization: `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}` };
}
