import { useMemo } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { settingsForm, type User } from '@agentdesk/functions/contract';
import { authApi } from '../../api/auth';
import { dashboardKeys } from '../../api/dashboard';
import { useAuth } from '../../shared/session';
import { fieldProps as fieldState } from '../../shared/forms';
import { useToast } from '../../shared/useToast';
import { errorMessage, LANGUAGES, setLanguage } from '../../i18n';

/** Every IANA zone the browser knows, UTC first (some engines leave it out of the list). */
function timeZoneOptions(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    // An engine without the list still offers UTC and the current zone.
  }
  return [...new Set(['UTC', current, ...zones])];
}

/**
 * Name, phone, language and the time zone of the dashboard's days (beyond the spec; IANA, 'UTC'
 * until set); success 'Profile updated successfully!', then the user is refetched.
 */
export function SettingsTab({ user }: { user: User }) {
  const { t } = useTranslation();
  const toast = useToast();
  const { refetchUser } = useAuth();
  const queryClient = useQueryClient();
  const zoneOptions = useMemo(() => timeZoneOptions(user.timeZone || 'UTC'), [user.timeZone]);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
    reset,
  } = useForm({
    resolver: zodResolver(settingsForm),
    defaultValues: { name: user.name, phoneNumber: user.phoneNumber ?? '', language: user.language === 'es' ? 'es' : 'en', timeZone: user.timeZone || 'UTC' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await authApi.updateSettings(values);
      toast.success(t('profile.settings.success'));
      reset(values);
      setLanguage(values.language);
      await refetchUser();
      // The dashboard's days follow the profile's time zone.
      await queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    } catch (err) {
      toast.error(errorMessage(err, t('errors.updateProfileFailed')));
    }
  });

  return (
    <Card>
      <CardContent sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('profile.settings.title')}
        </Typography>
        <Box component="form" noValidate onSubmit={onSubmit}>
          <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
            <TextField label={t('profile.settings.name')} autoComplete="name" {...register('name')} {...fieldState(errors.name)} />
            <TextField label={t('profile.settings.email')} value={user.email} disabled helperText={t('profile.settings.emailHelp')} />
            <TextField
              label={t('profile.settings.phone')}
              placeholder={t('profile.settings.phonePlaceholder')}
              type="tel"
              autoComplete="tel"
              {...register('phoneNumber')}
              {...fieldState(errors.phoneNumber)}
            />
            <Controller
              name="language"
              control={control}
              render={({ field }) => (
                <TextField
                  select
                  label={t('profile.settings.language')}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  {...fieldState(errors.language)}
                >
                  {LANGUAGES.map((lng) => (
                    <MenuItem key={lng} value={lng}>
                      {t(`common.languages.${lng}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Controller
              name="timeZone"
              control={control}
              render={({ field }) => (
                <Autocomplete
                  options={zoneOptions}
                  value={field.value ?? 'UTC'}
                  disableClearable
                  autoHighlight
                  onChange={(_, value) => field.onChange(value)}
                  onBlur={field.onBlur}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      inputRef={field.ref}
                      label={t('profile.settings.timeZone')}
                      {...fieldState(errors.timeZone, t('profile.settings.timeZoneHelp'))}
                    />
                  )}
                />
              )}
            />
            <Box>
              <Button type="submit" variant="contained" disabled={isSubmitting}>
                {isSubmitting ? t('profile.settings.submitting') : t('profile.settings.submit')}
              </Button>
            </Box>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}
