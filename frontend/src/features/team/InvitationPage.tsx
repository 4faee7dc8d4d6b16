/**
 * /invite/:token (public, issue 32): the invitation's preview (who invited whom to which business,
 * the role, until when); a visitor creates their login or signs in with the invited e-mail and
 * comes back here; a signed-in person with that e-mail accepts, the session refreshes so the token
 * carries the account, and the inbox opens. Expired, cancelled, used or unknown links and another
 * signed-in e-mail each say what to do.
 */
import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { INVITATION_TOKEN_RE, type InvitationPreview } from '@agentdesk/functions/contract';
import { ApiError } from '../../api/client';
import { teamApi, teamKeys } from '../../api/team';
import { formatDate } from '../../shared/intl';
import { useAuth } from '../../shared/session';
import { useToast } from '../../shared/useToast';
import { AuthLayout } from '../../shared/AuthLayout';
import './i18n';
import { teamErrorText } from './messages';
import { useRefreshAccount } from './useRefreshAccount';
import { RetryAlert } from '../../shared/RetryAlert';

/** The auth page for this invitation: the e-mail prefilled, back here after. */
const authUrl = (page: 'login' | 'register', token: string, email: string) =>
  `/${page}?${new URLSearchParams({ email, redirectUrl: `/invite/${token}` }).toString()}`;

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export default function InvitationPage() {
  const { t, i18n } = useTranslation();
  const { token = '' } = useParams();
  const { access, user, signOut } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const refreshAccount = useRefreshAccount();
  const [failure, setFailure] = useState('');
  const wellFormed = INVITATION_TOKEN_RE.test(token);
  const preview = useQuery({
    queryKey: teamKeys.invitation(token),
    queryFn: ({ signal }) => teamApi.preview(token, signal),
    enabled: wellFormed,
    retry: false,
  });
  const accept = useMutation({ mutationFn: () => teamApi.accept(token) });

  const onAccept = async (invitation: InvitationPreview) => {
    setFailure('');
    try {
      await accept.mutateAsync();
    } catch (err) {
      setFailure(teamErrorText(err, t('team.invitation.acceptFailed')));
      return;
    }
    // The new access token carries the account and the role (JoinedAccount.refreshRequired).
    if (await refreshAccount()) {
      toast.success(t('team.invitation.joined', { account: invitation.accountName }));
      navigate('/conversations', { replace: true });
    }
  };

  let title = t('team.invitation.pageTitle');
  let body: ReactNode;
  if (!wellFormed || (preview.isError && preview.error instanceof ApiError && preview.error.status >= 400 && preview.error.status < 500)) {
    body = (
      <Stack spacing={2}>
        <Alert severity="error">{wellFormed ? teamErrorText(preview.error, t('team.invitation.invalid')) : t('team.invitation.invalid')}</Alert>
        <Button component={RouterLink} to="/login" variant="outlined">
          {t('team.invitation.goToLogin')}
        </Button>
      </Stack>
    );
  } else if (preview.isError) {
    body = (
      <RetryAlert retryLabel={t('team.retry')} onRetry={() => void preview.refetch()} retrying={preview.isFetching}>
        {teamErrorText(preview.error, t('team.invitation.invalid'))}
      </RetryAlert>
    );
  } else if (preview.isPending || access.status === 'loading') {
    body = <Skeleton variant="rounded" height={160} role="status" aria-busy="true" aria-label={t('team.invitation.loading')} />;
  } else {
    const invitation = preview.data;
    title = t('team.invitation.title', { account: invitation.accountName });
    const summary = (
      <>
        <Typography data-testid="invitation-summary">
          {t('team.invitation.body', {
            invitedBy: invitation.invitedBy,
            email: invitation.email,
            account: invitation.accountName,
            role: t(`team.roles.${invitation.role}`).toLocaleLowerCase(i18n.language),
          })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('team.invitation.expires', { date: formatDate(i18n.language, invitation.expiresAt) ?? '—' })}
        </Typography>
      </>
    );
    if (invitation.state !== 'pending') {
      const key = invitation.state === 'expired' ? 'expired' : invitation.state === 'revoked' ? 'revoked' : 'used';
      body = (
        <Stack spacing={2}>
          <Alert severity={key === 'used' ? 'info' : 'warning'}>{t(`team.invitation.${key}`, { invitedBy: invitation.invitedBy })}</Alert>
          <Button component={RouterLink} to={access.status === 'authenticated' ? '/' : '/login'} variant="outlined">
            {t(access.status === 'authenticated' ? 'team.invitation.goToApp' : 'team.invitation.goToLogin')}
          </Button>
        </Stack>
      );
    } else if (access.status !== 'authenticated' || !user) {
      body = (
        <Stack spacing={2}>
          {summary}
          <Typography variant="body2">{t(invitation.hasLogin ? 'team.invitation.haveLogin' : 'team.invitation.noLogin')}</Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <Button component={RouterLink} to={authUrl('register', token, invitation.email)} variant={invitation.hasLogin ? 'outlined' : 'contained'}>
              {t('team.invitation.createAccount')}
            </Button>
            <Button component={RouterLink} to={authUrl('login', token, invitation.email)} variant={invitation.hasLogin ? 'contained' : 'outlined'}>
              {t('team.invitation.signIn')}
            </Button>
          </Stack>
        </Stack>
      );
    } else if (!sameEmail(user.email, invitation.email)) {
      body = (
        <Stack spacing={2}>
          {summary}
          <Alert severity="warning">{t('team.invitation.otherEmail', { email: invitation.email, current: user.email })}</Alert>
          <Button variant="outlined" onClick={signOut}>
            {t('team.invitation.signOut')}
          </Button>
        </Stack>
      );
    } else {
      body = (
        <Stack spacing={2}>
          {summary}
          <Typography variant="body2" color="text.secondary">
            {t('team.invitation.signedInAs', { email: user.email })}
          </Typography>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          <Button variant="contained" size="large" onClick={() => void onAccept(invitation)} disabled={accept.isPending}>
            {accept.isPending ? t('team.invitation.accepting') : t('team.invitation.accept')}
          </Button>
        </Stack>
      );
    }
  }

  return <AuthLayout title={title}>{body}</AuthLayout>;
}
