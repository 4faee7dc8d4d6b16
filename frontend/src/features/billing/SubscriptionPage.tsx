/**
 * /subscription (SPEC §2 Subscription): plan selection without an active subscription; otherwise
 * the subscription view — Billing Portal, plan summary, tabs Overview / Billing / Settings.
 * 'No Subscription Found' when the account is subscribed but none comes back; 'Error Loading
 * Subscription' with Try Again when loading fails.
 */
import { useEffect, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { isActiveStatus, type Plan, type Subscription } from '@agentdesk/functions/contract';
import { useAuth } from '../../shared/session';
import { usePageTitle } from '../../shared/usePageTitle';
import { errorMessage } from '../../i18n';
import { BillingPortalButton } from './BillingPortalButton';
import { BillingTab } from './BillingTab';
import { ErrorBox } from './ErrorBox';
import { isFutureDate, formatDate } from './format';
import { OverviewTab } from './OverviewTab';
import { PlanChangeDialog } from './PlanChangeDialog';
import { PlanGrid } from './PlanGrid';
import { PlanSelection } from './PlanSelection';
import { subscriptionView } from './plans';
import { useCurrentSubscription, usePlans } from './queries';
import { StatusChip } from './StatusChip';
import { usePlanChooser } from './usePlanChooser';
import { usePlanText } from './usePlanText';
import './i18n';
import { PageHeader } from '../../shared/PageHeader';

const TABS = ['overview', 'billing', 'settings'] as const;
type TabId = (typeof TABS)[number];

export default function SubscriptionPage() {
  const { t } = useTranslation();
  const { user, refetchUser } = useAuth();
  const current = useCurrentSubscription();
  const plans = usePlans();
  const [showPlans, setShowPlans] = useState(false);
  usePageTitle(t('billing.title'));

  // The account's flag follows the subscription (a portal visit may have fixed a past_due card).
  const active = current.data ? isActiveStatus(current.data.status) : current.isSuccess ? false : undefined;
  const userActive = user?.hasActiveSubscription;
  useEffect(() => {
    if (active !== undefined && userActive !== undefined && active !== userActive) void refetchUser();
  }, [active, userActive, refetchUser]);

  if (current.isPending || plans.isPending) {
    return (
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', py: 10, gap: 2 }}>
        <CircularProgress aria-label={t('billing.loading')} />
        <Typography color="text.secondary">{t('billing.loading')}</Typography>
      </Box>
    );
  }

  if (current.isError || plans.isError) {
    const message = current.isError
      ? errorMessage(current.error, t('billing.errors.fetchSubscription'))
      : errorMessage(plans.error, t('billing.errors.fetchPlans'));
    return (
      <StatePanel
        icon={<ErrorOutline color="error" sx={{ fontSize: 56 }} />}
        title={t('billing.loadError.title')}
        body={message}
        action={
          <Button
            variant="contained"
            onClick={() => {
              void current.refetch();
              void plans.refetch();
            }}
          >
            {t('billing.loadError.retry')}
          </Button>
        }
      />
    );
  }

  const subscription = current.data;
  const view = showPlans ? 'plans' : subscriptionView(subscription, Boolean(user?.hasActiveSubscription));
  if (view === 'none') {
    return (
      <StatePanel
        icon={<ReceiptLongOutlined color="disabled" sx={{ fontSize: 56 }} />}
        title={t('billing.noSubscription.title')}
        body={t('billing.noSubscription.body')}
        action={
          <Button variant="contained" onClick={() => setShowPlans(true)}>
            {t('billing.noSubscription.viewPlans')}
          </Button>
        }
      />
    );
  }
  if (view === 'plans' || !subscription) return <PlanSelection plans={plans.data} subscription={subscription} />;
  return <SubscriptionDashboard subscription={subscription} plans={plans.data} />;
}

function StatePanel({ icon, title, body, action }: { icon: ReactNode; title: string; body: string; action: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 4, md: 6 }, textAlign: 'center', maxWidth: 560, mx: 'auto', mt: 4 }}>
      {icon}
      <Typography variant="h5" component="h1" sx={{ mt: 1 }}>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {body}
      </Typography>
      {action}
    </Paper>
  );
}

function SubscriptionDashboard({ subscription, plans }: { subscription: Subscription; plans: Plan[] }) {
  const { t } = useTranslation();
  const text = usePlanText();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabId = (TABS as readonly string[]).includes(requested ?? '') ? (requested as TabId) : 'overview';
  const plan = plans.find((p) => p.id === subscription.plan);

  return (
    <Box sx={{ maxWidth: 1100 }}>
      <PageHeader title={t('billing.title')}>
        <BillingPortalButton variant="contained" />
      </PageHeader>
      <Card component="section" aria-label={t('billing.details.plan')} sx={{ mb: 3 }}>
        <CardContent sx={{ p: 3 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
            <Box>
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="h5" component="h2">
                  {text.name(plan ?? subscription.plan)}
                </Typography>
                <StatusChip status={subscription.status} />
              </Stack>
              {plan?.description && (
                <Typography color="text.secondary" sx={{ mt: 0.5 }}>
                  {text.feature(plan.description)}
                </Typography>
              )}
              {isFutureDate(subscription.trialEnd) && (
                <Typography variant="body2" sx={{ mt: 1, color: 'info.dark', fontWeight: 500 }}>
                  {t('billing.trialEnds', { date: formatDate(subscription.trialEnd, text.language) })}
                </Typography>
              )}
            </Box>
            {plan && (
              <Box sx={{ textAlign: { sm: 'right' } }}>
                <Stack direction="row" spacing={0.5} sx={{ alignItems: 'baseline', justifyContent: { sm: 'flex-end' } }}>
                  <Typography variant="h4" component="p">
                    {text.price(plan)}
                  </Typography>
                  <Typography color="text.secondary">{text.per(plan)}</Typography>
                </Stack>
              </Box>
            )}
          </Stack>
        </CardContent>
      </Card>
      <Tabs
        value={tab}
        onChange={(_, value: TabId) => setParams(value === 'overview' ? {} : { tab: value }, { replace: true })}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}
        variant="scrollable"
        allowScrollButtonsMobile
      >
        {TABS.map((id) => (
          <Tab key={id} value={id} label={t(`billing.tabs.${id}`)} id={`subscription-tab-${id}`} aria-controls={`subscription-panel-${id}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`subscription-panel-${tab}`} aria-labelledby={`subscription-tab-${tab}`}>
        {tab === 'overview' && <OverviewTab plan={plan} />}
        {tab === 'billing' && <BillingTab subscription={subscription} plan={plan} />}
        {tab === 'settings' && <PlanSettings subscription={subscription} plans={plans} />}
      </Box>
    </Box>
  );
}

/** Settings tab: the plan-change view (Upgrade / Downgrade / Current Plan). */
function PlanSettings({ subscription, plans }: { subscription: Subscription; plans: Plan[] }) {
  const { t } = useTranslation();
  const chooser = usePlanChooser();
  return (
    <Box>
      <Typography variant="h6" component="h2">
        {t('billing.settings.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('billing.settings.subtitle')}
      </Typography>
      {chooser.error && <ErrorBox message={chooser.error} onClose={chooser.clearError} />}
      <Box sx={{ pt: 1.5 }}>
        <PlanGrid plans={plans} current={subscription.plan} pending={chooser.pending} onChoose={(plan, action) => void chooser.choose(plan, action)} />
      </Box>
      <PlanChangeDialog
        from={plans.find((p) => p.id === subscription.plan)}
        to={chooser.confirming}
        pending={chooser.pending !== null}
        onCancel={chooser.cancel}
        onConfirm={() => void chooser.confirm()}
      />
    </Box>
  );
}
