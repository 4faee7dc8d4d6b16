/** The dashboard's server state (TanStack Query); switching the range keeps the previous figures until the new ones arrive. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DashboardTimeFilter } from '@agentdesk/functions/contract';
import { dashboardApi, dashboardKeys } from '../../api/dashboard';

export function useDashboard(timeFilter: DashboardTimeFilter) {
  return useQuery({
    queryKey: dashboardKeys.data(timeFilter),
    queryFn: ({ signal }) => dashboardApi.get(timeFilter, signal),
    placeholderData: keepPreviousData,
  });
}
