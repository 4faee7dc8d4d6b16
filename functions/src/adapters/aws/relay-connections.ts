/**
 * Posting to ConversationRelay connections through API Gateway's connection-posting API
 * (@connections): POST {endpoint}/@connections/{id} for each frame, DELETE to close — the requests
 * @aws-sdk/client-apigatewaymanagementapi makes (PostToConnection, DeleteConnection), sent with
 * fetch and signed here with Signature V4 (service execute-api). The SDK client would bring
 * its REST protocol stack (~28 KB minified) into a function held to 400 KB for its cold start;
 * the signature is checked against the SDK's own signer in the unit tests.
 *
 * The endpoint is VOICE_RELAY_CONNECTIONS_URL (https://{api}.execute-api.{region}.amazonaws.com/{stage}
 * in AWS, the local gateway's /_ws/voice-relay locally). 410 Gone = the caller hung up: not an error.
 */
import { createHash, createHmac } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { RelayOutboundFrame } from '../../contract/voice-relay.js';
import type { RelayConnections } from '../../domain/voice/relay/ports.js';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface RelayConnectionsOptions {
  /** VOICE_RELAY_CONNECTIONS_URL. */
  endpoint: string;
  region: string;
  /** Default: the SDK's chain (in the Lambda bundles, the environment's role credentials only). */
  credentials?: () => Promise<AwsCredentials>;
  fetch?: typeof fetch;
  now?: () => Date;
  /** Bound of one request (a stuck post must not hold the answer). */
  timeoutMs?: number;
}

/** RFC 3986 escaping, as AWS canonical requests use it. */
const escape = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/**
 * Signature V4 headers of a request to execute-api (host, x-amz-content-sha256, x-amz-date, the
 * session token, content-type when there is a body): the same canonical request as the SDK's signer.
 */
export function signExecuteApi(input: {
  method: string;
  url: URL;
  body: string;
  contentType?: string;
  region: string;
  credentials: AwsCredentials;
  date: Date;
}): Record<string, string> {
  const amzDate = input.date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256Hex(input.body);
  const headers: Record<string, string> = { host: input.url.host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
  if (input.contentType) headers['content-type'] = input.contentType;
  if (input.credentials.sessionToken) headers['x-amz-security-token'] = input.credentials.sessionToken;
  const names = Object.keys(headers).sort();
  // The path as sent (segments already escaped), escaped once more: AWS's rule for every service but S3.
  const canonicalPath = escape(input.url.pathname).replace(/%2F/g, '/');
  const canonical = [
    input.method,
    canonicalPath,
    '',
    ...names.map((n) => `${n}:${headers[n]!.trim()}`),
    '',
    names.join(';'),
    payloadHash,
  ].join('\n');
  const scope = `${day}/${input.region}/execute-api/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.credentials.secretAccessKey}`, day), input.region), 'execute-api'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  const { host: _host, ...sent } = headers;
  return { ...sent, authorization: `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}` };
}

export class RelayConnectionError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RelayConnectionError';
  }
}

export class ApiGatewayRelayConnections implements RelayConnections {
  private readonly fetch: typeof fetch;
  private readonly credentials: () => Promise<AwsCredentials>;

  constructor(private readonly options: RelayConnectionsOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.credentials = options.credentials ?? defaultProvider();
  }

  private async send(method: 'POST' | 'DELETE', connectionId: string, body: string): Promise<number> {
    if (!this.options.endpoint) throw new RelayConnectionError(0, 'VOICE_RELAY_CONNECTIONS_URL is not configured');
    const url = new URL(`${this.options.endpoint.replace(/\/+$/, '')}/@connections/${escape(connectionId)}`);
    const headers = signExecuteApi({
      method,
      url,
      body,
      ...(body ? { contentType: 'application/json' } : {}),
      region: this.options.region,
      credentials: await this.credentials(),
      date: (this.options.now ?? (() => new Date()))(),
    });
    const res = await this.fetch(url, {
      method,
      headers,
      ...(body ? { body } : {}),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
    });
    // Drained so the keep-alive connection is reused for the next token.
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  }

  async post(connectionId: string, frame: RelayOutboundFrame): Promise<boolean> {
    const status = await this.send('POST', connectionId, JSON.stringify(frame));
    if (status === 410) return false;
    if (status < 200 || status >= 300) throw new RelayConnectionError(status, `PostToConnection answered ${status}`);
    return true;
  }

  async close(connectionId: string): Promise<void> {
    const status = await this.send('DELETE', connectionId, '');
    if (status !== 410 && (status < 200 || status >= 300)) throw new RelayConnectionError(status, `DeleteConnection answered ${status}`);
  }
}
