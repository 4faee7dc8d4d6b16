import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { authApi } from '../api/auth';
import { errorMessage, LANGUAGES, setLanguage, type AppLanguage } from '../i18n';
import { useAuth } from './session';
import { useToast } from './useToast';

/**
 * The language choice on the sign-in pages and onboarding. A native select: the phone's own picker
 * on mobile, and no menu components in the login route's first download. A visitor's choice is
 * the language their account starts with; a signed-in person's is saved to their account (issue
 * 29: an explicit choice wins on every device), like the profile setting.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const { user, refetchUser } = useAuth();
  const toast = useToast();
  const current = (LANGUAGES as readonly string[]).includes(i18n.language) ? i18n.language : 'en';

  const choose = async (lng: AppLanguage) => {
    setLanguage(lng);
    if (!user || user.language === lng) return;
    try {
      // The settings call takes the whole profile: send it as it is, with the new language.
      await authApi.updateSettings({ name: user.name, phoneNumber: user.phoneNumber, language: lng, timeZone: user.timeZone, country: user.country });
      await refetchUser();
    } catch (err) {
      toast.error(errorMessage(err, i18n.getFixedT(lng)('errors.updateProfileFailed')));
    }
  };

  return (
    <TextField
      select
      size="small"
      fullWidth={false}
      value={current}
      onChange={(e) => void choose(e.target.value as AppLanguage)}
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
