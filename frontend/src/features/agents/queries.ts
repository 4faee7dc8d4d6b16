/**
 * Agent changes (create, save, delete, enable/disable, the list's toggle). The screen uses the
 * returned agent (SPEC §4): it replaces the cached detail and its card in the list.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Agent, UpdateAgentInput } from '@agentdesk/functions/contract';
import { agentKeys, agentsApi } from '../../api/agents';

function storeAgent(queryClient: QueryClient, agent: Agent): void {
  queryClient.setQueryData<Agent>(agentKeys.detail(agent._id), agent);
  queryClient.setQueryData<Agent[]>(agentKeys.list, (list) => list?.map((a) => (a._id === agent._id ? agent : a)));
}

function refreshList(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: agentKeys.list, exact: true });
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => agentsApi.create(name),
    onSuccess: (agent) => {
      queryClient.setQueryData<Agent[]>(agentKeys.list, (list) => (list ? [...list, agent] : list));
      queryClient.setQueryData<Agent>(agentKeys.detail(agent._id), agent);
      void refreshList(queryClient);
    },
  });
}

export function useUpdateAgent(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateAgentInput) => agentsApi.update(id, input),
    onSuccess: (agent) => {
      storeAgent(queryClient, agent);
      void refreshList(queryClient);
    },
  });
}

/** The list's switch: PUT {enabled} (SPEC §7 "Agent toggle from the list sends enabled"). */
export function useToggleAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => agentsApi.update(id, { enabled }),
    onSuccess: (agent) => storeAgent(queryClient, agent),
  });
}

/** The detail header's button: POST /enable or /disable. */
export function useSetAgentEnabled(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => (enabled ? agentsApi.enable(id) : agentsApi.disable(id)),
    onSuccess: (agent) => {
      storeAgent(queryClient, agent);
      void refreshList(queryClient);
    },
  });
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => agentsApi.remove(id),
    onSuccess: (_res, id) => {
      queryClient.setQueryData<Agent[]>(agentKeys.list, (list) => list?.filter((a) => a._id !== id));
      queryClient.removeQueries({ queryKey: agentKeys.detail(id) });
      void refreshList(queryClient);
    },
  });
}
