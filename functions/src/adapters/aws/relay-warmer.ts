/**
 * Warms the voice-relay function when a streamed call comes in (issue 16): an asynchronous Lambda
 * Invoke (`X-Amz-Invocation-Type: Event`, payload {"warmUp":true}) so a container is up by the
 * time Twilio opens the WebSocket. The handler only builds its composition for that event.
 *
 * Lambda's Invoke REST call (POST /2015-03-31/functions/{name}/invocations) sent with fetch and
 * signed with Signature V4 (sigv4.ts, service lambda): the SDK's Lambda client would add ~70 KB
 * to the incoming-call webhook, whose cold start the caller waits through.
 *
 * It must never delay or fail the call: the request is bounded (`timeoutMs`, then aborted), not
 * retried, and any error is only logged. '' as the function name = not deployed: nothing is sent.
 */
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { RelayWarmer } from '../../domain/voice/call-loop.js';
import { escapeRfc3986, signAwsRequest, type AwsCredentials } from './sigv4.js';

export const WARM_UP_PAYLOAD = '{"warmUp":true}';
/** An asynchronous invoke is accepted in tens of ms; past this the call goes on without it. */
export const WARM_UP_TIMEOUT_MS = 300;

export interface RelayWarmerDeps {
  functionName: string;
  region: string;
  /** LAMBDA_ENDPOINT; '' = Lambda's public endpoint of the region. */
  endpoint?: string;
  /** Default: the SDK's chain (in the Lambda bundles, the environment's role credentials only). */
  credentials?: () => Promise<AwsCredentials>;
  fetch?: typeof fetch;
  timeoutMs?: number;
  onError: (message: string, error: unknown) => void;
}

export function createRelayWarmer(deps: RelayWarmerDeps): RelayWarmer {
  const timeoutMs = deps.timeoutMs ?? WARM_UP_TIMEOUT_MS;
  const send = deps.fetch ?? globalThis.fetch;
  let credentials: (() => Promise<AwsCredentials>) | undefined = deps.credentials;
  return {
    async warmUp() {
      if (!deps.functionName) return;
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), timeoutMs);
      try {
        // Built on first use: a call that does not stream never resolves credentials.
        credentials ??= defaultProvider();
        const base = (deps.endpoint || `https://lambda.${deps.region}.amazonaws.com`).replace(/\/+$/, '');
        const url = new URL(`${base}/2015-03-31/functions/${escapeRfc3986(deps.functionName)}/invocations`);
        const headers = signAwsRequest({
          service: 'lambda',
          method: 'POST',
          url,
          body: WARM_UP_PAYLOAD,
          headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
          region: deps.region,
          credentials: await credentials(),
          date: new Date(),
        });
        const res = await send(url, { method: 'POST', headers, body: WARM_UP_PAYLOAD, signal: abort.signal });
        await res.arrayBuffer().catch(() => undefined);
        // 202 Accepted is Lambda's answer to an asynchronous invoke.
        if (res.status < 200 || res.status >= 300) deps.onError('Voice relay warm-up failed', new Error(`Lambda answered ${res.status}`));
      } catch (error) {
        deps.onError(abort.signal.aborted ? `Voice relay warm-up: no answer within ${timeoutMs} ms` : 'Voice relay warm-up failed', error);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
