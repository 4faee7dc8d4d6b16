/** Server state for billing (TanStack Query); every change invalidates what it affects. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlanId } from '@agentdesk/functions/contract';
import { billingApi, redirectTo } from '../../api/billing';
import { billingKeys } from '../../shared/queryKeys';
import { ME_QUERY_KEY } from '../../shared/session';

export function usePlans() {
  return useQuery({ queryKey: billingKeys.plans, queryFn: ({ signal }) => billingApi.plans(signal), staleTime: 5 * 60_000 });
}

export function useCurrentSubscription() {
  return useQuery({ queryKey: billingKeys.current, queryFn: ({ signal }) => billingApi.current(signal) });
}

export function useSubscriptionAnalytics(enabled = true) {
  return useQuery({ queryKey: billingKeys.analytics, queryFn: ({ signal }) => billingApi.analytics(signal), enabled });
}

/** Subscription and user both change with a plan change, a cancel or a payment. */
export function useInvalidateBilling() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: billingKeys.current }),
      queryClient.invalidateQueries({ queryKey: billingKeys.analytics }),
      queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }),
    ]);
}

/** POST /checkout, then the browser leaves for the returned url (it stays pending meanwhile). */
export function useCheckout() {
  return useMutation({
    mutationFn: async (plan: PlanId) => {
      const { url } = await billingApi.checkout(plan);
      redirectTo(url);
      // Keep 'Processing...' until the browser has left.
      await new Promise<void>((resolve) => setTimeout(resolve, 10_000));
    },
  });
}

export function useChangePlan() {
  const invalidate = useInvalidateBilling();
  return useMutation({ mutationFn: (plan: PlanId) => billingApi.changePlan(plan), onSuccess: () => invalidate() });
}

export function useCancelSubscription() {
  const invalidate = useInvalidateBilling();
  return useMutation({ mutationFn: (immediately: boolean) => billingApi.cancel(immediately), onSettled: () => invalidate() });
}

export function usePortal() {
  return useMutation({
    mutationFn: async () => {
      const { url } = await billingApi.portal();
      redirectTo(url);
    },
  });
}
