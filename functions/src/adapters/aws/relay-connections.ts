/**
 * Posting to ConversationRelay connections through API Gateway's connection-posting API
 * (@connections): POST {endpoint}/@connections/{id} for each frame, DELETE to close — the requests
 * @aws-sdk/client-apigatewaymanagementapi makes (PostToConnection, DeleteConnection), sent with
 * fetch and signed with Signature V4 (sigv4.ts, service execute-api). The SDK client would bring
 * its REST protocol stack (~28 KB minified) into a function held to 400 KB for its cold start.
 *
 * The endpoint is VOICE_RELAY_CONNECTIONS_URL (https://{api}.execute-api.{region}.amazonaws.com/{stage}
 * in AWS, the local gateway's /_ws/voice-relay locally). 410 Gone = the caller hung up: not an error.
 */
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { RelayOutboundFrame } from '../../contract/voice-relay.js';
import type { RelayConnections } from '../../domain/voice/relay/ports.js';
import { escapeRfc3986, signAwsRequest, type AwsCredentials } from './sigv4.js';

export type { AwsCredentials } from './sigv4.js';

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
    const url = new URL(`${this.options.endpoint.replace(/\/+$/, '')}/@connections/${escapeRfc3986(connectionId)}`);
    const headers = signAwsRequest({
      service: 'execute-api',
      method,
      url,
      body,
      ...(body ? { headers: { 'content-type': 'application/json' } } : {}),
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
