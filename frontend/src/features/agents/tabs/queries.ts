/**
 * Server state of the agent detail tabs (TanStack Query). The lists live under the agent's own key
 * (`agentKeys.detail(id)` + kind), so refreshing the agent refreshes them too; every change refreshes
 * the agent as well, so the header's counts follow. Lists with pending items poll every 2 s.
 */
import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Agent, AgentFile, AgentTool, AgentUrl, ToolInput } from '@agentdesk/functions/contract';
import { agentKeys } from '../../../api/agents';
import { agentKnowledgeApi } from '../../../api/agentKnowledge';
import { requestData } from '../../../api/client';

export const POLL_INTERVAL_MS = 2000;

export const tabKeys = {
  files: (agentId: string) => [...agentKeys.detail(agentId), 'files'] as const,
  urls: (agentId: string) => [...agentKeys.detail(agentId), 'urls'] as const,
  tools: (agentId: string) => [...agentKeys.detail(agentId), 'tools'] as const,
};

/**
 * Whether the business has something to book (the Bookings card, issue 30): at least one service
 * and one staff member or room. Under the bookings key, so a change on the setup page refreshes it.
 */
export function useBookingsSetUp() {
  return useQuery({
    queryKey: ['bookings', 'set-up'] as const,
    queryFn: async ({ signal }) => {
      const [services, staff] = await Promise.all([
        requestData<unknown[]>('/api/bookings/services', { signal }),
        requestData<unknown[]>('/api/bookings/staff', { signal }),
      ]);
      return Array.isArray(services) && services.length > 0 && Array.isArray(staff) && staff.length > 0;
    },
  });
}

/** Whether a list still has items the workers are processing. */
export function hasPending(items: readonly { status: string }[] | undefined): boolean {
  return Boolean(items?.some((item) => item.status === 'pending'));
}

/** Read failures are only logged (SPEC §8); the list then keeps showing what the agent carried. */
function logged<T>(kind: string, read: Promise<T>): Promise<T> {
  return read.catch((err: unknown) => {
    console.error(`Failed to load ${kind}`, err);
    throw err;
  });
}

export function useAgentFiles(agent: Agent) {
  const query = useQuery({
    queryKey: tabKeys.files(agent._id),
    queryFn: ({ signal }) => logged('files', agentKnowledgeApi.listFiles(agent._id, signal)),
    placeholderData: agent.files,
    refetchInterval: (q) => (hasPending(q.state.data ?? agent.files) ? POLL_INTERVAL_MS : false),
  });
  return { ...query, files: query.data ?? agent.files };
}

export function useAgentUrls(agent: Agent) {
  const query = useQuery({
    queryKey: tabKeys.urls(agent._id),
    queryFn: ({ signal }) => logged('URLs', agentKnowledgeApi.listUrls(agent._id, signal)),
    placeholderData: agent.urls,
    refetchInterval: (q) => (hasPending(q.state.data ?? agent.urls) ? POLL_INTERVAL_MS : false),
  });
  return { ...query, urls: query.data ?? agent.urls };
}

export function useAgentTools(agent: Agent) {
  const query = useQuery({
    queryKey: tabKeys.tools(agent._id),
    queryFn: ({ signal }) => logged('tools', agentKnowledgeApi.listTools(agent._id, signal)),
    placeholderData: agent.tools,
  });
  return { ...query, tools: query.data ?? agent.tools };
}

/** After a change: the agent (its counts) and, by prefix, every list of it. */
export function useRefreshAgent(agentId: string) {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: agentKeys.detail(agentId) }), [queryClient, agentId]);
}

/** Puts a changed item into a cached list at once (the refetch that follows confirms it). */
function useUpsert<T extends { _id: string }>(key: readonly unknown[]) {
  const queryClient = useQueryClient();
  return (items: T[], removeIds: string[] = []) =>
    queryClient.setQueryData<T[]>(key, (old) => {
      const byId = new Map((old ?? []).filter((x) => !removeIds.includes(x._id)).map((x) => [x._id, x]));
      for (const item of items) byId.set(item._id, item);
      return [...byId.values()];
    });
}

export function useDeleteFile(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const upsert = useUpsert<AgentFile>(tabKeys.files(agentId));
  return useMutation({
    mutationFn: (fileId: string) => agentKnowledgeApi.deleteFile(agentId, fileId),
    onSuccess: (_res, fileId) => {
      upsert([], [fileId]);
      void refresh();
    },
  });
}

/** Reprocess a file that failed: its row goes back to pending at once, and the list polls until it settles. */
export function useReprocessFile(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const upsert = useUpsert<AgentFile>(tabKeys.files(agentId));
  return useMutation({
    mutationFn: (fileId: string) => agentKnowledgeApi.reprocessFile(agentId, fileId),
    onSuccess: (res) => {
      if (res.data?._id) upsert([res.data]);
      void refresh();
    },
  });
}

/** The file's "can be sent to customers" switch (issue 31); the agent refreshes so its WhatsApp tools card follows. */
export function useSetFileShareable(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const upsert = useUpsert<AgentFile>(tabKeys.files(agentId));
  return useMutation({
    mutationFn: ({ fileId, shareable }: { fileId: string; shareable: boolean }) => agentKnowledgeApi.setFileShareable(agentId, fileId, shareable),
    onSuccess: (res) => {
      if (res.data?._id) upsert([res.data]);
      void refresh();
    },
  });
}

export function useAddUrls(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const upsert = useUpsert<AgentUrl>(tabKeys.urls(agentId));
  return useMutation({
    mutationFn: (urls: string[]) => agentKnowledgeApi.addUrls(agentId, urls),
    onSuccess: (res) => {
      if (Array.isArray(res.data)) upsert(res.data);
      void refresh();
    },
  });
}

export function useRefreshUrl(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const upsert = useUpsert<AgentUrl>(tabKeys.urls(agentId));
  return useMutation({
    mutationFn: (urlId: string) => agentKnowledgeApi.refreshUrl(agentId, urlId),
    onSuccess: (res) => {
      if (res.data?._id) upsert([res.data]);
      void refresh();
    },
  });
}

/** Reprocess a URL that failed (read again from its link). */
export function useReprocessUrl(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const upsert = useUpsert<AgentUrl>(tabKeys.urls(agentId));
  return useMutation({
    mutationFn: (urlId: string) => agentKnowledgeApi.reprocessUrl(agentId, urlId),
    onSuccess: (res) => {
      if (res.data?._id) upsert([res.data]);
      void refresh();
    },
  });
}

export function useDeleteUrl(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const upsert = useUpsert<AgentUrl>(tabKeys.urls(agentId));
  return useMutation({
    mutationFn: (urlId: string) => agentKnowledgeApi.deleteUrl(agentId, urlId),
    onSuccess: (_res, urlId) => {
      upsert([], [urlId]);
      void refresh();
    },
  });
}

export function useSaveTool(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const upsert = useUpsert<AgentTool>(tabKeys.tools(agentId));
  return useMutation({
    mutationFn: ({ toolId, input }: { toolId: string | null; input: ToolInput }) =>
      toolId ? agentKnowledgeApi.updateTool(agentId, toolId, input) : agentKnowledgeApi.createTool(agentId, input),
    onSuccess: (res) => {
      if (res.data?._id) upsert([res.data]);
      void refresh();
    },
  });
}

export function useDeleteTool(agentId: string) {
  const refresh = useRefreshAgent(agentId);
  const upsert = useUpsert<AgentTool>(tabKeys.tools(agentId));
  return useMutation({
    mutationFn: (toolId: string) => agentKnowledgeApi.deleteTool(agentId, toolId),
    onSuccess: (_res, toolId) => {
      upsert([], [toolId]);
      void refresh();
    },
  });
}
