/**
 * Server state of the Knowledge tab (TanStack Query), under the agent's own key so refreshing the
 * agent refreshes them. Answering an unanswered question adds an entry, so it refreshes both.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Agent, AnswerUnansweredInput, KnowledgeEntry, KnowledgeEntryInput, UnansweredGroup } from '@agentdesk/functions/contract';
import { agentKeys } from '../../../../api/agents';
import { useRefreshAgent } from '../queries';
import { knowledgeApi } from './api';

export const knowledgeKeys = {
  entries: (agentId: string) => [...agentKeys.detail(agentId), 'entries'] as const,
  unanswered: (agentId: string) => [...agentKeys.detail(agentId), 'unanswered'] as const,
};

export function useEntries(agent: Agent) {
  const fallback = agent.entries ?? [];
  const query = useQuery({
    queryKey: knowledgeKeys.entries(agent._id),
    queryFn: ({ signal }) => knowledgeApi.listEntries(agent._id, signal),
    placeholderData: fallback,
  });
  return { ...query, entries: query.data ?? fallback };
}

/** The open groups, most asked first (the server's order). Also feeds the tab's badge. */
export function useUnanswered(agentId: string) {
  return useQuery({
    queryKey: knowledgeKeys.unanswered(agentId),
    queryFn: ({ signal }) => knowledgeApi.listUnanswered(agentId, signal),
    retry: 1,
  });
}

export function useSaveEntry(agentId: string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshAgent(agentId);
  return useMutation({
    mutationFn: ({ entryId, input }: { entryId: string | null; input: KnowledgeEntryInput }) =>
      entryId ? knowledgeApi.updateEntry(agentId, entryId, input) : knowledgeApi.createEntry(agentId, input),
    onSuccess: (res) => {
      const saved = res.data;
      if (saved?._id) {
        queryClient.setQueryData<KnowledgeEntry[]>(knowledgeKeys.entries(agentId), (old) => [...(old ?? []).filter((e) => e._id !== saved._id), saved]);
      }
      void refresh();
    },
  });
}

export function useDeleteEntry(agentId: string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshAgent(agentId);
  return useMutation({
    mutationFn: (entryId: string) => knowledgeApi.deleteEntry(agentId, entryId),
    onSuccess: (_res, entryId) => {
      queryClient.setQueryData<KnowledgeEntry[]>(knowledgeKeys.entries(agentId), (old) => old?.filter((e) => e._id !== entryId));
      void refresh();
    },
  });
}

/** Drops the answered or dismissed group from the list at once (the refetch confirms it). */
function useDropGroup(agentId: string) {
  const queryClient = useQueryClient();
  return (ids: readonly string[]) =>
    queryClient.setQueryData<UnansweredGroup[]>(knowledgeKeys.unanswered(agentId), (old) =>
      old?.filter((g) => !g.questions.some((q) => ids.includes(q._id))),
    );
}

export function useAnswerUnanswered(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const drop = useDropGroup(agentId);
  return useMutation({
    mutationFn: (input: AnswerUnansweredInput) => knowledgeApi.answerUnanswered(agentId, input),
    onSuccess: (_res, input) => {
      drop(input.ids);
      void refresh();
    },
  });
}

export function useDismissUnanswered(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const drop = useDropGroup(agentId);
  return useMutation({
    mutationFn: (ids: string[]) => knowledgeApi.dismissUnanswered(agentId, ids),
    onSuccess: (_res, ids) => {
      drop(ids);
      void refresh();
    },
  });
}
