/** Dashboard calls (SPEC §7 Dashboard): GET /api/dashboard?timeFilter=7days|30days. Query keys: ['dashboard', …]. */
import type { DashboardData, DashboardTimeFilter } from '@agentdesk/functions/contract';
import { requestData } from './client';

export const dashboardKeys = {
  all: ['dashboard'] as const,
  data: (timeFilter: DashboardTimeFilter) => ['dashboard', timeFilter] as const,
};

export const dashboardApi = {
  get: (timeFilter: DashboardTimeFilter, signal?: AbortSignal) =>
    requestData<DashboardData>(`/api/dashboard?${new URLSearchParams({ timeFilter }).toString()}`, { signal }),
};
