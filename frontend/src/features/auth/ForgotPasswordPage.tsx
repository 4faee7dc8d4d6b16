/** /forgot-password (SPEC §2): e-mail form that sends a reset code; links to /login and /reset-password. */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { forgotPasswordForm } from '@agentdesk/functions/contract';
import { authApi } from '../../api/auth';
import { fieldProps } from '../../shared/forms';
import { useToast } from '../../shared/useToast';
import { errorMessage, translateMessage } from '../../i18n';
import { AuthLayout } from '../../shared/AuthLayout';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(forgotPasswordForm), defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      const res = await authApi.sendPasswordReset(email);
      setSent({ email, message: res.message ? translateMessage(res.message) : '' });
    } catch (err) {
      toast.error(errorMessage(err, t('errors.unexpected')));
    }
  });

  const resetLink = sent ? `/reset-password?email=${encodeURIComponent(sent.email)}` : '/reset-password';

  return (
    <AuthLayout title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')}>
      {sent?.message && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {sent.message}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          <TextField label={t('auth.forgot.email')} type="email" autoComplete="email" autoFocus {...register('email')} {...fieldProps(errors.email)} />
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
            {isSubmitting ? t('auth.forgot.submitting') : t('auth.forgot.submit')}
          </Button>
        </Stack>
      </Box>
      <Stack spacing={1} sx={{ mt: 3, alignItems: 'center' }}>
        <Typography variant="body2">
          {t('auth.forgot.haveCode')}{' '}
          <Link component={RouterLink} to={resetLink}>
            {t('auth.forgot.reset')}
          </Link>
        </Typography>
        <Link component={RouterLink} to="/login" variant="body2">
          {t('auth.forgot.back')}
        </Link>
      </Stack>
    </AuthLayout>
  );
}
