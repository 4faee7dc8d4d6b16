/** Web Push (issue 29): the VAPID public key, this account's devices, a test push, which events push. */
import type { PushDevice, PushSettings } from '@agentdesk/functions/contract';
import { request, requestData } from './client';

const BASE = '/api/push';

export const pushKeys = {
  all: ['push'] as const,
  devices: ['push', 'devices'] as const,
  settings: ['push', 'settings'] as const,
};

/** PushSubscription.toJSON() as the API takes it, with the device's name. */
export interface PushSubscriptionBody {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
  label?: string;
}

export const pushApi = {
  publicKey: () => requestData<{ publicKey: string }>(`${BASE}/public-key`),
  devices: async (signal?: AbortSignal) => (await requestData<{ devices: PushDevice[] }>(`${BASE}/devices`, { signal })).devices,
  subscribe: async (body: PushSubscriptionBody) => (await request<{ device: PushDevice }>(`${BASE}/devices`, { method: 'POST', body })).data?.device,
  remove: (id: string) => request(`${BASE}/devices/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  test: (id: string) => request(`${BASE}/devices/${encodeURIComponent(id)}/test`, { method: 'POST' }),
  settings: (signal?: AbortSignal) => requestData<PushSettings>(`${BASE}/settings`, { signal }),
  saveSettings: async (settings: PushSettings) => (await request<PushSettings>(`${BASE}/settings`, { method: 'PUT', body: settings })).data,
};
