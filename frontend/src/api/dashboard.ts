/**
 * Dashboard calls (SPEC §7 Dashboard): GET /api/dashboard?timeFilter=7days|30days, and the
 * getting-started checklist (issue 19). Query keys: ['dashboard', …].
 */
import type { DashboardData, DashboardTimeFilter, GettingStarted } from '@agentdesk/functions/contract';
import { requestData } from './client';

export const dashboardKeys = {
  all: ['dashboard'] as const,
  data: (timeFilter: DashboardTimeFilter) => ['dashboard', timeFilter] as const,
  gettingStarted: ['dashboard', 'getting-started'] as const,
};

export const dashboardApi = {
  get: (timeFilter: DashboardTimeFilter, signal?: AbortSignal) =>
    requestData<DashboardData>(`/api/dashboard?${new URLSearchParams({ timeFilter }).toString()}`, { signal }),
  gettingStarted: (signal?: AbortSignal) => requestData<GettingStarted>('/api/dashboard/getting-started', { signal }),
  setGettingStartedHidden: (hidden: boolean) => requestData<GettingStarted>('/api/dashboard/getting-started', { method: 'PUT', body: { hidden } }),
};
