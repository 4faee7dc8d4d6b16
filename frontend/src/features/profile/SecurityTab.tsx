import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { changePasswordForm, type User } from '@agentdesk/functions/contract';
import { authApi, storeSession } from '../../api/auth';
import { fieldProps as fieldState } from '../../shared/forms';
import { useToast } from '../../shared/useToast';
import { errorMessage } from '../../i18n';
import { ProfileCard, ProfileForm } from './ProfileCard';
import { passwordRuleHint } from '../../shared/passwordRule';

/** Change password; success 'Password updated successfully!'. Google accounts have no password. */
export function SecurityTab({ user }: { user: User }) {
  const { t } = useTranslation();
  const toast = useToast();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(changePasswordForm),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      // The old tokens were revoked with the old password: keep this device signed in with the new ones.
      storeSession(await authApi.updatePassword({ currentPassword, newPassword }));
      toast.success(t('profile.security.success'));
      reset();
    } catch (err) {
      toast.error(errorMessage(err, t('errors.updatePasswordFailed')));
    }
  });

  return (
    <ProfileCard title={t('profile.security.title')}>
      {user.authProvider === 'google' ? (
        <Alert severity="info">{t('profile.security.google')}</Alert>
      ) : (
        <ProfileForm
          onSubmit={onSubmit}
          submitting={isSubmitting}
          submitLabel={t('profile.security.submit')}
          submittingLabel={t('profile.security.submitting')}
          // A hidden username helps password managers pair the change with the account.
          before={<input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />}
        >
          <TextField
            label={t('profile.security.current')}
            type="password"
            autoComplete="current-password"
            {...register('currentPassword')}
            {...fieldState(errors.currentPassword)}
          />
          <TextField
            label={t('profile.security.new')}
            type="password"
            autoComplete="new-password"
            {...register('newPassword')}
            {...fieldState(errors.newPassword, passwordRuleHint(t))}
          />
          <TextField
            label={t('profile.security.confirm')}
            type="password"
            autoComplete="new-password"
            {...register('confirmPassword')}
            {...fieldState(errors.confirmPassword)}
          />
        </ProfileForm>
      )}
    </ProfileCard>
  );
}
