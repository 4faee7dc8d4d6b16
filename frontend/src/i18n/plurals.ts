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
