/**
 * API key calls (SPEC §7 API keys, issue 8): list, create (the key comes back once), regenerate
 * (a new key, once; the old one stops working) and delete.
 */
import type { ApiKeyView, CreatedApiKey } from '@agentdesk/functions/contract';
import { request, requestData } from '../../api/client';

const BASE = '/api/api-keys';

export const apiKeyQueryKeys = {
  all: ['api-keys'] as const,
};

/** The list may come as an array or wrapped as {apiKeys} / {items}. */
export function apiKeyList(data: unknown): ApiKeyView[] {
  if (Array.isArray(data)) return data as ApiKeyView[];
  if (data && typeof data === 'object') {
    const inner = (data as { apiKeys?: unknown }).apiKeys ?? (data as { items?: unknown }).items;
    if (Array.isArray(inner)) return inner as ApiKeyView[];
  }
  return [];
}

export const apiKeysApi = {
  list: async (signal?: AbortSignal) => apiKeyList(await requestData<unknown>(BASE, { signal })),
  create: (name: string) => request<CreatedApiKey>(BASE, { method: 'POST', body: { name } }),
  regenerate: (id: string) => request<CreatedApiKey>(`${BASE}/${encodeURIComponent(id)}/regenerate`, { method: 'PUT', body: {} }),
  remove: (id: string) => request(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};
