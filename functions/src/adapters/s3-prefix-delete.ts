/**
 * Deletes every object under a key prefix of the uploads bucket (issue 33: the account's
 * deletion): ListObjectsV2 (1,000 keys a page) then DeleteObjects of that page, until the prefix
 * is empty. Run again, it deletes what is left (a deleted key is simply not listed any more).
 *
 *   GET  /{bucket}?list-type=2&prefix={p}&max-keys=1000     → <ListBucketResult><Contents><Key>…
 *   POST /{bucket}?delete   <Delete><Quiet>true</Quiet><Object><Key>…</Key></Object>…</Delete>
 *        (Content-MD5 required)                              → <DeleteResult> with <Error> per refused key
 *
 * Plain `fetch` signed with Signature V4 (sigv4.ts), as index-snapshots.ts: @aws-sdk/client-s3
 * does not bundle with the event-stream alias every function is built with (bundling.ts), and
 * listing is no object request a presigned URL could carry. Path-style against an emulator
 * endpoint (s3rver), virtual-hosted in AWS. In a versioned bucket a delete leaves a delete marker;
 * the bucket's lifecycle expires the older versions.
 */
import { createHash } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { escapeRfc3986, signAwsRequest, type AwsCredentials } from './aws/sigv4.js';

export interface S3PrefixDeleterOptions {
  bucket: string;
  region: string;
  /** Emulator endpoint (path-style, e.g. s3rver); unset = AWS. */
  endpoint?: string;
  credentials?: () => Promise<AwsCredentials>;
  fetch?: typeof fetch;
}

const TIMEOUT_MS = 30_000;
const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : (XML_ENTITIES[e] ?? whole),
  );
const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&${Object.entries(XML_ENTITIES).find(([, v]) => v === c)![0]};`);

/** The keys of a ListObjectsV2 answer (each <Contents>'s <Key>). */
export function listedKeys(xml: string): string[] {
  return [...xml.matchAll(/<Contents>[\s\S]*?<Key>([\s\S]*?)<\/Key>[\s\S]*?<\/Contents>/g)].map((m) => unescapeXml(m[1]!));
}

/** The DeleteObjects request body (quiet: only refused keys are answered). */
export function deleteObjectsBody(keys: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>${keys.map((k) => `<Object><Key>${escapeXml(k)}</Key></Object>`).join('')}</Delete>`;
}

/**
 * Signed requests on the bucket (or one object of it: `objectKey`), answered as text; a non-2xx
 * answer throws with S3's error code. Shared with the retention re-stamp's tagging (s3-object-tags.ts).
 */
export class S3BucketRequests {
  private credentials: (() => Promise<AwsCredentials>) | undefined;
  private readonly send: typeof fetch;

  constructor(protected readonly options: S3PrefixDeleterOptions) {
    this.credentials = options.credentials;
    this.send = options.fetch ?? globalThis.fetch;
  }

  /** `operation` names the call in an error (ListObjectsV2, DeleteObjects, PutObjectTagging). */
  protected async request(operation: string, method: 'GET' | 'POST' | 'PUT', query: string, body?: string, objectKey?: string): Promise<string> {
    const { bucket, region, endpoint } = this.options;
    const path = objectKey ? `/${objectKey.split('/').map(escapeRfc3986).join('/')}` : '/';
    const url = new URL(endpoint ? `${endpoint.replace(/\/+$/, '')}/${bucket}${path === '/' ? '' : path}?${query}` : `https://${bucket}.s3.${region}.amazonaws.com${path}?${query}`);
    this.credentials ??= defaultProvider();
    const headers = signAwsRequest({
      service: 's3',
      method,
      url,
      body: body ?? '',
      headers: body ? { 'content-type': 'application/xml', 'content-md5': createHash('md5').update(body).digest('base64') } : {},
      region,
      credentials: await this.credentials(),
      date: new Date(),
    });
    const res = await this.send(url, { method, headers, ...(body ? { body } : {}), signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await res.text();
    if (!res.ok) throw new Error(`S3 ${operation} answered HTTP ${res.status}: ${/<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? ''}`);
    return text;
  }
}

export class S3PrefixDeleter extends S3BucketRequests {
  /** Deletes what is under `prefix` (it must end with '/'); stops between pages once `shouldYield`. */
  async deleteUnder(prefix: string, shouldYield: () => boolean): Promise<{ deleted: number; done: boolean }> {
    if (!prefix.endsWith('/') || prefix.length < 3) throw new Error(`Refusing to delete under the prefix "${prefix}"`);
    let deleted = 0;
    for (;;) {
      // Always the first page: what the previous round deleted is no longer listed.
      const listed = await this.request('ListObjectsV2', 'GET', `list-type=2&max-keys=1000&prefix=${escapeRfc3986(prefix)}`);
      const keys = listedKeys(listed).filter((k) => k.startsWith(prefix));
      if (keys.length === 0) return { deleted, done: true };
      const answer = await this.request('DeleteObjects', 'POST', 'delete=', deleteObjectsBody(keys));
      const refused = /<Error>[\s\S]*?<Code>([\s\S]*?)<\/Code>/.exec(answer);
      if (refused) throw new Error(`S3 refused to delete objects under ${prefix}: ${refused[1]}`);
      deleted += keys.length;
      if (shouldYield()) return { deleted, done: false };
    }
  }
}
