/**
 * /subscription/success?session_id=… (SPEC §2 Payment success, §4): verifying, then success
 * (plan, payment status, next billing date, links to / and /subscription) once the user is
 * refetched so the full app opens, or 'Payment Verification Failed' with links to /subscription
 * and /.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { VerifySessionResponse } from '@agentdesk/functions/contract';
import { billingApi } from '../../api/billing';
import { ApiError } from '../../api/client';
import { ME_QUERY_KEY } from '../../shared/session';
import { usePageTitle } from '../../shared/usePageTitle';
import { errorMessage } from '../../i18n';
import { formatDate } from './format';
import { billingKeys } from '../../shared/queryKeys';
import { usePlanText } from './usePlanText';
import './i18n';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', py: 1.25 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ fontWeight: 600, textAlign: 'right' }}>{children}</Typography>
    </Stack>
  );
}

export default function PaymentSuccessPage() {
  const { t } = useTranslation();
  const text = usePlanText();
  const [params] = useSearchParams();
  const sessionId = params.get('session_id')?.trim() ?? '';
  const queryClient = useQueryClient();

  const verify = useQuery({
    queryKey: billingKeys.session(sessionId),
    enabled: sessionId !== '',
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    queryFn: async ({ signal }): Promise<VerifySessionResponse> => {
      const result = await billingApi.verifySession(sessionId, signal);
      if (!result.success) throw new ApiError(200, result.message || undefined);
      // The subscription is active now: refetch it and the user (hasActiveSubscription) so the
      // whole app opens before the success page offers the way there.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: billingKeys.current }),
        queryClient.invalidateQueries({ queryKey: billingKeys.analytics }),
        queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }),
      ]);
      return result;
    },
  });

  const state: 'verifying' | 'success' | 'failed' = !sessionId ? 'failed' : verify.isPending ? 'verifying' : verify.isSuccess ? 'success' : 'failed';
  usePageTitle(
    state === 'verifying' ? t('billing.success.verifying') : state === 'success' ? t('billing.success.title') : t('billing.success.failedTitle'),
  );

  if (state === 'verifying') {
    return (
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', py: 12, gap: 2 }} role="status">
        <CircularProgress aria-label={t('billing.success.verifying')} />
        <Typography color="text.secondary">{t('billing.success.verifying')}</Typography>
      </Box>
    );
  }

  if (state === 'failed') {
    const message = !sessionId
      ? t('billing.errors.noSession')
      : verify.error instanceof ApiError && verify.error.status !== 0
        ? errorMessage(verify.error, t('billing.errors.verifySession'))
        : t('billing.errors.verifyPayment');
    return (
      <Paper variant="outlined" sx={{ maxWidth: 560, mx: 'auto', mt: { xs: 2, md: 6 }, p: { xs: 3, md: 5 }, textAlign: 'center' }}>
        <ErrorOutline color="error" sx={{ fontSize: 64 }} />
        <Typography variant="h4" component="h1" sx={{ mt: 1 }}>
          {t('billing.success.failedTitle')}
        </Typography>
        <Typography role="alert" sx={{ mt: 2, color: 'error.main', fontWeight: 500 }}>
          {message}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t('billing.success.failedBody')}
        </Typography>
        <NextSteps primary={{ to: '/subscription', label: t('billing.success.backToPlans') }} secondary={{ to: '/', label: t('billing.success.goHome') }} />
      </Paper>
    );
  }

  const result = verify.data!;
  const paymentStatus = result.session?.payment_status ?? '';
  return (
    <Paper variant="outlined" sx={{ maxWidth: 560, mx: 'auto', mt: { xs: 2, md: 6 }, p: { xs: 3, md: 5 }, textAlign: 'center' }}>
      <CheckCircle color="success" sx={{ fontSize: 64 }} />
      <Typography variant="h4" component="h1" sx={{ mt: 1 }}>
        {t('billing.success.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {t('billing.success.body')}
      </Typography>
      <Box sx={{ textAlign: 'left', mt: 3, px: 2, bgcolor: 'background.default', borderRadius: 2 }}>
        {result.subscription && (
          <>
            <Row label={t('billing.success.plan')}>{text.name(result.subscription.plan)}</Row>
            <Divider />
          </>
        )}
        <Row label={t('billing.success.paymentStatus')}>
          {t(`billing.success.paymentStatuses.${paymentStatus}`, { defaultValue: paymentStatus || '—' })}
        </Row>
        {result.subscription && (
          <>
            <Divider />
            <Row label={t('billing.success.nextBilling')}>{formatDate(result.subscription.currentPeriodEnd, text.language)}</Row>
          </>
        )}
      </Box>
      <NextSteps primary={{ to: '/', label: t('billing.success.dashboard') }} secondary={{ to: '/subscription', label: t('billing.success.viewSubscription') }} />
    </Paper>
  );
}

interface NextStep {
  to: string;
  label: string;
}

/** The two links that end the page: the main next step and the other way on. */
function NextSteps({ primary, secondary }: { primary: NextStep; secondary: NextStep }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center', mt: 4 }}>
      <Button variant="contained" component={RouterLink} to={primary.to}>
        {primary.label}
      </Button>
      <Button variant="outlined" component={RouterLink} to={secondary.to}>
        {secondary.label}
      </Button>
    </Stack>
  );
}
