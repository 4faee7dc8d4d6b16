/**
 * The Stripe webhook verifier (provider 'stripe' in the route manifest): Stripe-Signature over
 * the raw body with the configuration's webhook signing secret, 300 s tolerance (the SDK's own
 * check, events.ts). Bad, missing or stale signature → 400 and nothing is read or written; a
 * correctly signed body that is not JSON, or not an event, → 400 saying so.
 * Reading the signing secret is part of the check: without it the answer is a plain 500.
 */
import { billingServerMessages as msg } from '../../domain/billing/messages.js';
import { jsonResponse, type WebhookVerifier } from '../../http/webhook-verification.js';
import { verifyStripeEvent, type StripeEventRefusal } from './events.js';
import type { StripeSecrets } from './secrets.js';

/** Each refusal says what is wrong (a signed body that is not JSON is not a signature problem). */
const REFUSALS: Record<StripeEventRefusal, string> = {
  signature: msg.invalidSignature,
  not_json: msg.webhookNotJson,
  not_event: msg.webhookNotEvent,
};

export interface StripeWebhookVerifierDeps {
  /** The Stripe configuration, or null when it cannot be read or has no webhook secret (logged by the caller). */
  secrets: () => Promise<Pick<StripeSecrets, 'webhookSecret' | 'prices'> | null>;
}

export function createStripeWebhookVerifier(deps: StripeWebhookVerifierDeps): WebhookVerifier<'stripe'> {
  return {
    async verify(req) {
      const secrets = await deps.secrets();
      if (!secrets) return { refused: jsonResponse(500, { success: false, message: 'Internal server error' }) };
      const checked = verifyStripeEvent(req.rawBody, req.headers['stripe-signature'], secrets.webhookSecret);
      if ('refused' in checked) return { refused: jsonResponse(400, { success: false, message: REFUSALS[checked.refused] }) };
      return { verified: { event: checked.event, prices: secrets.prices } };
    },
  };
}
