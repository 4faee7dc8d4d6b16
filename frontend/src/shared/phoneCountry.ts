/**
 * The account's country in phone inputs (issue 19): a number typed without a prefix is read in
 * the profile's country, so every phone input shows that country ("🇪🇸 +34") and an example of how
 * a number is typed there. The examples table (~12 KB) is imported only by screens with a phone
 * input, never by the login/sign-up chunk.
 */
import { PHONE_COUNTRIES } from '@agentdesk/functions/contract';
import { PHONE_EXAMPLES } from '@agentdesk/functions/contract/phone-examples';

/** Spanish-speaking countries: listed first in the country choice (the first customers are there). */
export const SPANISH_SPEAKING = ['ES', 'MX', 'AR', 'CO', 'CL', 'PE', 'VE', 'EC', 'GT', 'CU', 'BO', 'DO', 'HN', 'PY', 'SV', 'NI', 'CR', 'PA', 'UY', 'PR', 'GQ'];

/** The flag emoji of an ISO country code (regional indicator letters); '' for anything else. */
export function flagOf(country: string): string {
  if (!/^[A-Z]{2}$/.test(country)) return '';
  return String.fromCodePoint(...[...country].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** "+34" for ES; '' when unknown. */
export const dialCodeOf = (country: string) => {
  const code = PHONE_EXAMPLES[country]?.[0];
  return code ? `+${code}` : '';
};

/** The country's name in the UI language (Intl.DisplayNames), the code when the engine has none. */
export function countryName(country: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(country) ?? country;
  } catch {
    return country;
  }
}

/** Every country a profile may choose: Spanish-speaking ones first, each group by its name in the UI language. */
export function countryOptions(language: string): { code: string; label: string }[] {
  const collator = new Intl.Collator(language);
  const named = PHONE_COUNTRIES.map((code) => ({ code, label: `${countryName(code, language)} (${dialCodeOf(code)})` }));
  const byName = (a: { label: string }, b: { label: string }) => collator.compare(a.label, b.label);
  const spanish = new Set(SPANISH_SPEAKING);
  return [...named.filter((o) => spanish.has(o.code)).sort(byName), ...named.filter((o) => !spanish.has(o.code)).sort(byName)];
}

/** What a phone input shows for `country`: the adornment text ("🇪🇸 +34") and an example placeholder. */
export function phoneHint(country: string): { prefix: string; example: string; international: string } {
  const row = PHONE_EXAMPLES[country];
  return { prefix: `${flagOf(country)} ${country} ${dialCodeOf(country)}`.trim(), example: row?.[1] ?? '', international: row?.[2] ?? '' };
}
