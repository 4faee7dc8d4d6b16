import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { SubscriptionStatus } from '@agentdesk/functions/contract';

const COLOR: Record<SubscriptionStatus, 'success' | 'info' | 'warning' | 'error' | 'default'> = {
  active: 'success',
  trialing: 'info',
  past_due: 'warning',
  unpaid: 'error',
  canceled: 'default',
};

/** The subscription status badge. */
export function StatusChip({ status }: { status: SubscriptionStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={COLOR[status] ?? 'default'} label={t(`billing.status.${status}`, { defaultValue: status })} sx={{ fontWeight: 600 }} />;
}
