import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@agentdesk/functions/contract';
import { errorMessage } from '../../i18n';
import { formatDate } from './format';
import { useSubscriptionAnalytics } from './queries';
import { UsageBar } from './UsageBar';
import { PlanFeatureList } from './PlanFeatureList';
import { usePlanText } from './usePlanText';
import { RetryAlert } from '../../shared/RetryAlert';

/** Usage bars for contacts, messages and voice minutes, and the plan's feature list. */
export function OverviewTab({ plan }: { plan: Plan | undefined }) {
  const { t } = useTranslation();
  const text = usePlanText();
  const analytics = useSubscriptionAnalytics();
  const data = analytics.data;

  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' }, alignItems: 'start' }}>
      <Card component="section" aria-labelledby="usage-title">
        <CardContent sx={{ p: 3 }}>
          <Typography id="usage-title" variant="h6" component="h2">
            {t('billing.usage.title')}
          </Typography>
          {data?.currentPeriod.start && data.currentPeriod.end && (
            <Typography variant="body2" color="text.secondary">
              {t('billing.usage.period', {
                start: formatDate(data.currentPeriod.start, text.language),
                end: formatDate(data.currentPeriod.end, text.language),
              })}
            </Typography>
          )}
          <Box sx={{ mt: 1.5 }}>
            {analytics.isPending ? (
              <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
                <CircularProgress aria-label={t('app.loading')} />
              </Box>
            ) : analytics.isError ? (
              <RetryAlert retryLabel={t('billing.loadError.retry')} onRetry={() => void analytics.refetch()}>
                {errorMessage(analytics.error, t('billing.errors.fetchAnalytics'))}
              </RetryAlert>
            ) : !data ? (
              <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
                {t('billing.usage.none')}
              </Typography>
            ) : (
              <>
                <UsageBar label={t('billing.usage.contacts')} used={data.usage.contacts} limit={data.limits.contacts} utilization={data.utilization.contacts} />
                <UsageBar
                  label={t('billing.usage.messages')}
                  used={data.usage.messagesSent}
                  limit={data.limits.messagesPerMonth}
                  utilization={data.utilization.messagesSent}
                />
                <UsageBar
                  label={t('billing.usage.minutes')}
                  used={data.usage.minutes}
                  limit={data.limits.minutesPerMonth}
                  utilization={data.utilization.minutes}
                />
              </>
            )}
          </Box>
        </CardContent>
      </Card>
      {plan && (
        <Card component="section" aria-labelledby="features-title">
          <CardContent sx={{ p: 3 }}>
            <Typography id="features-title" variant="h6" component="h2" sx={{ mb: 1 }}>
              {t('billing.features')}
            </Typography>
            <PlanFeatureList plan={plan} />
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
