/**
 * Admin calls (SPEC §6: an admin assigns phone numbers): the phone-number requests across users,
 * approve, reject (with an optional reason) and assign a number (the user gets an e-mail).
 */
import type { PhoneRequestAdminView, PhoneRequestStatus } from '@agentdesk/functions/contract';
import { request, requestData } from './client';

const BASE = '/api/admin/phone-requests';

export const adminKeys = {
  all: ['admin'] as const,
  phoneRequests: (status: PhoneRequestStatus | '') => ['admin', 'phone-requests', status] as const,
};

/** The list may come as an array or wrapped as {requests}. */
function listOf(data: unknown): PhoneRequestAdminView[] {
  if (Array.isArray(data)) return data as PhoneRequestAdminView[];
  if (data && typeof data === 'object') {
    const inner = (data as { requests?: unknown; items?: unknown }).requests ?? (data as { items?: unknown }).items;
    if (Array.isArray(inner)) return inner as PhoneRequestAdminView[];
  }
  return [];
}

export const adminApi = {
  phoneRequests: async (status: PhoneRequestStatus | '', signal?: AbortSignal) => {
    const query = status ? `?${new URLSearchParams({ status })}` : '';
    return listOf(await requestData<unknown>(`${BASE}${query}`, { signal }));
  },
  approve: (userId: string) => request(`${BASE}/${encodeURIComponent(userId)}/approve`, { method: 'POST', body: {} }),
  reject: (userId: string, reason: string) => request(`${BASE}/${encodeURIComponent(userId)}/reject`, { method: 'POST', body: { reason } }),
  assign: (userId: string, number: string) => request(`${BASE}/${encodeURIComponent(userId)}/assign`, { method: 'POST', body: { number } }),
};
