/** /login (SPEC §2): e-mail and password, Google sign-in, redirectUrl, a message from navigation state. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { loginForm } from '@agentdesk/functions/contract';
import { authApi } from '../../api/auth';
import { useAuth } from '../../shared/session';
import { fieldProps } from '../../shared/forms';
import { useToast } from '../../shared/useToast';
import { errorMessage } from '../../i18n';
import { AuthLayout } from '../../shared/AuthLayout';
import { GoogleSignInButton } from './GoogleSignInButton';
import { useGoogleSignIn } from './useGoogleSignIn';

/** Navigation state other pages may pass to /login. */
export interface LoginLocationState {
  /** i18n key of a success message, e.g. 'auth.reset.success'. */
  successKey?: string;
  /** Or a ready text. */
  message?: string;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const { signIn } = useAuth();
  const toast = useToast();
  const location = useLocation();
  const onGoogle = useGoogleSignIn();
  const state = (location.state ?? {}) as LoginLocationState;
  const notice = state.successKey ? t(state.successKey) : state.message;
  // An invitation's link (issue 32) sends the invitee here with their e-mail and back to it after.
  const params = new URLSearchParams(location.search);
  const invitedEmail = params.get('email') ?? '';
  const registerUrl = params.has('redirectUrl') ? `/register${location.search}` : '/register';

  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(loginForm), defaultValues: { email: invitedEmail, password: '' } });

  // On success the visitor guard sends the user to the sanitised redirectUrl (default /).
  const onSubmit = handleSubmit(async (values) => {
    try {
      signIn(await authApi.login(values));
    } catch (err) {
      toast.error(errorMessage(err, t('errors.loginFailed')));
    }
  });

  return (
    <AuthLayout title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      {notice && (
        <Alert severity="success" sx={{ mb: 2 }} role="status">
          {notice}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          <TextField
            label={t('auth.login.email')}
            type="email"
            autoComplete="email"
            autoFocus={!invitedEmail}
            {...register('email')}
            {...fieldProps(errors.email)}
          />
          <TextField
            label={t('auth.login.password')}
            type="password"
            autoComplete="current-password"
            autoFocus={Boolean(invitedEmail)}
            {...register('password')}
            {...fieldProps(errors.password)}
          />
          <Box sx={{ textAlign: 'right' }}>
            <Link component={RouterLink} to="/forgot-password" variant="body2">
              {t('auth.login.forgot')}
            </Link>
          </Box>
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
            {isSubmitting ? t('auth.login.submitting') : t('auth.login.submit')}
          </Button>
        </Stack>
      </Box>
      <GoogleSignInButton onCredential={onGoogle} text="signin_with" />
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
        {t('auth.login.noAccount')}{' '}
        <Link component={RouterLink} to={registerUrl}>
          {t('auth.login.register')}
        </Link>
      </Typography>
    </AuthLayout>
  );
}
