/**
 * The currency an account pays in (issue 29): chosen by the account's country. Stripe prices
 * are multi-currency (USD by default, an EUR `currency_options` entry); the Checkout Session is
 * created with this currency, and the subscription keeps it for good (Stripe cannot change a
 * subscription's currency), so an account that already subscribed keeps its subscription's.
 *
 * Euro for the euro area and the other places whose currency is the euro; US dollars for the
 * rest. Latin America stays in dollars on purpose: a local price per country (MXN, COP, ARS,
 * CLP...) would need its own amounts kept up with exchange rates and inflation, card payments
 * there are used to dollar-priced software, and Ecuador, El Salvador and Panama use the dollar.
 */
export const BILLING_CURRENCIES = ['usd', 'eur'] as const;
export type BillingCurrency = (typeof BILLING_CURRENCIES)[number];

export const DEFAULT_CURRENCY: BillingCurrency = 'usd';

/**
 * The 21 euro-area members (Bulgaria since 2026), the EU outermost regions and territories with
 * their own ISO codes (Åland, the French overseas departments, Saint-Martin, Saint-Barthélemy,
 * Saint-Pierre-et-Miquelon) and the states that use the euro by agreement or de facto.
 */
const EURO_COUNTRIES = new Set([
  'AT', 'BE', 'BG', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK',
  'AX', 'GF', 'GP', 'MQ', 'RE', 'YT', 'MF', 'BL', 'PM',
  'AD', 'MC', 'SM', 'VA', 'ME', 'XK',
]);

export const isBillingCurrency = (value: unknown): value is BillingCurrency =>
  typeof value === 'string' && (BILLING_CURRENCIES as readonly string[]).includes(value);

/** ISO 3166-1 alpha-2 (any case) → the currency its accounts pay in. */
export function currencyForCountry(country: string | null | undefined): BillingCurrency {
  return country && EURO_COUNTRIES.has(country.trim().toUpperCase()) ? 'eur' : DEFAULT_CURRENCY;
}

/**
 * The currency an account sees and pays: its live subscription's (Stripe keeps a subscription in
 * the currency it started in), else its country's.
 */
export function accountCurrency(country: string | null | undefined, subscriptionCurrency: string | null | undefined): BillingCurrency {
  const held = subscriptionCurrency?.toLowerCase();
  return isBillingCurrency(held) ? held : currencyForCountry(country);
}
