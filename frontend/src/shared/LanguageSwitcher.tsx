import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type AppLanguage } from '../i18n';

/** Language choice for visitors (signed-in users use their profile setting). */
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
      slotProps={{ select: { SelectDisplayProps: { 'aria-label': t('common.language') } } }}
      sx={{ minWidth: 130 }}
    >
      {LANGUAGES.map((lng) => (
        <MenuItem key={lng} value={lng}>
          {t(`common.languages.${lng}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
