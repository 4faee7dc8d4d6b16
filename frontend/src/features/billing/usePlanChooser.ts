import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan, PlanId } from '@agentdesk/functions/contract';
import { useToast } from '../../shared/useToast';
import { errorMessage, translateMessage } from '../../i18n';
import type { PlanAction } from './plans';
import { useChangePlan, useCheckout } from './queries';

/**
 * Choosing a plan card (SPEC §4): without a subscription a checkout session is created and the
 * browser goes to its url; with one the plan is changed directly. The failure text (server
 * message preferred) is shown in a red 'Error' box by the caller.
 */
export function usePlanChooser() {
  const { t } = useTranslation();
  const toast = useToast();
  const checkout = useCheckout();
  const change = useChangePlan();
  const [pending, setPending] = useState<PlanId | null>(null);
  const [error, setError] = useState<string | null>(null);

  const choose = async (plan: Plan, action: PlanAction) => {
    if (!action.enabled || !action.via || pending) return;
    setError(null);
    setPending(plan.id);
    try {
      if (action.via === 'checkout') {
        await checkout.mutateAsync(plan.id);
      } else {
        const env = await change.mutateAsync(plan.id);
        toast.success(env.message ? translateMessage(env.message) : t('billing.planUpdated'));
      }
    } catch (err) {
      setError(errorMessage(err, t(action.via === 'checkout' ? 'billing.errors.checkout' : 'billing.errors.updatePlan')));
    } finally {
      setPending(null);
    }
  };

  return { choose, pending, error, clearError: () => setError(null) };
}
