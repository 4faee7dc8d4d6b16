/**
 * The browser pages of local billing mode: Stripe Checkout and the customer portal stand-ins.
 * Plain server-rendered HTML, no scripts and no external assets, every value escaped. Both
 * carry the "Test mode — no real payment" banner.
 */
import { formatAmount } from './engine.js';
import type { CheckoutSessionObject, PortalSessionObject, SubscriptionObject } from './objects.js';
import { checkoutLanguage, englishTexts, type CheckoutTexts } from './locales.js';
import { unitAmountIn, type LocalPrice } from './prices.js';

export const TEST_MODE_BANNER = englishTexts.testMode;

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f8fa;color:#1a1f36}
  .banner{background:#ffd54f;color:#3e2c00;text-align:center;padding:10px;font-weight:600;letter-spacing:.02em}
  main{max-width:560px;margin:32px auto;padding:0 16px}
  .card{background:#fff;border:1px solid #e3e8ee;border-radius:10px;padding:24px;margin-bottom:16px}
  h1{font-size:1.35rem;margin:0 0 4px}
  .muted{color:#697386;font-size:.9rem}
  .price{font-size:2rem;font-weight:700;margin:12px 0 4px}
  .trial{display:inline-block;background:#e6f4ea;color:#1e7e34;border-radius:12px;padding:2px 10px;font-weight:600;margin:8px 0}
  button{font:inherit;border:0;border-radius:6px;padding:10px 16px;cursor:pointer;background:#635bff;color:#fff;font-weight:600}
  button.secondary{background:#fff;color:#1a1f36;border:1px solid #c1c9d2}
  button.danger{background:#df1b41}
  .pay{width:100%;font-size:1.05rem;padding:12px}
  form{display:inline}
  .actions{display:flex;flex-wrap:wrap;gap:8px;margin-top:12px}
  .row{display:flex;justify-content:space-between;margin:6px 0}
  .notice{background:#e8f0fe;border-radius:6px;padding:10px 12px;margin-bottom:16px}
  a{color:#635bff}
`;

function layout(title: string, body: string, texts: CheckoutTexts = englishTexts): string {
  return `<!doctype html>
<html lang="${texts.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(texts.testMode)}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="banner" role="status">${escapeHtml(texts.testMode)}</div>
<main>
${body}
<p class="muted">${escapeHtml(texts.footer)}</p>
</main>
</body>
</html>`;
}

/**
 * The locale amounts are shown in: the browser's first Accept-Language tag, as Stripe's hosted
 * pages do with locale 'auto' ('79,00 €' for es-ES); en-US when there is none Intl knows.
 */
export function pageLocale(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  if (!first || first === '*') return 'en-US';
  try {
    return Intl.NumberFormat.supportedLocalesOf([first])[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

/** The price in `currency` (its currency option) per interval; the default currency's when it has no such option. */
function perInterval(price: LocalPrice, currency: string, locale: string): string {
  const amount = unitAmountIn(price, currency);
  return amount === null
    ? `${formatAmount(price.unitAmount, price.currency, locale)} per ${price.interval}`
    : `${formatAmount(amount, currency, locale)} per ${price.interval}`;
}

const date = (unix: number | null | undefined) =>
  unix ? new Date(unix * 1000).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '—';

/**
 * The hosted checkout stand-in, in the session's `locale` (the browser's language for 'auto' or
 * none) with amounts in the browser's locale when it speaks that language.
 */
export function checkoutPage(input: {
  session: CheckoutSessionObject;
  price: LocalPrice;
  quantity: number;
  trialPeriodDays: number | null;
  email: string | null;
  /** Where "continue" goes on a completed session. */
  successUrl: string;
  /** The browser's locale (pageLocale of its Accept-Language). */
  locale: string;
}): string {
  const { session, price, trialPeriodDays } = input;
  const { texts: t, amountLocale: locale } = checkoutLanguage(session.locale, input.locale);
  const currency = String(session.currency);
  const unitAmount = unitAmountIn(price, currency) ?? price.unitAmount;
  if (session.status === 'complete') {
    return layout(
      t.completeTitle,
      `<div class="card"><h1>${escapeHtml(t.completeTitle)}</h1>
<p>${escapeHtml(t.completeText(price.name))}</p>
<p><a href="${escapeHtml(input.successUrl)}">${escapeHtml(t.continueLink)}</a></p></div>`,
      t,
    );
  }
  if (session.status === 'expired') {
    return layout(
      t.expiredTitle,
      `<div class="card"><h1>${escapeHtml(t.expiredTitle)}</h1><p>${escapeHtml(t.expiredText)}</p>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">${escapeHtml(t.backLink)}</a></p>` : ''}</div>`,
      t,
    );
  }
  const trialAmount = formatAmount(unitAmount, unitAmountIn(price, currency) === null ? price.currency : currency, locale);
  const trial = trialPeriodDays
    ? `<div class="trial">${escapeHtml(t.freeTrial(trialPeriodDays))}</div>
<p class="muted">${escapeHtml(t.thenNothingDue(t.perInterval(trialAmount, price.interval)))}</p>`
    : '';
  return layout(
    t.subscribeTo(price.name),
    `<div class="card">
<p class="muted">AgentDesk</p>
<h1>${escapeHtml(t.subscribeTo(price.name))}</h1>
<div class="price" data-currency="${escapeHtml(currency)}">${escapeHtml(formatAmount(unitAmount, currency, locale))}<span class="muted"> ${escapeHtml(t.intervalUnit(price.interval))}</span></div>
${trial}
${input.quantity > 1 ? `<p>${escapeHtml(t.quantity(input.quantity))}</p>` : ''}
${input.email ? `<p class="muted">${escapeHtml(t.billedTo(input.email))}</p>` : ''}
</div>
<div class="card">
<form method="post" action="/checkout/${escapeHtml(session.id)}/pay">
<button type="submit" class="pay">${escapeHtml(t.pay)}</button>
</form>
${session.cancel_url ? `<p style="text-align:center"><a href="${escapeHtml(session.cancel_url)}">${escapeHtml(t.cancel)}</a></p>` : ''}
</div>`,
    t,
  );
}

const STATUS_LABEL: Record<string, string> = {
  trialing: 'Trial',
  active: 'Active',
  past_due: 'Past due (payment failed)',
  unpaid: 'Unpaid',
  canceled: 'Canceled',
  incomplete: 'Incomplete',
};

export function portalPage(input: {
  session: PortalSessionObject;
  email: string | null;
  subscriptions: SubscriptionObject[];
  prices: LocalPrice[];
  message?: string;
  locale: string;
}): string {
  const { session, locale } = input;
  const base = `/portal/${escapeHtml(session.id)}/subscriptions`;
  const action = (sub: SubscriptionObject, name: string, label: string, cls = 'secondary', extra = '') =>
    `<form method="post" action="${base}/${escapeHtml(sub.id)}/${name}">${extra}<button type="submit" class="${cls}">${escapeHtml(label)}</button></form>`;

  const cards = input.subscriptions.map((sub) => {
    const item = sub.items.data[0];
    const price = input.prices.find((p) => p.id === item?.price.id);
    const planName = price?.name ?? item?.price.id ?? 'Unknown plan';
    const live = sub.status !== 'canceled';
    const rows = [
      ['Status', STATUS_LABEL[sub.status] ?? sub.status],
      ['Price', price ? perInterval(price, String(sub.currency), locale) : '—'],
      ...(sub.status === 'trialing' ? [['Trial ends', date(sub.trial_end)]] : []),
      ...(live ? [[sub.cancel_at_period_end ? 'Cancels on' : 'Current period ends', date(item?.current_period_end)]] : []),
      ...(!live ? [['Canceled on', date(sub.ended_at ?? sub.canceled_at)]] : []),
    ];
    const switches = live
      ? input.prices
          // A subscription keeps its currency: only prices with an option in it can replace its price.
          .filter((p) => p.id !== price?.id && unitAmountIn(p, String(sub.currency)) !== null)
          .map((p) =>
            action(sub, 'switch', `Switch to ${p.name} (${perInterval(p, String(sub.currency), locale)})`, 'secondary', `<input type="hidden" name="price" value="${escapeHtml(p.id)}">`),
          )
          .join('\n')
      : '';
    const actions = live
      ? `<div class="actions">${switches}</div>
<div class="actions">
${sub.cancel_at_period_end ? action(sub, 'resume', 'Resume subscription', '') : action(sub, 'cancel-at-period-end', 'Cancel at period end')}
${action(sub, 'cancel-now', 'Cancel now', 'danger')}
</div>
<p class="muted" style="margin-top:16px">Simulations</p>
<div class="actions">
${action(sub, 'pay-failed', 'Simulate failed payment')}
${action(sub, 'renew', 'Simulate successful renewal')}
</div>`
      : '';
    return `<div class="card" data-subscription="${escapeHtml(sub.id)}">
<h1>${escapeHtml(planName)}</h1>
${rows.map(([k, v]) => `<div class="row"><span class="muted">${escapeHtml(k)}</span><span>${escapeHtml(v)}</span></div>`).join('\n')}
${actions}
</div>`;
  });

  return layout(
    'Manage your subscription',
    `${input.message ? `<div class="notice" role="alert">${escapeHtml(input.message)}</div>` : ''}
<div class="card">
<h1>Manage your subscription</h1>
<p class="muted">AgentDesk billing${input.email ? ` for ${escapeHtml(input.email)}` : ''}</p>
${session.return_url ? `<p><a href="${escapeHtml(session.return_url)}">Return to AgentDesk</a></p>` : ''}
</div>
${cards.length > 0 ? cards.join('\n') : '<div class="card"><p>No subscription yet.</p></div>'}`,
  );
}

export function messagePage(title: string, text: string): string {
  return layout(title, `<div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></div>`);
}
