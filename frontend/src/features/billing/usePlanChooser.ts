import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan, PlanId } from '@agentdesk/functions/contract';
import { useToast } from '../../shared/useToast';
import { errorMessage, translateMessage } from '../../i18n';
import type { PlanAction } from './plans';
import { useChangePlan, useCheckout } from './queries';

/**
 * Choosing a plan card (SPEC §4): without a subscription a checkout session is created and the
 * browser goes to its url; with one the plan change first waits for a confirmation (issue 19:
 * `confirming` opens PlanChangeDialog with the new price and what changes) and nothing changes
 * before Confirm. The failure text (server message preferred) is shown in a red 'Error' box by the caller.
 */
export function usePlanChooser() {
  const { t } = useTranslation();
  const toast = useToast();
  const checkout = useCheckout();
  const change = useChangePlan();
  const [pending, setPending] = useState<PlanId | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Plan | null>(null);

  const run = async (plan: Plan, via: 'checkout' | 'change') => {
    setError(null);
    setPending(plan.id);
    try {
      if (via === 'checkout') {
        await checkout.mutateAsync(plan.id);
      } else {
        const env = await change.mutateAsync(plan.id);
        toast.success(env.message ? translateMessage(env.message) : t('billing.planUpdated'));
      }
    } catch (err) {
      setError(errorMessage(err, t(via === 'checkout' ? 'billing.errors.checkout' : 'billing.errors.updatePlan')));
    } finally {
      setPending(null);
      setConfirming(null);
    }
  };

  const choose = async (plan: Plan, action: PlanAction) => {
    if (!action.enabled || !action.via || pending) return;
    if (action.via === 'change') setConfirming(plan);
    else await run(plan, 'checkout');
  };

  return {
    choose,
    pending,
    error,
    clearError: () => setError(null),
    /** The plan a change to waits for Confirm (PlanChangeDialog is open), or null. */
    confirming,
    confirm: () => (confirming && !pending ? run(confirming, 'change') : Promise.resolve()),
    cancel: () => {
      if (!pending) setConfirming(null);
    },
  };
}
