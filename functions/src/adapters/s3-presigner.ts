/**
 * Presigned URLs for the uploads bucket, signed with SigV4 query parameters WITHOUT an S3
 * client (the same S3RequestPresigner the SDK's getSignedUrl uses, unsigned payload).
 *
 * API functions reach S3 only through these URLs: browsers upload and download with them,
 * and a function that must write an object itself PUTs to one. Keeping @aws-sdk/client-s3
 * out of their bundles saves ~125 KB minified per function (bundle budget: 400 KB).
 */
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
}

export interface PresignOptions {
  /** Overrides the presigner's default lifetime for this link. */
  expiresInSeconds?: number;
}

export class S3Presigner implements AvatarUrlSigner {
  private readonly presigner: S3RequestPresigner;

  constructor(private readonly options: S3PresignerOptions) {
    this.presigner = new S3RequestPresigner({
      credentials: defaultProvider(),
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

  /** Seconds a link made now stays valid (with `expiresInSeconds` overridden by `options`). */
  expiresIn(options: PresignOptions = {}): number {
    return options.expiresInSeconds ?? this.options.expiresInSeconds;
  }

  private async presign(
    method: 'GET' | 'PUT' | 'HEAD' | 'DELETE',
    key: string,
    options: PresignOptions & { query?: Record<string, string> } = {},
  ): Promise<string> {
    const { bucket, region, endpoint } = this.options;
    const encodedKey = key.split('/').map(encodeURIComponent).join('/');
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
      headers: { host: base.host },
    });
    return formatUrl(await this.presigner.presign(request, { expiresIn: this.expiresIn(options) }));
  }
}
