/**
 * The `fetch` the OpenAI SDK is given: every request goes through the outbound guard, so a
 * user-supplied API base URL can never reach a private address (api.openai.com passes normally,
 * the local fake OpenAI is allow-listed by OUTBOUND_ALLOW_HOSTS).
 */
import type { GuardedRequest, GuardedResponse } from '../../../src/adapters/outbound/guarded-fetch.js';

export type GuardFetch = (url: string, req?: GuardedRequest) => Promise<GuardedResponse>;

/** Chat replies and embedding batches (base64) stay well under this. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

async function bodyOf(body: RequestInit['body']): Promise<string | Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  // FormData, Blob, streams (uploads): not used by this adapter; let Response serialise them.
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** A WHATWG fetch over the guard; `timeoutMs` backs up the SDK's own per-attempt abort. */
export function guardedSdkFetch(guard: GuardFetch, timeoutMs: number) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const method = (init.method ?? 'GET').toUpperCase();
    const res = await guard(url, {
      method,
      headers,
      body: await bodyOf(init.body),
      signal: init.signal ?? undefined,
      timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
      failOnTooLarge: true,
    });
    const noBody = method === 'HEAD' || res.status === 204 || res.status === 304;
    return new Response(noBody ? null : new Uint8Array(res.body), { status: res.status, headers: res.headers });
  };
}
