import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type AppLanguage } from '../i18n';

/**
 * Language choice for visitors (signed-in users use their profile setting). A native select: the
 * phone's own picker on mobile, and no menu components in the login route's first download.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = (LANGUAGES as readonly string[]).includes(i18n.language) ? i18n.language : 'en';
  return (
    <TextField
      select
      size="small"
      fullWidth={false}
      value={current}
      onChange={(e) => setLanguage(e.target.value as AppLanguage)}
      slotProps={{ select: { native: true }, htmlInput: { 'aria-label': t('common.language') } }}
      sx={{ minWidth: 130 }}
    >
      {LANGUAGES.map((lng) => (
        <option key={lng} value={lng}>
          {t(`common.languages.${lng}`)}
        </option>
      ))}
    </TextField>
  );
}
