/**
 * Profile → Business location (issue 31): the location the agent sends on WhatsApp (its
 * send_location tool). Name, address, and the coordinates typed ("40.4168, -3.7038") or a Google
 * Maps link pasted — the server finds the coordinates in it. Once saved, a link checks the pin on
 * the map, and Clear removes it.
 */
import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { BUSINESS_LOCATION_LIMITS, businessLocationRequest, mediaMessages, type BusinessLocation } from '@agentdesk/functions/contract';
import { ApiError } from '../../api/client';
import { mapsLinkOf, useBusinessLocation, useClearBusinessLocation, useSaveBusinessLocation } from '../../api/businessLocation';
import { fieldProps } from '../../shared/forms';
import { RetryAlert } from '../../shared/RetryAlert';
import { useToast } from '../../shared/useToast';
import { errorMessage } from '../../i18n';
import { ProfileCard, ProfileForm } from './ProfileCard';

interface Values {
  name: string;
  address: string;
  coordinates: string;
}

const valuesOf = (location: BusinessLocation | null | undefined): Values =>
  location ? { name: location.name, address: location.address, coordinates: `${location.latitude}, ${location.longitude}` } : { name: '', address: '', coordinates: '' };

export function BusinessLocationCard() {
  const { t } = useTranslation();
  const toast = useToast();
  const location = useBusinessLocation();
  const save = useSaveBusinessLocation();
  const clear = useClearBusinessLocation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(businessLocationRequest), defaultValues: valuesOf(null) });

  // Opened from the agent's WhatsApp tools card (#business-location): brought into view.
  const { hash } = useLocation();
  const ready = !location.isPending;
  useEffect(() => {
    if (ready && hash === '#business-location') document.getElementById('business-location')?.scrollIntoView({ block: 'start' });
  }, [ready, hash]);

  // The stored location fills the form once it is read (and after a save or clear).
  useEffect(() => {
    if (location.data !== undefined) reset(valuesOf(location.data));
  }, [location.data, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      toast.success(t('profile.businessLocation.saved'));
    } catch (err) {
      if (err instanceof ApiError && err.serverMessage === mediaMessages.locationCoordinatesInvalid) {
        setError('coordinates', { message: err.serverMessage });
      } else {
        toast.error(errorMessage(err, t('profile.businessLocation.saveFailed')));
      }
    }
  });

  const onClear = async () => {
    try {
      await clear.mutateAsync();
      toast.success(t('profile.businessLocation.cleared'));
    } catch (err) {
      toast.error(errorMessage(err, t('profile.businessLocation.clearFailed')));
    }
  };

  const saved = location.data;

  return (
    <Box id="business-location" sx={{ scrollMarginTop: 80 }}>
      <ProfileCard title={t('profile.businessLocation.title')} titleGap={1}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: 520 }}>
          {t('profile.businessLocation.intro')}
        </Typography>
        {location.isPending ? (
          <Stack spacing={2} sx={{ maxWidth: 520 }} aria-busy="true" aria-label={t('profile.businessLocation.loading')}>
            <Skeleton variant="rounded" height={56} />
            <Skeleton variant="rounded" height={56} />
            <Skeleton variant="rounded" height={56} />
          </Stack>
        ) : location.isError ? (
          <RetryAlert retryLabel={t('profile.businessLocation.retry')} onRetry={() => void location.refetch()}>
            {errorMessage(location.error, t('profile.businessLocation.loadFailed'))}
          </RetryAlert>
        ) : (
          <>
            {saved ? (
              <Alert severity="success" icon={<PlaceOutlined />} sx={{ mb: 2, maxWidth: 520 }} data-testid="business-location-saved">
                <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: 'break-word' }}>
                  {saved.name}
                </Typography>
                <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                  {saved.address}
                </Typography>
                <Link href={mapsLinkOf(saved)} target="_blank" rel="noopener noreferrer" variant="body2">
                  {t('profile.businessLocation.checkOnMap')}
                </Link>
              </Alert>
            ) : (
              <Alert severity="info" sx={{ mb: 2, maxWidth: 520 }}>
                {t('profile.businessLocation.none')}
              </Alert>
            )}
            <ProfileForm
              onSubmit={onSubmit}
              submitting={isSubmitting}
              submitLabel={t('profile.businessLocation.submit')}
              submittingLabel={t('profile.businessLocation.submitting')}
            >
              <TextField
                label={t('profile.businessLocation.name')}
                autoComplete="organization"
                {...register('name')}
                {...fieldProps(errors.name)}
                slotProps={{ htmlInput: { maxLength: BUSINESS_LOCATION_LIMITS.name } }}
              />
              <TextField
                label={t('profile.businessLocation.address')}
                autoComplete="street-address"
                multiline
                minRows={2}
                {...register('address')}
                {...fieldProps(errors.address)}
                slotProps={{ htmlInput: { maxLength: BUSINESS_LOCATION_LIMITS.address } }}
              />
              <TextField
                label={t('profile.businessLocation.coordinates')}
                placeholder="40.4168, -3.7038"
                {...register('coordinates')}
                {...fieldProps(errors.coordinates, t('profile.businessLocation.coordinatesHelp'))}
                slotProps={{ htmlInput: { maxLength: BUSINESS_LOCATION_LIMITS.coordinates } }}
              />
            </ProfileForm>
            {saved && (
              <Button color="error" variant="text" onClick={() => void onClear()} disabled={clear.isPending} sx={{ mt: 1 }}>
                {t('profile.businessLocation.clear')}
              </Button>
            )}
          </>
        )}
      </ProfileCard>
    </Box>
  );
}
