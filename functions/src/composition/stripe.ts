/**
 * The Stripe configuration and gateway: only the billing and webhook groups import this.
 * With STRIPE_SECRET_ID (AWS) the key, webhook secret and price ids are read from Secrets
 * Manager once per container; without it (local runtime, tests) from the STRIPE_* variables.
 */
import { config } from '../config.js';
import { SecretsManagerReader, secretsManagerService } from '../adapters/aws/secrets-manager.js';
import { logger } from '../adapters/logger.js';
import { createStripeClient } from '../adapters/stripe/client.js';
import { StripePaymentGateway } from '../adapters/stripe/gateway.js';
import { cachedStripeSecrets, type StripeSecrets } from '../adapters/stripe/secrets.js';
import { billingServerMessages } from '../domain/billing/messages.js';
import { BadGatewayError } from '../domain/errors.js';
import { once, onceAsync } from '../lib/once.js';

const secretsSource = once((): (() => Promise<StripeSecrets>) => {
  const c = config();
  if (c.STRIPE_SECRET_ID) return cachedStripeSecrets(new SecretsManagerReader(secretsManagerService()), c.STRIPE_SECRET_ID);
  const fromEnv: StripeSecrets = {
    secretKey: c.STRIPE_SECRET_KEY,
    webhookSecret: c.STRIPE_WEBHOOK_SECRET,
    prices: { starter: c.STRIPE_PRICE_STARTER, professional: c.STRIPE_PRICE_PROFESSIONAL, enterprise: c.STRIPE_PRICE_ENTERPRISE },
  };
  return () => Promise.resolve(fromEnv);
});

export const stripeSecrets = (): Promise<StripeSecrets> => secretsSource()();

const NOT_CONFIGURED = billingServerMessages.notConfigured;

/** The SDK client and the price ids; an unreadable secret or an unset key is a 502 with a plain text. */
const stripeConnection = onceAsync(async () => {
  let secrets: StripeSecrets;
  try {
    secrets = await stripeSecrets();
  } catch (error) {
    logger.error('The Stripe secret could not be read', { error: String(error) });
    throw new BadGatewayError(NOT_CONFIGURED);
  }
  if (!secrets.secretKey) throw new BadGatewayError(NOT_CONFIGURED);
  return { stripe: createStripeClient(secrets.secretKey, config().STRIPE_API_URL), prices: secrets.prices };
});

export const paymentGateway = once(() => new StripePaymentGateway(stripeConnection));
