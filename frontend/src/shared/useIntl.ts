import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney, formatNumber, formatPercent, type DateInput, type DateStyle } from './intl';

/** The shared Intl formatters bound to the UI language (re-rendered when it changes). */
export function useIntl() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(
    () => ({
      language,
      date: (value: DateInput, style?: DateStyle, timeZone?: string) => formatDate(language, value, style, timeZone),
      number: (value: number, options?: Intl.NumberFormatOptions) => formatNumber(language, value, options),
      percent: (fraction: number) => formatPercent(language, fraction),
      money: (amount: number, currency: string) => formatMoney(language, amount, currency),
    }),
    [language],
  );
}
