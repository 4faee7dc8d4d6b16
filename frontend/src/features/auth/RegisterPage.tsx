/**
 * /register (SPEC §2, §5): name, e-mail with Send Code, verification code (10 characters,
 * valid 60 minutes), password, confirm, terms checkbox, Google sign-in. Success → / (or the
 * invitation that sent the person here, with its e-mail locked).
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { email as emailSchema, messages, registerForm, VERIFICATION_CODE_LENGTH } from '@agentdesk/functions/contract';
import { authApi } from '../../api/auth';
import { useAuth } from '../../shared/session';
import { fieldProps } from '../../shared/forms';
import { useToast } from '../../shared/useToast';
import { errorMessage, translateMessage } from '../../i18n';
import { AuthLayout } from '../../shared/AuthLayout';
import { GoogleSignInButton } from './GoogleSignInButton';
import { useGoogleSignIn } from './useGoogleSignIn';
import { passwordRuleHint } from '../../shared/passwordRule';

export default function RegisterPage() {
  const { t } = useTranslation();
  const { signIn } = useAuth();
  const toast = useToast();
  const onGoogle = useGoogleSignIn();
  const [sendingCode, setSendingCode] = useState(false);
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  // An invitation (issue 32) signs up its own e-mail: prefilled and locked, and back to the invitation after.
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const invitedEmail = params.get('email') ?? '';
  const loginUrl = params.has('redirectUrl') ? `/login${search}` : '/login';

  const {
    register,
    control,
    handleSubmit,
    getValues,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(registerForm),
    defaultValues: { name: '', email: invitedEmail, verificationCode: '', password: '', confirmPassword: '', acceptTerms: false },
  });

  const onSendCode = async () => {
    const raw = getValues('email').trim();
    if (!raw) {
      setError('email', { type: 'manual', message: messages.emailFirst });
      return;
    }
    const parsed = emailSchema.safeParse(raw);
    if (!parsed.success) {
      setError('email', { type: 'manual', message: parsed.error.issues[0]?.message ?? messages.emailInvalid });
      return;
    }
    clearErrors('email');
    setSendingCode(true);
    try {
      await authApi.sendVerification(parsed.data);
      setCodeSentTo(parsed.data);
      toast.success(t('auth.codeSent'));
    } catch (err) {
      toast.error(errorMessage(err, t('errors.sendCodeFailed')));
    } finally {
      setSendingCode(false);
    }
  };

  // On success the visitor guard sends the new user to / (onboarding until a plan is active).
  const onSubmit = handleSubmit(async ({ name, email, password, verificationCode }) => {
    try {
      signIn(await authApi.register({ name, email, password, verificationCode }));
    } catch (err) {
      toast.error(errorMessage(err, t('errors.registrationFailed')));
    }
  });

  return (
    <AuthLayout title={t('auth.register.title')} subtitle={t('auth.register.subtitle')}>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          <TextField label={t('auth.register.name')} autoComplete="name" autoFocus {...register('name')} {...fieldProps(errors.name)} />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              label={t('auth.register.email')}
              type="email"
              autoComplete="email"
              {...register('email')}
              {...fieldProps(errors.email)}
              slotProps={{ htmlInput: { readOnly: Boolean(invitedEmail) } }}
            />
            <Button
              variant="outlined"
              onClick={onSendCode}
              disabled={sendingCode}
              sx={{ flexShrink: 0, height: 56, minWidth: 120 }}
            >
              {sendingCode ? t('auth.register.sendingCode') : t('auth.register.sendCode')}
            </Button>
          </Stack>
          {codeSentTo && (
            <Alert severity="info" role="status" data-testid="code-sent-note">
              {t('auth.register.codeExpires', { email: codeSentTo })}
            </Alert>
          )}
          <TextField
            label={t('auth.register.code')}
            placeholder={t('auth.register.codePlaceholder')}
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { maxLength: VERIFICATION_CODE_LENGTH, spellCheck: false, style: { letterSpacing: 2 } } }}
            {...register('verificationCode')}
            {...fieldProps(errors.verificationCode)}
          />
          <TextField
            label={t('auth.register.password')}
            type="password"
            autoComplete="new-password"
            {...register('password')}
            {...fieldProps(errors.password, passwordRuleHint(t))}
          />
          <TextField
            label={t('auth.register.confirmPassword')}
            type="password"
            autoComplete="new-password"
            {...register('confirmPassword')}
            {...fieldProps(errors.confirmPassword)}
          />
          <FormControl error={Boolean(errors.acceptTerms)}>
            <Controller
              name="acceptTerms"
              control={control}
              render={({ field }) => (
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={field.value}
                      onChange={(e) => field.onChange(e.target.checked)}
                      onBlur={field.onBlur}
                      inputRef={field.ref}
                      slotProps={{ input: { 'aria-describedby': errors.acceptTerms ? 'terms-error' : undefined } }}
                    />
                  }
                  label={
                    <Typography variant="body2">
                      {t('auth.register.termsPrefix')}{' '}
                      <Link href="/terms" target="_blank" rel="noopener">
                        {t('auth.register.terms')}
                      </Link>{' '}
                      {t('auth.register.and')}{' '}
                      <Link href="/privacy" target="_blank" rel="noopener">
                        {t('auth.register.privacy')}
                      </Link>
                    </Typography>
                  }
                />
              )}
            />
            {errors.acceptTerms?.message && (
              <FormHelperText id="terms-error">{translateMessage(errors.acceptTerms.message)}</FormHelperText>
            )}
          </FormControl>
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
            {isSubmitting ? t('auth.register.submitting') : t('auth.register.submit')}
          </Button>
        </Stack>
      </Box>
      <GoogleSignInButton onCredential={onGoogle} text="signup_with" />
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
        {t('auth.register.haveAccount')}{' '}
        <Link component={RouterLink} to={loginUrl}>
          {t('auth.register.login')}
        </Link>
      </Typography>
    </AuthLayout>
  );
}
