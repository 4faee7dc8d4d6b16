/**
 * Webhook signature verification as one step of the HTTP wrapper (ARCHITECTURE §8): each
 * 'webhook' route declares `verify: {provider, secret}` in the manifest (routes.ts); the wrapper
 * runs that provider's verifier on the raw request before the route, and the route only ever
 * sees the verified payload. A refusal is the verifier's own response (the status codes and
 * bodies each provider's callers expect); nothing else has touched the body by then.
 *
 * The step and its verifiers are injected by the handler module of the group that serves the
 * routes (verifiers through composition/), so a function bundles only its own provider's SDK and
 * the other functions none of this. This module imports no SDK.
 */
import type { HttpEvent, HttpResult } from './handler.js';
import type { PriceIds } from '../domain/billing/plans.js';
import type { IntegrationRecord } from '../domain/integrations/records.js';
import type { WebhookProvider, WebhookVerification } from '../routes.js';

/** What the verifier of each provider hands the route. */
export interface VerifiedPayloads {
  /** A Stripe event whose signature and timestamp checked out, with the price ids of the same configuration. */
  stripe: { event: { id: string; type: string; created: number; data: { object: unknown } }; prices: PriceIds };
  /** The {userId} whose active integration signed, and the form parameters Twilio posted. */
  twilio: { userId: string; params: Record<string, string> };
  /** GET: Meta's handshake passed (echo the challenge). POST: a delivery signed with the integration's app secret. */
  whatsapp: { kind: 'handshake'; challenge: string } | { kind: 'delivery'; integration: IntegrationRecord };
}

/** The raw request as it arrived: what a signature is computed over. */
export interface WebhookRequest {
  /** Path parameters from the route template ({userId}, {integrationId}). */
  params: Record<string, string>;
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  rawBody: Buffer;
  /** As API Gateway passes them on (unchanged): Twilio signs over the URL it called. */
  rawPath: string;
  rawQueryString: string;
  method: string;
}

export type VerificationResult<P extends WebhookProvider> = { verified: VerifiedPayloads[P] } | { refused: HttpResult };

export interface WebhookVerifier<P extends WebhookProvider> {
  verify(req: WebhookRequest): Promise<VerificationResult<P>>;
}

/** The verifiers a group's function carries, by provider; each built on first use. */
export type WebhookVerifiers = { [P in WebhookProvider]?: () => WebhookVerifier<P> };

/** A verified payload tagged with its provider, as the wrapper hands it to the route. */
export type VerifiedWebhook = { [P in WebhookProvider]: { provider: P; payload: VerifiedPayloads[P] } }[WebhookProvider];

export const textResponse = (status: number, body: string): HttpResult => ({
  statusCode: status,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body,
});

export const jsonResponse = (status: number, body: unknown): HttpResult => ({
  statusCode: status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: JSON.stringify(body),
});

/** The step the HTTP wrapper runs before a webhook route (only the webhook groups carry it). */
export interface WebhookStep {
  /** The providers it has a verifier for (httpGroup refuses to start when a route needs another). */
  providers: ReadonlySet<WebhookProvider>;
  run(rule: WebhookVerification, event: HttpEvent, headers: Record<string, string>, rawBody: Buffer): Promise<{ verified: VerifiedWebhook } | { refused: HttpResult }>;
}

/** The verification step of a webhook group, with the verifiers of the providers its routes declare. */
export function webhookVerification(verifiers: WebhookVerifiers): WebhookStep {
  return {
    providers: new Set(Object.keys(verifiers) as WebhookProvider[]),
    async run(rule, event, headers, rawBody) {
      const make = verifiers[rule.provider] as (() => WebhookVerifier<typeof rule.provider>) | undefined;
      if (!make) throw new Error(`No ${rule.provider} verifier`);
      const result = await make().verify({
        params: (event.pathParameters ?? {}) as Record<string, string>,
        query: (event.queryStringParameters ?? {}) as Record<string, string>,
        headers,
        rawBody,
        rawPath: event.rawPath,
        rawQueryString: event.rawQueryString ?? '',
        method: event.routeKey.split(' ')[0] ?? '',
      });
      if ('refused' in result) return result;
      return { verified: { provider: rule.provider, payload: result.verified } as VerifiedWebhook };
    },
  };
}
