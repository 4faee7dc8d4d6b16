import { useMemo } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { messages, roleAtLeast, settingsForm, startingTimeZone, zoneInCountry, type User } from '@agentdesk/functions/contract';
import { authApi, browserTimeZone } from '../../api/auth';
import { ApiError } from '../../api/client';
import { dashboardKeys } from '../../api/dashboard';
import { useAuth } from '../../shared/session';
import { fieldProps as fieldState, selectProps } from '../../shared/forms';
import { useToast } from '../../shared/useToast';
import i18n, { errorMessage, LANGUAGES, setLanguage } from '../../i18n';
import { ProfileCard, ProfileForm } from './ProfileCard';
import { countryOptions, dialCodeOf, flagOf } from '../../shared/phoneCountry';
import { timeZoneOptions } from '../../shared/intl';
import { usePhoneFieldProps } from '../../shared/usePhoneFieldProps';
import { useMemberRole } from '../../shared/memberRole';

/**
 * Name, phone, language and the time zone of the dashboard's days (beyond the spec; IANA, 'UTC'
 * until set); success 'Profile updated successfully!', then the user is refetched.
 */
export function SettingsTab({ user }: { user: User }) {
  const { t, i18n: i18nInstance } = useTranslation();
  const toast = useToast();
  const countries = useMemo(() => countryOptions(i18nInstance.language), [i18nInstance.language]);
  const countryLabel = useMemo(() => new Map(countries.map((o) => [o.code, o.label])), [countries]);
  const { refetchUser } = useAuth();
  // Issue 32: the country and time zone are the account's, set by an admin or the owner; an agent sees them.
  const setsBusiness = roleAtLeast(useMemberRole(), 'admin');
  const queryClient = useQueryClient();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
    reset,
    setError,
    watch,
    getValues,
    setValue,
  } = useForm({
    resolver: zodResolver(settingsForm),
    defaultValues: { name: user.name, phoneNumber: user.phoneNumber ?? '', language: user.language === 'es' ? 'es' : 'en', timeZone: user.timeZone || 'UTC', country: user.country || 'US' },
  });

  const chosenZone = watch('timeZone');
  const zoneOptions = useMemo(() => timeZoneOptions(chosenZone || 'UTC'), [chosenZone]);

  // The phone is read in the country being chosen (issue 19), so its adornment follows the choice.
  const phone = usePhoneFieldProps(watch('country'));

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = (await authApi.updateSettings(values)).data;
      // Switch first, and say it in the new language (this render's `t` still has the old one).
      setLanguage(values.language);
      toast.success(i18n.getFixedT(values.language)('profile.settings.success'));
      // The server stores the phone in E.164 ("600 111 333" → +34600111333): show what was saved.
      reset({ ...values, phoneNumber: saved?.phoneNumber ?? values.phoneNumber });
      await refetchUser();
      // The dashboard's days follow the profile's time zone.
      await queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    } catch (err) {
      toast.error(errorMessage(err, t('errors.updateProfileFailed')));
      if (err instanceof ApiError && err.serverMessage?.startsWith(messages.phoneInvalid)) setError('phoneNumber', { message: err.serverMessage });
    }
  });

  return (
    <ProfileCard title={t('profile.settings.title')}>
      <ProfileForm
        onSubmit={onSubmit}
        submitting={isSubmitting}
        submitLabel={t('profile.settings.submit')}
        submittingLabel={t('profile.settings.submitting')}
      >
        <TextField label={t('profile.settings.name')} autoComplete="name" {...register('name')} {...fieldState(errors.name)} />
        <TextField label={t('profile.settings.email')} value={user.email} disabled helperText={t('profile.settings.emailHelp')} />
        <TextField
          label={t('profile.settings.phone')}
          placeholder={phone.placeholder}
          type="tel"
          autoComplete="tel"
          slotProps={{ input: { startAdornment: phone.startAdornment } }}
          {...register('phoneNumber')}
          {...fieldState(errors.phoneNumber, t('profile.settings.phoneHelp', { country: phone.countryName, dialCode: dialCodeOf(phone.country) }))}
        />
        <Controller
          name="language"
          control={control}
          render={({ field }) => (
            <TextField
              label={t('profile.settings.language')}
              {...selectProps(field)}
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
          name="country"
          control={control}
          render={({ field }) => (
            <Autocomplete
              options={countries.map((o) => o.code)}
              value={field.value ?? 'US'}
              getOptionLabel={(code) => countryLabel.get(code) ?? code}
              renderOption={(props, code) => {
                const { key, ...rest } = props;
                return (
                  <li key={key} {...rest}>
                    <span aria-hidden="true" style={{ marginRight: 8 }}>
                      {flagOf(code)}
                    </span>
                    {countryLabel.get(code) ?? code}
                  </li>
                );
              }}
              disableClearable
              autoHighlight
              disabled={!setsBusiness}
              onChange={(_, value) => {
                field.onChange(value);
                // The zone follows a new country unless it already lies there (issue 29): Madrid for Spain, never UTC.
                const zone = getValues('timeZone');
                if (!zone || zone === 'UTC' || !zoneInCountry(zone, value)) {
                  const next = startingTimeZone(value, browserTimeZone());
                  if (next) setValue('timeZone', next, { shouldDirty: true });
                }
              }}
              onBlur={field.onBlur}
              renderInput={(params) => (
                <TextField
                  {...params}
                  inputRef={field.ref}
                  label={t('profile.settings.country')}
                  {...fieldState(errors.country, setsBusiness ? t('profile.settings.countryHelp') : t('profile.settings.accountSetting'))}
                />
              )}
            />
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
              disabled={!setsBusiness}
              onChange={(_, value) => field.onChange(value)}
              onBlur={field.onBlur}
              renderInput={(params) => (
                <TextField
                  {...params}
                  inputRef={field.ref}
                  label={t('profile.settings.timeZone')}
                  {...fieldState(errors.timeZone, setsBusiness ? t('profile.settings.timeZoneHelp') : t('profile.settings.accountSetting'))}
                />
              )}
            />
          )}
        />
      </ProfileForm>
    </ProfileCard>
  );
}
