/**
 * Presigned URLs for the uploads bucket, signed with SigV4 query parameters WITHOUT an S3
 * client (the same S3RequestPresigner the SDK's getSignedUrl uses, unsigned payload).
 *
 * API functions reach S3 only through these URLs: browsers upload and download with them,
 * and a function that must write an object itself PUTs to one. Keeping @aws-sdk/client-s3
 * out of their bundles saves ~125 KB minified per function (bundle budget: 400 KB).
 */
import { createHmac } from 'node:crypto';
import { formatUrl } from '@aws-sdk/core/util';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { HttpRequest } from '@smithy/core/protocols';
import { Hash } from '@smithy/core/serde';
import type { AvatarUrlSigner } from '../domain/auth/ports.js';

export interface S3PresignerOptions {
  bucket: string;
  region: string;
  /** Emulator endpoint (path-style, e.g. s3rver); unset means the bucket's AWS virtual-host URL. */
  endpoint?: string;
  expiresInSeconds: number;
  /** Tests pass fixed credentials and a clock; production uses the default chain and Date.now. */
  credentials?: CredentialProvider;
  now?: () => number;
}

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}
type CredentialProvider = () => Promise<Credentials>;

/** A browser form upload (S3 POST Object): send `fields` first, then the file as `file`, multipart/form-data. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

export interface PostPolicyOptions {
  /** The Content-Type the form must carry (exact match). */
  contentType: string;
  /** content-length-range: S3 refuses a file outside it (400 EntityTooLarge / EntityTooSmall). */
  minBytes: number;
  maxBytes: number;
  expiresInSeconds?: number;
  /**
   * User metadata stored with the object (x-amz-meta-{name}, signed as exact-match fields; HEAD
   * returns them as headers): ASCII header-safe values only (encode others, e.g. encodeURIComponent).
   */
  metadata?: Record<string, string>;
}

export interface PresignOptions {
  /** Overrides the presigner's default lifetime for this link. */
  expiresInSeconds?: number;
}

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const amzDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');

export class S3Presigner implements AvatarUrlSigner {
  private readonly presigner: S3RequestPresigner;
  private readonly credentials: CredentialProvider;

  constructor(private readonly options: S3PresignerOptions) {
    this.credentials = options.credentials ?? defaultProvider();
    this.presigner = new S3RequestPresigner({
      credentials: this.credentials,
      region: options.region,
      sha256: Hash.bind(null, 'sha256'),
    });
  }

  /** A link that downloads the object. */
  urlFor(key: string): Promise<string> {
    return this.presign('GET', key);
  }

  /** A link that stores a body at `key`; the caller sends Content-Type with the PUT. */
  putUrl(key: string, options: PresignOptions = {}): Promise<string> {
    return this.presign('PUT', key, options);
  }

  /**
   * A signed POST policy (SigV4) for a browser form upload to exactly `key`: the Content-Type is
   * fixed and the size must lie in [minBytes, maxBytes], both enforced by S3 itself (unlike a
   * presigned PUT, which accepts any size). Signed here rather than with @aws-sdk/s3-presigned-post,
   * which needs an S3 client in the bundle; the unit test checks both produce the same form.
   */
  async postPolicy(key: string, policy: PostPolicyOptions): Promise<PresignedPost> {
    const { bucket, region, endpoint } = this.options;
    const credentials = await this.credentials();
    const now = new Date(this.options.now ? this.options.now() : Date.now());
    const signingDate = amzDate(now);
    const shortDate = signingDate.slice(0, 8);
    const scope = `${shortDate}/${region}/s3/aws4_request`;
    const signed: Record<string, string> = {
      'Content-Type': policy.contentType,
      bucket,
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': `${credentials.accessKeyId}/${scope}`,
      'X-Amz-Date': signingDate,
      ...(credentials.sessionToken ? { 'X-Amz-Security-Token': credentials.sessionToken } : {}),
      ...Object.fromEntries(Object.entries(policy.metadata ?? {}).map(([name, value]) => [`x-amz-meta-${name.toLowerCase()}`, value])),
    };
    const expiration = new Date(now.getTime() + (policy.expiresInSeconds ?? this.options.expiresInSeconds) * 1000);
    const encodedPolicy = Buffer.from(
      JSON.stringify({
        expiration: expiration.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        conditions: [
          ['content-length-range', policy.minBytes, policy.maxBytes],
          ...Object.entries(signed).map(([name, value]) => ({ [name]: value })),
          { key },
        ],
      }),
      'utf8',
    ).toString('base64');
    const signingKey = ['s3', 'aws4_request'].reduce(
      (k, part) => hmac(k, part),
      hmac(hmac(`AWS4${credentials.secretAccessKey}`, shortDate), region),
    );
    const url = endpoint ? `${endpoint.replace(/\/$/, '')}/${bucket}` : `https://${bucket}.s3.${region}.amazonaws.com/`;
    return {
      url,
      fields: { ...signed, key, Policy: encodedPolicy, 'X-Amz-Signature': hmac(signingKey, encodedPolicy).toString('hex') },
    };
  }

  /**
   * A link that copies `sourceKey` to `key` inside the bucket (PUT with x-amz-copy-source). The
   * header is signed, not hoisted into the query (S3 reads it only as a header): send `headers`.
   */
  async copyRequest(sourceKey: string, key: string): Promise<{ url: string; headers: Record<string, string> }> {
    const headers = { 'x-amz-copy-source': `/${this.options.bucket}/${encodeKey(sourceKey)}` };
    const url = await this.presign('PUT', key, { headers, unhoistable: Object.keys(headers) });
    return { url, headers };
  }

  /**
   * A link that stores a body at `key` with `headers` signed as headers (S3 reads server-side
   * encryption and tagging only as headers, not hoisted into the query): send `headers` with the PUT.
   */
  async putRequest(key: string, headers: Record<string, string>, options: PresignOptions = {}): Promise<{ url: string; headers: Record<string, string> }> {
    const url = await this.presign('PUT', key, { ...options, headers, unhoistable: Object.keys(headers) });
    return { url, headers };
  }

  /** A link that answers the object's headers (Content-Length), or 404 when there is none. */
  headUrl(key: string): Promise<string> {
    return this.presign('HEAD', key);
  }

  /** A link that deletes the object (S3 answers 204 whether or not it existed). */
  deleteUrl(key: string): Promise<string> {
    return this.presign('DELETE', key);
  }

  /**
   * A link that downloads the object with the given response headers (S3's response-* query
   * parameters, covered by the signature), e.g. Content-Disposition: attachment.
   */
  downloadUrl(key: string, headers: { contentDisposition?: string; contentType?: string }, options: PresignOptions = {}): Promise<string> {
    const query: Record<string, string> = {};
    if (headers.contentDisposition) query['response-content-disposition'] = headers.contentDisposition;
    if (headers.contentType) query['response-content-type'] = headers.contentType;
    return this.presign('GET', key, { ...options, query });
  }

  /**
   * A link of a multipart upload's request (issue 33, a streamed export): POST `?uploads` starts
   * it, PUT `?partNumber&uploadId` sends a part, POST `?uploadId` completes it, DELETE `?uploadId`
   * aborts it. The query is signed with the link.
   */
  multipartUrl(method: 'POST' | 'PUT' | 'DELETE', key: string, query: Record<string, string>, options: PresignOptions = {}): Promise<string> {
    return this.presign(method, key, { ...options, query });
  }

  /** Seconds a link made now stays valid (with `expiresInSeconds` overridden by `options`). */
  expiresIn(options: PresignOptions = {}): number {
    return options.expiresInSeconds ?? this.options.expiresInSeconds;
  }

  private async presign(
    method: 'GET' | 'PUT' | 'HEAD' | 'DELETE' | 'POST',
    key: string,
    options: PresignOptions & { query?: Record<string, string>; headers?: Record<string, string>; unhoistable?: string[] } = {},
  ): Promise<string> {
    const { bucket, region, endpoint } = this.options;
    const encodedKey = encodeKey(key);
    const base = new URL(
      endpoint
        ? `${endpoint.replace(/\/$/, '')}/${bucket}/${encodedKey}`
        : `https://${bucket}.s3.${region}.amazonaws.com/${encodedKey}`,
    );
    const request = new HttpRequest({
      method,
      protocol: base.protocol,
      hostname: base.hostname,
      port: base.port ? Number(base.port) : undefined,
      path: base.pathname,
      query: options.query,
      headers: { host: base.host, ...options.headers },
    });
    return formatUrl(
      await this.presigner.presign(request, {
        expiresIn: this.expiresIn(options),
        ...(options.unhoistable ? { unhoistableHeaders: new Set(options.unhoistable) } : {}),
        ...(this.options.now ? { signingDate: new Date(this.options.now()) } : {}),
      }),
    );
  }
}

const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');
