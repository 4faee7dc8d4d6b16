/**
 * /reset-password (SPEC §2, §5): e-mail, reset code (10 hexadecimal characters — the original's
 * "6-digit" placeholder was wrong), new password, confirm. Success → /login with a message.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { RESET_CODE_LENGTH, resetPasswordForm } from '@agentdesk/functions/contract';
import { authApi } from '../../api/auth';
import { fieldProps } from '../../shared/forms';
import { useToast } from '../../shared/useToast';
import { errorMessage } from '../../i18n';
import { AuthLayout } from '../../shared/AuthLayout';
import type { LoginLocationState } from './LoginPage';
import { passwordRuleHint } from '../../shared/passwordRule';

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(resetPasswordForm),
    defaultValues: { email: params.get('email') ?? '', resetCode: '', newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ email, resetCode, newPassword }) => {
    try {
      await authApi.resetPassword({ email, resetCode, newPassword });
      const state: LoginLocationState = { successKey: 'auth.reset.success' };
      navigate('/login', { replace: true, state });
    } catch (err) {
      toast.error(errorMessage(err, t('errors.unexpected')));
    }
  });

  return (
    <AuthLayout title={t('auth.reset.title')} subtitle={t('auth.reset.subtitle')}>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          <TextField label={t('auth.reset.email')} type="email" autoComplete="email" {...register('email')} {...fieldProps(errors.email)} />
          <TextField
            label={t('auth.reset.code')}
            placeholder={t('auth.reset.codePlaceholder')}
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { maxLength: RESET_CODE_LENGTH, spellCheck: false, style: { letterSpacing: 2 } } }}
            {...register('resetCode')}
            {...fieldProps(errors.resetCode, t('auth.reset.codeHelp'))}
          />
          <TextField
            label={t('auth.reset.newPassword')}
            type="password"
            autoComplete="new-password"
            {...register('newPassword')}
            {...fieldProps(errors.newPassword, passwordRuleHint(t))}
          />
          <TextField
            label={t('auth.reset.confirmPassword')}
            type="password"
            autoComplete="new-password"
            {...register('confirmPassword')}
            {...fieldProps(errors.confirmPassword)}
          />
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
            {isSubmitting ? t('auth.reset.submitting') : t('auth.reset.submit')}
          </Button>
        </Stack>
      </Box>
      <Stack spacing={1} sx={{ mt: 3, alignItems: 'center' }}>
        <Typography variant="body2">
          {t('auth.reset.needCode')}{' '}
          <Link component={RouterLink} to="/forgot-password">
            {t('auth.reset.sendCode')}
          </Link>
        </Typography>
        <Link component={RouterLink} to="/login" variant="body2">
          {t('auth.reset.back')}
        </Link>
      </Stack>
    </AuthLayout>
  );
}
