import Button, { type ButtonProps } from '@mui/material/Button';
import CreditCardOutlined from '@mui/icons-material/CreditCardOutlined';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../shared/useToast';
import { errorMessage } from '../../i18n';
import { usePortal } from './queries';

/**
 * Opens the payment provider's billing portal (POST /portal → redirect). A failure is logged
 * ('Failed to open billing portal', server message preferred) and the user is alerted with
 * 'Failed to open billing portal. Please try again.'.
 */
export function BillingPortalButton({ label, ...props }: { label?: string } & ButtonProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const portal = usePortal();
  return (
    <Button
      variant="outlined"
      startIcon={<CreditCardOutlined />}
      {...props}
      disabled={portal.isPending || props.disabled}
      onClick={() =>
        portal.mutate(undefined, {
          onError: (err) => {
            console.error(errorMessage(err, t('billing.errors.portal')));
            toast.error(t('billing.portalFailedAlert'));
          },
        })
      }
    >
      {portal.isPending ? t('billing.actions.processing') : (label ?? t('billing.billingPortal'))}
    </Button>
  );
}
