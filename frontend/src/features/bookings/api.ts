/**
 * Bookings setup calls (issue 30): the business's rules (GET/PUT /api/bookings/settings), its
 * services and its staff or rooms (list, create, replace, delete), with their React Query hooks.
 * A save refreshes the list it changed (a service names staff, so staff changes refresh both).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BookingService,
  BookingServiceInput,
  BookingSettings,
  BookingSettingsInput,
  BookingStaff,
  BookingStaffInput,
} from '@agentdesk/functions/contract';
import { request, requestData } from '../../api/client';

const BASE = '/api/bookings';

export const bookingQueryKeys = {
  all: ['bookings'] as const,
  settings: ['bookings', 'settings'] as const,
  services: ['bookings', 'services'] as const,
  staff: ['bookings', 'staff'] as const,
};

/** A list answer as an array (the API may wrap it as {items}). */
export function listOf<T>(data: unknown, key?: string): T[] {
  if (Array.isArray(data)) return data as T[];
  if (data && typeof data === 'object') {
    const inner = (key ? (data as Record<string, unknown>)[key] : undefined) ?? (data as { items?: unknown }).items;
    if (Array.isArray(inner)) return inner as T[];
  }
  return [];
}

const item = (kind: 'services' | 'staff', id: string) => `${BASE}/${kind}/${encodeURIComponent(id)}`;

export const bookingsApi = {
  settings: (signal?: AbortSignal) => requestData<BookingSettings>(`${BASE}/settings`, { signal }),
  saveSettings: (input: BookingSettingsInput) => request<BookingSettings>(`${BASE}/settings`, { method: 'PUT', body: input }),
  services: async (signal?: AbortSignal) => listOf<BookingService>(await requestData<unknown>(`${BASE}/services`, { signal }), 'services'),
  createService: (input: BookingServiceInput) => request<BookingService>(`${BASE}/services`, { method: 'POST', body: input }),
  updateService: (id: string, input: BookingServiceInput) => request<BookingService>(item('services', id), { method: 'PUT', body: input }),
  removeService: (id: string) => request(item('services', id), { method: 'DELETE' }),
  staff: async (signal?: AbortSignal) => listOf<BookingStaff>(await requestData<unknown>(`${BASE}/staff`, { signal }), 'staff'),
  createStaff: (input: BookingStaffInput) => request<BookingStaff>(`${BASE}/staff`, { method: 'POST', body: input }),
  updateStaff: (id: string, input: BookingStaffInput) => request<BookingStaff>(item('staff', id), { method: 'PUT', body: input }),
  removeStaff: (id: string) => request(item('staff', id), { method: 'DELETE' }),
};

export function useBookingSettings() {
  return useQuery({ queryKey: bookingQueryKeys.settings, queryFn: ({ signal }) => bookingsApi.settings(signal) });
}

export function useBookingServices() {
  return useQuery({ queryKey: bookingQueryKeys.services, queryFn: ({ signal }) => bookingsApi.services(signal) });
}

export function useBookingStaff() {
  return useQuery({ queryKey: bookingQueryKeys.staff, queryFn: ({ signal }) => bookingsApi.staff(signal) });
}

export function useSaveBookingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bookingsApi.saveSettings,
    onSuccess: (env) => {
      if (env.data) queryClient.setQueryData(bookingQueryKeys.settings, env.data);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: bookingQueryKeys.settings }),
  });
}

/** Create (no id) or replace (id) a service. */
export function useSaveService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: BookingServiceInput }) => (id ? bookingsApi.updateService(id, input) : bookingsApi.createService(input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bookingQueryKeys.services }),
  });
}

export function useDeleteService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => bookingsApi.removeService(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bookingQueryKeys.services }),
  });
}

/** Create (no id) or replace (id) a staff member or room. */
export function useSaveStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: BookingStaffInput }) => (id ? bookingsApi.updateStaff(id, input) : bookingsApi.createStaff(input)),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: bookingQueryKeys.staff }), queryClient.invalidateQueries({ queryKey: bookingQueryKeys.services })]),
  });
}

export function useDeleteStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => bookingsApi.removeStaff(id),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: bookingQueryKeys.staff }), queryClient.invalidateQueries({ queryKey: bookingQueryKeys.services })]),
  });
}
