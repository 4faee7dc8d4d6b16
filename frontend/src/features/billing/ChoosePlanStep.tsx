/**
 * Onboarding step 5 'Choose your plan' (SPEC §2 Onboarding): plan cards as a radio group (first
 * 4 lines — the limits, then the features —, professional marked 'Popular' and preselected, the
 * price per interval in the account's currency, issue 29). Continue
 * starts a checkout and sends the browser to its url; meanwhile every button is disabled and
 * Continue reads 'Processing...'; a failure shows in a panel titled 'Error' and the buttons
 * come back.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import ArrowForward from '@mui/icons-material/ArrowForward';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { PlanId } from '@agentdesk/functions/contract';
import { errorMessage } from '../../i18n';
import { ErrorBox } from './ErrorBox';
import { needsBillingFix, POPULAR_PLAN, sortPlans } from './plans';
import { useCheckout, useCurrentSubscription, usePlans } from './queries';
import { PlanFeatureList } from './PlanFeatureList';
import { usePlanText } from './usePlanText';
import './i18n';
import { RetryAlert } from '../../shared/RetryAlert';

/** Onboarding shows the first four features of each plan. */
export const ONBOARDING_FEATURES = 4;

export function ChoosePlanStep({ onPrevious }: { onPrevious: () => void }) {
  const { t } = useTranslation();
  const text = usePlanText();
  const plans = usePlans();
  const current = useCurrentSubscription();
  const checkout = useCheckout();
  const [picked, setPicked] = useState<PlanId | null>(null);
  const [error, setError] = useState<string | null>(null);

  const list = plans.data ? sortPlans(plans.data) : [];
  const choosable = list.filter((p) => !p.disabled);
  const fallback = choosable.find((p) => p.id === POPULAR_PLAN)?.id ?? choosable[0]?.id ?? null;
  const selected = picked && choosable.some((p) => p.id === picked) ? picked : fallback;
  const processing = checkout.isPending;

  const start = () => {
    if (!selected || processing) return;
    setError(null);
    checkout.mutate(selected, { onError: (err) => setError(errorMessage(err, t('billing.errors.checkout'))) });
  };

  return (
    <Box>
      <Typography color="text.secondary" sx={{ fontSize: 18, mb: 3 }}>
        {t('billing.onboarding.subtitle')}
      </Typography>
      {needsBillingFix(current.data) && (
        <Alert
          severity="warning"
          sx={{ mb: 3 }}
          action={
            <Button color="inherit" size="small" component={RouterLink} to="/subscription">
              {t('billing.onboarding.fixBilling')}
            </Button>
          }
        >
          {t('billing.onboarding.pastDue')}
        </Alert>
      )}
      {error && <ErrorBox message={error} />}
      {plans.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={t('app.loading')} />
        </Box>
      ) : plans.isError ? (
        <RetryAlert retryLabel={t('billing.onboarding.retry')} onRetry={() => void plans.refetch()}>
          {errorMessage(plans.error, t('billing.errors.fetchPlans'))}
        </RetryAlert>
      ) : (
        <Box
          role="radiogroup"
          aria-label={t('billing.onboarding.title')}
          sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: `repeat(${Math.max(list.length, 1)}, 1fr)` }, pt: 1.5 }}
        >
          {list.map((plan) => {
            const isSelected = plan.id === selected;
            const popular = plan.id === POPULAR_PLAN;
            return (
              <Paper
                key={plan.id}
                component="label"
                variant="outlined"
                data-testid={`onboarding-plan-${plan.id}`}
                sx={{
                  position: 'relative',
                  display: 'flex',
                  flexDirection: 'column',
                  p: 2.5,
                  pt: 3,
                  cursor: plan.disabled || processing ? 'default' : 'pointer',
                  borderWidth: 2,
                  borderColor: isSelected ? 'primary.main' : 'divider',
                  bgcolor: isSelected ? 'rgba(79, 70, 229, 0.04)' : 'background.paper',
                  opacity: plan.disabled ? 0.6 : 1,
                  transition: 'border-color 120ms, background-color 120ms',
                  '&:hover': plan.disabled || processing ? undefined : { borderColor: isSelected ? 'primary.main' : 'primary.light' },
                }}
              >
                {popular && (
                  <Chip
                    label={t('billing.popular')}
                    color="primary"
                    size="small"
                    sx={{ position: 'absolute', top: -12, left: '50%', transform: 'translateX(-50%)', fontWeight: 600 }}
                  />
                )}
                <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
                  <Typography variant="h6" component="h2">
                    {text.name(plan)}
                  </Typography>
                  <Radio
                    checked={isSelected}
                    onChange={() => setPicked(plan.id)}
                    value={plan.id}
                    name="onboarding-plan"
                    disabled={plan.disabled || processing}
                    slotProps={{ input: { 'aria-label': text.name(plan) } }}
                    sx={{ mr: -1 }}
                  />
                </Stack>
                <Stack direction="row" spacing={0.5} sx={{ alignItems: 'baseline', mb: 1.5 }}>
                  <Typography variant="h4" component="p">
                    {text.price(plan)}
                  </Typography>
                  <Typography color="text.secondary">{text.per(plan)}</Typography>
                </Stack>
                <PlanFeatureList plan={plan} max={ONBOARDING_FEATURES} />
                {plan.disabled && (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                    {t('billing.contactUsNote')}
                  </Typography>
                )}
              </Paper>
            );
          })}
        </Box>
      )}
      <Stack direction="row" sx={{ mt: 4, justifyContent: 'space-between' }}>
        <Button startIcon={<ArrowBack />} onClick={onPrevious} disabled={processing}>
          {t('common.previous')}
        </Button>
        <Button variant="contained" size="large" endIcon={processing ? undefined : <ArrowForward />} onClick={start} disabled={processing || !selected}>
          {processing ? t('billing.actions.processing') : t('billing.onboarding.continue')}
        </Button>
      </Stack>
    </Box>
  );
}
