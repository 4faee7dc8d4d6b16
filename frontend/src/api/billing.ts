/** Subscription calls (SPEC §7 Subscription, all under /api/subscription). */
import type {
  LimitCheck,
  Plan,
  PlanId,
  Subscription,
  SubscriptionAnalytics,
  UsageAction,
  VerifySessionResponse,
} from '@agentdesk/functions/contract';
import { ApiError, request, requestBody, requestData } from './client';

const BASE = '/api/subscription';

export const billingApi = {
  plans: (signal?: AbortSignal) => requestData<Plan[]>(`${BASE}/plans`, { signal }),
  /** null when the user has none ('No subscription found'). */
  current: async (signal?: AbortSignal): Promise<Subscription | null> =>
    (await request<Subscription | null>(`${BASE}/current`, { signal })).data ?? null,
  /** null when there is no usage to show (a 404 is tolerated, SPEC §7). */
  analytics: async (signal?: AbortSignal): Promise<SubscriptionAnalytics | null> => {
    try {
      return (await request<SubscriptionAnalytics>(`${BASE}/analytics`, { signal })).data ?? null;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  },
  checkout: (plan: PlanId) => requestData<{ url: string }>(`${BASE}/checkout`, { method: 'POST', body: { plan } }),
  /** Top-level fields: success, message, session, subscription. */
  verifySession: (sessionId: string, signal?: AbortSignal) =>
    requestBody<VerifySessionResponse>(`${BASE}/verify-session/${encodeURIComponent(sessionId)}`, { signal }),
  changePlan: (plan: PlanId) => request<Subscription>(`${BASE}/plan`, { method: 'PUT', body: { plan } }),
  cancel: (immediately: boolean) => request<Subscription>(`${BASE}/cancel`, { method: 'POST', body: { immediately } }),
  portal: () => requestData<{ url: string }>(`${BASE}/portal`, { method: 'POST' }),
  checkLimit: (action: UsageAction, amount = 1) =>
    requestData<LimitCheck>(`${BASE}/check-limit`, { method: 'POST', body: { action, amount } }),
};

/** Sends the browser to a payment-provider page (checkout, billing portal). */
export function redirectTo(url: string): void {
  window.location.assign(url);
}
