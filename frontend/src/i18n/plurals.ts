import type { i18n as I18n } from 'i18next';

type SuffixOptions = { ordinal?: boolean };
interface PluralResolver {
  getSuffix(code: string, count: number, options?: SuffixOptions): string;
}

/**
 * CLDR gives Spanish a third cardinal form, 'many', for exact millions and the like ("1 millón de
 * llamadas"). i18next then asks for `key_many` and, the catalogues having only `_one`/`_other`,
 * falls back to the English text ("1,000,000 calls" in a Spanish account). The catalogues write
 * counts as digits ("1.000.000 llamadas"), which is the 'other' form: read 'many' as 'other'.
 */
export function readManyAsOther(instance: I18n): void {
  const resolver = instance.services.pluralResolver as PluralResolver;
  const getSuffix = resolver.getSuffix.bind(resolver);
  resolver.getSuffix = (code, count, options = {}) => {
    const suffix = getSuffix(code, count, options);
    return options.ordinal ? suffix : suffix.replace(/many$/, 'other');
  };
}

type Format = (value: unknown, format: string | undefined, lng: string | undefined, options?: { interpolationkey?: string }) => unknown;

/** The interpolated values that are quantities: counts and the limits and totals they are read against. */
const QUANTITIES = new Set(['count', 'max', 'total']);

/**
 * Every `{{count}}` (and `{{max}}`, `{{total}}`) formatted as a number in the UI language ("10.000
 * contactos", "10,000 contacts"), as `{{count, number}}` does, so no catalogue can forget it. Needs
 * the instance initialised with `interpolation.alwaysFormat: true` (i18next then asks the formatter
 * about every value; the others are returned as they are: a year or an id is not a quantity).
 */
export function formatCounts(instance: I18n): void {
  const interpolator = instance.services.interpolator as unknown as { format: Format; alwaysFormat: boolean };
  if (!interpolator.alwaysFormat) throw new Error('formatCounts needs interpolation.alwaysFormat');
  const format = interpolator.format.bind(interpolator);
  interpolator.format = (value, spec, lng, options) => {
    if (!spec && QUANTITIES.has(options?.interpolationkey ?? '') && typeof value === 'number') return format(value, 'number', lng, options);
    return spec ? format(value, spec, lng, options) : value;
  };
}
