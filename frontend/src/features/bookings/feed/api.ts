/** The private calendar feed links (issue 30): GET/POST/DELETE /api/bookings/calendar-feed, with their React Query hooks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeed } from '@agentdesk/functions/contract';
import { request, requestData } from '../../../api/client';

const PATH = '/api/bookings/calendar-feed';
export const calendarFeedKey = ['bookings', 'calendar-feed'] as const;

export const calendarFeedApi = {
  list: (signal?: AbortSignal) => requestData<CalendarFeed[]>(PATH, { signal }),
  /** Create or rotate: the only answer with the whole URL. */
  create: (staffId: string | null) => requestData<CalendarFeed>(PATH, { method: 'POST', body: { staffId } }),
  revoke: (staffId: string | null) => request(staffId ? `${PATH}?staffId=${encodeURIComponent(staffId)}` : PATH, { method: 'DELETE' }),
};

export function useCalendarFeeds() {
  return useQuery({ queryKey: calendarFeedKey, queryFn: ({ signal }) => calendarFeedApi.list(signal) });
}

export function useCreateCalendarFeed() {
  const client = useQueryClient();
  return useMutation({ mutationFn: calendarFeedApi.create, onSuccess: () => client.invalidateQueries({ queryKey: calendarFeedKey }) });
}

export function useRevokeCalendarFeed() {
  const client = useQueryClient();
  return useMutation({ mutationFn: calendarFeedApi.revoke, onSuccess: () => client.invalidateQueries({ queryKey: calendarFeedKey }) });
}
