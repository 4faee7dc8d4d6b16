import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Plan, Subscription } from '@agentdesk/functions/contract';
import { useToast } from '../../shared/useToast';
import { errorMessage, translateMessage } from '../../i18n';
import { BillingPortalButton } from './BillingPortalButton';
import { formatDate, isFutureDate } from './format';
import { useCancelSubscription } from './queries';
import { StatusChip } from './StatusChip';
import { usePlanText } from './usePlanText';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }} sx={{ py: 1.25 }}>
      <Typography color="text.secondary" sx={{ width: { sm: 220 }, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ fontWeight: 500 }}>{children}</Box>
    </Stack>
  );
}

/** Subscription details, billing actions and the cancel dialog. */
export function BillingTab({ subscription, plan }: { subscription: Subscription; plan: Plan | undefined }) {
  const { t } = useTranslation();
  const text = usePlanText();
  const date = (iso: string | null) => formatDate(iso, text.language);
  const [open, setOpen] = useState(false);
  const [immediately, setImmediately] = useState(false);
  const cancel = useCancelSubscription();
  const toast = useToast();
  const scheduled = subscription.cancelAtPeriodEnd;

  const confirm = () =>
    cancel.mutate(immediately, {
      onSuccess: (env) => toast.success(env.message ? translateMessage(env.message) : t('billing.cancel.done')),
      // SPEC §8: a failed cancel is logged only.
      onError: (err) => console.error(errorMessage(err, t('billing.errors.cancel'))),
      onSettled: () => {
        setOpen(false);
        setImmediately(false);
      },
    });

  return (
    <Stack spacing={3}>
      {scheduled && (
        <Alert severity="warning">
          <AlertTitle>{t('billing.cancel.scheduledTitle')}</AlertTitle>
          {t('billing.cancel.scheduledBody', { date: date(subscription.currentPeriodEnd) })}
        </Alert>
      )}
      <SectionCard id="details-title" title={t('billing.details.title')}>
        <Row label={t('billing.details.plan')}>{text.name(plan ?? subscription.plan)}</Row>
        <Divider />
        {plan && (
          <>
            <Row label={t('billing.details.price')}>
              {text.price(plan)}
              {text.per(plan)}
            </Row>
            <Divider />
          </>
        )}
        <Row label={t('billing.statusLabel')}>
          <StatusChip status={subscription.status} />
        </Row>
        <Divider />
        {isFutureDate(subscription.trialEnd) && (
          <>
            <Row label={t('billing.details.trialEnd')}>{date(subscription.trialEnd)}</Row>
            <Divider />
          </>
        )}
        <Row label={t('billing.details.periodStart')}>{date(subscription.currentPeriodStart)}</Row>
        <Divider />
        <Row label={scheduled ? t('billing.details.periodEnd') : t('billing.details.nextBilling')}>{date(subscription.currentPeriodEnd)}</Row>
        <Divider />
        <Row label={t('billing.details.autoRenew')}>{scheduled ? t('billing.details.off') : t('billing.details.on')}</Row>
      </SectionCard>
      <SectionCard id="actions-title" title={t('billing.billingActions.title')}>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('billing.billingActions.portalHint')}
        </Typography>
        <BillingPortalButton label={t('billing.billingActions.managePayment')} />
        {!scheduled && (
          <>
            <Divider sx={{ my: 3 }} />
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('billing.billingActions.cancelHint')}
            </Typography>
            <Button variant="outlined" color="error" onClick={() => setOpen(true)}>
              {t('billing.cancel.button')}
            </Button>
          </>
        )}
      </SectionCard>
      <Dialog open={open} onClose={() => !cancel.isPending && setOpen(false)} aria-labelledby="cancel-title" maxWidth="sm" fullWidth>
        <DialogTitle id="cancel-title">{t('billing.cancel.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {t('billing.cancel.body', { plan: text.name(plan ?? subscription.plan), date: date(subscription.currentPeriodEnd) })}
          </DialogContentText>
          <FormControlLabel
            control={<Checkbox checked={immediately} onChange={(e) => setImmediately(e.target.checked)} />}
            label={t('billing.cancel.immediately')}
          />
          {immediately && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {t('billing.cancel.immediatelyHint')}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => setOpen(false)} disabled={cancel.isPending} autoFocus>
            {t('billing.cancel.keep')}
          </Button>
          <Button variant="contained" color="error" onClick={confirm} disabled={cancel.isPending}>
            {cancel.isPending ? t('billing.cancel.cancelling') : t('billing.cancel.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}

/** A titled card section, named by its heading. */
function SectionCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card component="section" aria-labelledby={id}>
      <CardContent sx={{ p: 3 }}>
        <Typography id={id} variant="h6" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
