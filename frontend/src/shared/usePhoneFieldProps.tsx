/** The account's country as a phone input shows it (issue 19): see phoneCountry.ts. */
import { useMemo } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import { useTranslation } from 'react-i18next';
import { countryName, dialCodeOf, phoneHint } from './phoneCountry';
import { useAuth } from './session';

/**
 * Props for a phone TextField in the account's country: the country as a start adornment
 * (aria-labelled with its name) and the example as the placeholder. `countryOverride`: a form
 * that edits the country itself (Profile › Settings) shows the one being chosen.
 */
export function usePhoneFieldProps(countryOverride?: string) {
  const { user } = useAuth();
  const { t, i18n } = useTranslation();
  const country = countryOverride || user?.country || 'US';
  return useMemo(() => {
    const hint = phoneHint(country);
    const name = countryName(country, i18n.language);
    return {
      country,
      countryName: name,
      placeholder: hint.example ? t('phone.placeholder', { example: hint.example }) : undefined,
      startAdornment: (
        // role img: an aria-label is allowed only on an element with a role (axe aria-prohibited-attr on a plain div).
        <InputAdornment position="start" role="img" aria-label={t('phone.countryLabel', { country: name })} title={name}>
          <span aria-hidden="true">{hint.prefix}</span>
        </InputAdornment>
      ),
      /** "Numbers without a prefix are read as Spain (+34)". */
      helperText: t('phone.countryHint', { country: name, dialCode: dialCodeOf(country) }),
    };
  }, [country, i18n.language, t]);
}
