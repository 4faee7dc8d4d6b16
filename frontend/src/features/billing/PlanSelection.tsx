/**
 * Plan selection (SPEC §2 Subscription, no active subscription): 'Choose Your Plan' (or 'Change
 * Your Plan' when a plan exists), three cards, FAQ, contact-support and schedule-a-demo links.
 * A past_due or unpaid subscription gets a note and the Billing Portal button to fix the card.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { useTranslation } from 'react-i18next';
import type { Plan, Subscription } from '@agentdesk/functions/contract';
import { ErrorBox } from './ErrorBox';
import { FaqSection } from './FaqSection';
import { DEMO_URL, SUPPORT_URL } from './links';
import { PlanChangeDialog } from './PlanChangeDialog';
import { PlanGrid } from './PlanGrid';
import { currentPlanOf, needsBillingFix } from './plans';
import { BillingPortalButton } from './BillingPortalButton';
import { usePlanChooser } from './usePlanChooser';

export function PlanSelection({ plans, subscription }: { plans: readonly Plan[]; subscription: Subscription | null }) {
  const { t } = useTranslation();
  const current = currentPlanOf(subscription);
  const chooser = usePlanChooser();

  return (
    <Box>
      <Box sx={{ textAlign: 'center', mb: 4 }}>
        <Typography variant="h4" component="h1">
          {current ? t('billing.changePlan') : t('billing.choosePlan')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t('billing.choosePlanSubtitle')}
        </Typography>
      </Box>
      {needsBillingFix(subscription) && (
        <Alert severity="warning" sx={{ mb: 3, alignItems: 'center' }} action={<BillingPortalButton />}>
          <AlertTitle>{t('billing.pastDueTitle')}</AlertTitle>
          {t('billing.pastDueBody')}
        </Alert>
      )}
      {chooser.error && <ErrorBox message={chooser.error} onClose={chooser.clearError} />}
      <Box sx={{ pt: 1.5 }}>
        <PlanGrid plans={plans} current={current} pending={chooser.pending} onChoose={(plan, action) => void chooser.choose(plan, action)} />
      </Box>
      <PlanChangeDialog
        from={plans.find((p) => p.id === current)}
        to={chooser.confirming}
        pending={chooser.pending !== null}
        onCancel={chooser.cancel}
        onConfirm={() => void chooser.confirm()}
      />
      <Box sx={{ mt: 6, maxWidth: 820, mx: 'auto' }}>
        <FaqSection />
      </Box>
      <Paper variant="outlined" sx={{ mt: 4, p: 3, maxWidth: 820, mx: 'auto', textAlign: 'center' }}>
        <Typography variant="h6" component="h2">
          {t('billing.helpTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('billing.helpBody')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center' }}>
          <Button variant="outlined" href={SUPPORT_URL} target="_blank" rel="noopener noreferrer" endIcon={<OpenInNew />}>
            {t('billing.contactSupport')}
          </Button>
          <Button variant="outlined" href={DEMO_URL} target="_blank" rel="noopener noreferrer" endIcon={<OpenInNew />}>
            {t('billing.scheduleDemo')}
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
