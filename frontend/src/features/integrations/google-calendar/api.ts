/** The Google Calendar connection (issue 30): status, connect (Google's consent URL), the calendar choices, disconnect. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GoogleCalendarSettingsInput, GoogleCalendarStatus } from '@agentdesk/functions/contract';
import { request, requestData } from '../../../api/client';

const PATH = '/api/integrations/google-calendar';
export const googleCalendarKey = ['integrations', 'google-calendar'] as const;

export const googleCalendarApi = {
  status: (signal?: AbortSignal) => requestData<GoogleCalendarStatus>(PATH, { signal }),
  connect: () => requestData<{ url: string }>(`${PATH}/connect`, { method: 'POST' }),
  save: (input: GoogleCalendarSettingsInput) => requestData<GoogleCalendarStatus>(PATH, { method: 'PUT', body: input }),
  disconnect: () => request(PATH, { method: 'DELETE' }),
};

export function useGoogleCalendar() {
  return useQuery({ queryKey: googleCalendarKey, queryFn: ({ signal }) => googleCalendarApi.status(signal) });
}

export function useSaveGoogleCalendar() {
  const client = useQueryClient();
  return useMutation({ mutationFn: googleCalendarApi.save, onSuccess: (data) => client.setQueryData(googleCalendarKey, data) });
}

export function useDisconnectGoogleCalendar() {
  const client = useQueryClient();
  return useMutation({ mutationFn: googleCalendarApi.disconnect, onSuccess: () => client.invalidateQueries({ queryKey: googleCalendarKey }) });
}
