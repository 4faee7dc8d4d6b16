/**
 * Warms the voice-relay function when a streamed call comes in (issue 16): an asynchronous Lambda
 * Invoke (InvocationType 'Event', payload {"warmUp":true}) so a container is up by the time
 * Twilio opens the WebSocket. The handler only builds its composition for that event.
 *
 * It must never delay or fail the call: the request is bounded (`timeoutMs`, then aborted), not
 * retried, and any error is only logged. '' as the function name = not deployed: nothing is sent.
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { RelayWarmer } from '../../domain/voice/call-loop.js';

export const WARM_UP_PAYLOAD = '{"warmUp":true}';
/** An asynchronous invoke is accepted in tens of ms; past this the call goes on without it. */
export const WARM_UP_TIMEOUT_MS = 300;

export interface RelayWarmerDeps {
  /** Built on first use (a call that does not stream never creates it). */
  client: () => Pick<LambdaClient, 'send'>;
  functionName: string;
  timeoutMs?: number;
  onError: (message: string, error: unknown) => void;
}

export function createRelayWarmer(deps: RelayWarmerDeps): RelayWarmer {
  const timeoutMs = deps.timeoutMs ?? WARM_UP_TIMEOUT_MS;
  const payload = new TextEncoder().encode(WARM_UP_PAYLOAD);
  return {
    async warmUp() {
      if (!deps.functionName) return;
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), timeoutMs);
      try {
        await deps
          .client()
          .send(new InvokeCommand({ FunctionName: deps.functionName, InvocationType: 'Event', Payload: payload }), { abortSignal: abort.signal });
      } catch (error) {
        deps.onError(abort.signal.aborted ? `Voice relay warm-up: no answer within ${timeoutMs} ms` : 'Voice relay warm-up failed', error);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
