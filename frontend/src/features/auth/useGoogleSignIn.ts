import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useAuth } from '../../shared/session';
import { useToast } from '../../shared/useToast';
import { errorMessage } from '../../i18n';

/** Sends Google's credential to /api/google-auth and stores the session; the guard navigates on. */
export function useGoogleSignIn() {
  const { t } = useTranslation();
  const { signIn } = useAuth();
  const toast = useToast();
  return useCallback(
    async (credential: string | undefined) => {
      if (!credential) {
        toast.error(t('errors.googleUnexpected'));
        return;
      }
      try {
        signIn(await authApi.googleAuth(credential));
      } catch (err) {
        toast.error(err instanceof ApiError ? errorMessage(err, t('errors.googleLoginFailed')) : t('errors.googleUnexpected'));
      }
    },
    [signIn, t, toast],
  );
}
