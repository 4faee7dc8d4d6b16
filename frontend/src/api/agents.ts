/**
 * Agents calls (SPEC §7 Agents: list, create, get, update, delete, enable/disable) and the query
 * keys every agents screen shares: ['agents'] is the list, ['agents', id] one agent. Invalidating
 * ['agents'] refreshes both; the detail tabs invalidate `agentKeys.detail(id)` after a change so
 * the header's counts follow.
 */
import { useQuery } from '@tanstack/react-query';
import type { Agent, UpdateAgentInput } from '@agentdesk/functions/contract';
import { request, requestData } from './client';

const BASE = '/api/agents';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const agentKeys = {
  all: ['agents'] as const,
  /** The list (GET /api/agents); use `exact: true` to refresh only the list. */
  list: ['agents'] as const,
  detail: (id: string) => ['agents', id] as const,
};

export const agentsApi = {
  list: (signal?: AbortSignal) => requestData<Agent[]>(BASE, { signal }),
  get: (id: string, signal?: AbortSignal) => requestData<Agent>(path(id), { signal }),
  create: (name: string) => requestData<Agent>(BASE, { method: 'POST', body: { name } }),
  /** The edit form's fields, or only `enabled` (the list's toggle). Returns the saved agent. */
  update: (id: string, input: UpdateAgentInput) => requestData<Agent>(path(id), { method: 'PUT', body: input }),
  remove: (id: string) => request(path(id), { method: 'DELETE' }),
  enable: (id: string) => requestData<Agent>(`${path(id)}/enable`, { method: 'POST' }),
  disable: (id: string) => requestData<Agent>(`${path(id)}/disable`, { method: 'POST' }),
};

/** GET /api/agents. */
export function useAgents() {
  return useQuery({ queryKey: agentKeys.list, queryFn: ({ signal }) => agentsApi.list(signal) });
}

/** GET /api/agents/{id}; a 404 is not retried (the page shows 'Agent not found'). */
export function useAgent(id: string) {
  return useQuery({ queryKey: agentKeys.detail(id), queryFn: ({ signal }) => agentsApi.get(id, signal), enabled: id !== '' });
}
