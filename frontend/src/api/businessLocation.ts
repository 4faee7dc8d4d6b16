/**
 * The business location (Profile → Business location, issue 31): what the agent's send_location
 * tool sends on WhatsApp. Read by the profile form and by the agent's WhatsApp tools card (which
 * says when send_location is on without one).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BusinessLocation, BusinessLocationInput } from '@agentdesk/functions/contract';
import { request, requestData } from './client';

const PATH = '/api/user/business-location';

export const businessLocationKey = ['business-location'] as const;

export const businessLocationApi = {
  get: (signal?: AbortSignal) => requestData<BusinessLocation | null>(PATH, { signal }),
  save: (input: BusinessLocationInput) => requestData<BusinessLocation>(PATH, { method: 'PUT', body: input }),
  clear: () => request(PATH, { method: 'DELETE' }),
};

/** GET /api/user/business-location: null until the owner saves one. */
export function useBusinessLocation() {
  return useQuery({ queryKey: businessLocationKey, queryFn: async ({ signal }) => (await businessLocationApi.get(signal)) ?? null });
}

export function useSaveBusinessLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: businessLocationApi.save,
    onSuccess: (saved) => queryClient.setQueryData(businessLocationKey, saved),
  });
}

export function useClearBusinessLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: businessLocationApi.clear,
    onSuccess: () => queryClient.setQueryData(businessLocationKey, null),
  });
}

/** A link that opens the coordinates in Google Maps (to check the pin). */
export const mapsLinkOf = (location: Pick<BusinessLocation, 'latitude' | 'longitude'>) =>
  `https://www.google.com/maps/search/?api=1&query=${location.latitude},${location.longitude}`;
