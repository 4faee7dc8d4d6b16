/**
 * The official Stripe SDK client for a key. With STRIPE_API_URL set (local runtime, tests) it
 * talks to that server (a fake Stripe API that speaks the real protocol); in AWS it is unset and
 * the SDK talks to api.stripe.com.
 */
import Stripe from 'stripe';

export function createStripeClient(secretKey: string, apiUrl: string | undefined): Stripe {
  const options: ConstructorParameters<typeof Stripe>[1] = {
    // Inside API Gateway's 30 s: one retry, each attempt bounded.
    maxNetworkRetries: 1,
    timeout: 10_000,
    telemetry: false,
  };
  if (apiUrl) {
    const url = new URL(apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    options.host = url.hostname;
    options.port = url.port || (protocol === 'http' ? 80 : 443);
    options.protocol = protocol;
  }
  return new Stripe(secretKey, options);
}
