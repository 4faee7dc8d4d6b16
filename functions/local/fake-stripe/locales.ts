/**
 * The languages of the hosted checkout stand-in. A Checkout Session takes Stripe's `locale`
 * (its documented values, below; anything else is Stripe's 400) and its page speaks it; with
 * 'auto' or none, the browser's language, as Stripe's page does. The fake has English and
 * Spanish texts: any other locale reads English (real Checkout would translate it).
 */

/** Stripe Checkout's documented `locale` values. */
export const CHECKOUT_LOCALES = [
  'auto', 'bg', 'cs', 'da', 'de', 'el', 'en', 'en-GB', 'es', 'es-419', 'et', 'fi', 'fil', 'fr', 'fr-CA', 'hr', 'hu',
  'id', 'it', 'ja', 'ko', 'lt', 'lv', 'ms', 'mt', 'nb', 'nl', 'pl', 'pt', 'pt-BR', 'ro', 'ru', 'sk', 'sl', 'sv',
  'th', 'tr', 'vi', 'zh', 'zh-HK', 'zh-TW',
] as const;

export const isCheckoutLocale = (value: string): boolean => (CHECKOUT_LOCALES as readonly string[]).includes(value);

export interface CheckoutTexts {
  lang: 'en' | 'es';
  testMode: string;
  footer: string;
  subscribeTo: (plan: string) => string;
  /** '79,00 € per month' / '79,00 € al mes': `amount` is already formatted. */
  perInterval: (amount: string, interval: string) => string;
  /** The unit after the big price: 'per month' / 'al mes'. */
  intervalUnit: (interval: string) => string;
  freeTrial: (days: number) => string;
  thenNothingDue: (perInterval: string) => string;
  quantity: (n: number) => string;
  billedTo: (email: string) => string;
  pay: string;
  cancel: string;
  completeTitle: string;
  completeText: (plan: string) => string;
  continueLink: string;
  expiredTitle: string;
  expiredText: string;
  backLink: string;
}

const EN_UNIT: Record<string, string> = { day: 'per day', week: 'per week', month: 'per month', year: 'per year' };
const ES_UNIT: Record<string, string> = { day: 'al día', week: 'a la semana', month: 'al mes', year: 'al año' };

const en: CheckoutTexts = {
  lang: 'en',
  testMode: 'Test mode — no real payment',
  footer: 'Local billing mode: this page stands in for Stripe. Nothing is charged; paying here sends a signed Stripe webhook to AgentDesk.',
  subscribeTo: (plan) => `Subscribe to ${plan}`,
  perInterval: (amount, interval) => `${amount} ${EN_UNIT[interval] ?? `per ${interval}`}`,
  intervalUnit: (interval) => EN_UNIT[interval] ?? `per ${interval}`,
  freeTrial: (days) => `${days}-day free trial`,
  thenNothingDue: (price) => `Then ${price}. Nothing is due today.`,
  quantity: (n) => `Quantity: ${n}`,
  billedTo: (email) => `Billed to ${email}`,
  pay: 'Pay',
  cancel: 'Cancel',
  completeTitle: 'Payment complete',
  completeText: (plan) => `This checkout session is complete: you are subscribed to ${plan}.`,
  continueLink: 'Continue to AgentDesk',
  expiredTitle: 'Checkout expired',
  expiredText: 'This checkout session has expired. Start again from AgentDesk.',
  backLink: 'Back to AgentDesk',
};

const es: CheckoutTexts = {
  lang: 'es',
  testMode: 'Modo de prueba: no se cobra nada',
  footer: 'Modo de facturación local: esta página sustituye a Stripe. No se cobra nada; al pagar aquí, AgentDesk recibe un webhook de Stripe firmado.',
  subscribeTo: (plan) => `Suscríbete a ${plan}`,
  perInterval: (amount, interval) => `${amount} ${ES_UNIT[interval] ?? `cada ${interval}`}`,
  intervalUnit: (interval) => ES_UNIT[interval] ?? `cada ${interval}`,
  freeTrial: (days) => `${days} días de prueba gratis`,
  thenNothingDue: (price) => `Después, ${price}. Hoy no pagas nada.`,
  quantity: (n) => `Cantidad: ${n}`,
  billedTo: (email) => `Se factura a ${email}`,
  pay: 'Pagar',
  cancel: 'Cancelar',
  completeTitle: 'Pago completado',
  completeText: (plan) => `Este pago ya está completado: tienes la suscripción a ${plan}.`,
  continueLink: 'Continuar en AgentDesk',
  expiredTitle: 'El pago ha caducado',
  expiredText: 'Esta sesión de pago ha caducado. Vuelve a empezar desde AgentDesk.',
  backLink: 'Volver a AgentDesk',
};

/** The primary language subtag of a locale or Accept-Language header's first tag ('es-ES,es;q=0.9' → 'es'). */
const primary = (tag: string | null | undefined) => tag?.split(',')[0]?.split(';')[0]?.trim().split('-')[0]?.toLowerCase() ?? '';

/**
 * How a checkout page speaks and writes amounts: its texts from the session's locale (or, for
 * 'auto'/none, the browser's language), and the amounts in the browser's locale when it is the
 * same language ('es-MX' keeps its format), else in the session's locale itself.
 */
export function checkoutLanguage(sessionLocale: unknown, browserLocale: string): { texts: CheckoutTexts; amountLocale: string } {
  const chosen = typeof sessionLocale === 'string' && sessionLocale !== 'auto' ? sessionLocale : null;
  const language = primary(chosen ?? browserLocale);
  const texts = language === 'es' ? es : en;
  const amountLocale = !chosen || primary(browserLocale) === primary(chosen) ? browserLocale : chosen;
  return { texts, amountLocale };
}

/** The English texts: pages with no session (the portal, messages) and locales the fake has no texts for. */
export const englishTexts = en;
