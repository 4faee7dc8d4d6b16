/**
 * Message Hub calls (SPEC §7 Messages): the list (page, limit 20, search, status, fromMe,
 * timeFilter; `pagination` beside `data`), the stats for a time filter, retry of a failed
 * outgoing message and delete. Query keys: ['messages'] covers the lists and the stats.
 */
import type { Message, MessageListResponse, MessageStats, TimeFilter } from '@agentdesk/functions/contract';
import { request, requestBody, requestData } from './client';

const BASE = '/api/messages';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const messageKeys = {
  all: ['messages'] as const,
  lists: ['messages', 'list'] as const,
  /** `query` is the list's query string (page, limit, filters). */
  list: (query: string) => ['messages', 'list', query] as const,
  stats: (timeFilter: TimeFilter) => ['messages', 'stats', timeFilter] as const,
};

export const messagesApi = {
  /** `query` is the page/limit/search/status/fromMe/timeFilter query string. */
  list: (query: string, signal?: AbortSignal) => requestBody<MessageListResponse>(`${BASE}?${query}`, { signal }),
  stats: (timeFilter: TimeFilter, signal?: AbortSignal) =>
    requestData<MessageStats>(`${BASE}/stats?${new URLSearchParams({ timeFilter }).toString()}`, { signal }),
  get: (id: string, signal?: AbortSignal) => requestData<Message>(path(id), { signal }),
  /** POST /api/messages/{id}/retry: sends a failed outgoing message again ('Message retry initiated'). */
  retry: (id: string) => request<Message>(`${path(id)}/retry`, { method: 'POST' }),
  remove: (id: string) => request(path(id), { method: 'DELETE' }),
};
