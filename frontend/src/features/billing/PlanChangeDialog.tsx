/**
 * The confirmation before a plan change (issue 19: 'Upgrade' changed the plan to a higher price
 * at once): the new plan's price per month/year (Intl, in the account's currency) and, under one
 * heading, what an upgrade gains or what a downgrade loses (issue 29): the limits, numbers in the
 * locale ('1000 → 10.000'), then the features. Cancel / Confirm; nothing changes before Confirm.
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@agentdesk/functions/contract';
import { formatNumber } from '../../shared/intl';
import { planChange } from './plans';
import { usePlanText } from './usePlanText';

interface PlanChangeDialogProps {
  /** The user's current plan and the one chosen; closed while `to` is null. */
  from: Plan | undefined;
  to: Plan | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

const METRIC_LABEL = { contacts: 'billing.usage.contacts', messagesPerMonth: 'billing.usage.messages', minutesPerMonth: 'billing.usage.minutes', seats: 'billing.usage.seats' } as const;

export function PlanChangeDialog({ from, to, pending, onCancel, onConfirm }: PlanChangeDialogProps) {
  const { t } = useTranslation();
  const text = usePlanText();
  const id = useId();
  const change = from && to ? planChange(from, to) : null;
  const upgrade = change?.direction !== 'downgrade';
  const limit = (n: number) => (n < 0 ? t('billing.usage.unlimited') : formatNumber(text.language, n));
  const interval = (plan: Plan) => t(`billing.confirmChange.intervals.${plan.interval}`, { defaultValue: plan.interval });

  return (
    <Dialog open={Boolean(to)} onClose={pending ? undefined : onCancel} maxWidth="sm" fullWidth aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`}>
      {to && (
        <>
          <DialogTitle id={`${id}-title`}>
            {t(upgrade ? 'billing.confirmChange.titleUpgrade' : 'billing.confirmChange.titleDowngrade', { plan: text.name(to) })}
          </DialogTitle>
          <DialogContent>
            <DialogContentText id={`${id}-body`}>
              {t('billing.confirmChange.body', { from: from ? text.name(from) : '', to: text.name(to) })}
            </DialogContentText>
            <Typography sx={{ mt: 2, fontWeight: 600 }} data-testid="plan-change-price">
              {t('billing.confirmChange.price', { price: text.price(to), interval: interval(to) })}
            </Typography>
            {from && (
              <Typography variant="body2" color="text.secondary">
                {t('billing.confirmChange.currentPrice', { price: text.price(from), interval: interval(from) })}
              </Typography>
            )}
            {change && (change.limits.length > 0 || change.features.length > 0) && (
              <section aria-labelledby={`${id}-changes`}>
                <Typography id={`${id}-changes`} variant="subtitle2" component="h3" sx={{ mt: 2 }}>
                  {t(upgrade ? 'billing.confirmChange.gains' : 'billing.confirmChange.losses')}
                </Typography>
                {change.limits.length > 0 && (
                  <List dense disablePadding data-testid="plan-change-limits">
                    {change.limits.map((l) => (
                      <ListItem key={l.metric} disableGutters>
                        {t('billing.confirmChange.limit', { metric: t(METRIC_LABEL[l.metric]), from: limit(l.from), to: limit(l.to) })}
                      </ListItem>
                    ))}
                  </List>
                )}
                {change.features.length > 0 && (
                  <List dense disablePadding data-testid={upgrade ? 'plan-change-added' : 'plan-change-removed'}>
                    {change.features.map((f) => (
                      <ListItem key={f} disableGutters>
                        {text.feature(f)}
                      </ListItem>
                    ))}
                  </List>
                )}
              </section>
            )}
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={onCancel} disabled={pending}>
              {t('billing.confirmChange.cancel')}
            </Button>
            <Button variant="contained" onClick={onConfirm} disabled={pending}>
              {pending ? t('billing.actions.processing') : t('billing.confirmChange.confirm')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
