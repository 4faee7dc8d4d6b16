/**
 * The official Stripe SDK client, built once per container from configuration. With
 * STRIPE_API_URL set (local runtime, tests) it talks to that server (a fake Stripe API that
 * speaks the real protocol); in AWS it is unset and the SDK talks to api.stripe.com.
 */
import Stripe from 'stripe';
import { config } from '../../config.js';
import { BadGatewayError } from '../../domain/errors.js';
import { once } from '../../lib/once.js';

export const stripeClient = once(() => {
  const { STRIPE_SECRET_KEY, STRIPE_API_URL } = config();
  if (!STRIPE_SECRET_KEY) throw new BadGatewayError('Payments are not configured. Please contact support.');
  const options: ConstructorParameters<typeof Stripe>[1] = {
    // Inside API Gateway's 30 s: one retry, each attempt bounded.
    maxNetworkRetries: 1,
    timeout: 10_000,
    telemetry: false,
  };
  if (STRIPE_API_URL) {
    const url = new URL(STRIPE_API_URL);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    options.host = url.hostname;
    options.port = url.port || (protocol === 'http' ? 80 : 443);
    options.protocol = protocol;
  }
  return new Stripe(STRIPE_SECRET_KEY, options);
});
