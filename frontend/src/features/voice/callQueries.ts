/** Server state for the call logs (TanStack Query). The detail polls while the call or its analysis is still running. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { voiceConversationsApi } from '../../api/voiceConversations';
import { callInProgress, type CallLogFilters } from './callFormat';

export const callKeys = {
  all: ['voice-conversations'] as const,
  lists: ['voice-conversations', 'list'] as const,
  list: (filters: CallLogFilters) => ['voice-conversations', 'list', filters] as const,
  detail: (id: string) => ['voice-conversations', 'detail', id] as const,
};

export const POLL_MS = 3_000;

export function useCallList(filters: CallLogFilters) {
  return useQuery({
    queryKey: callKeys.list(filters),
    queryFn: ({ signal }) => voiceConversationsApi.list(filters, signal),
    placeholderData: keepPreviousData,
  });
}

const notFound = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status === 400);

export function useCall(id: string) {
  return useQuery({
    queryKey: callKeys.detail(id),
    queryFn: ({ signal }) => voiceConversationsApi.get(id, signal),
    retry: (count, err) => count < 2 && !notFound(err),
    refetchInterval: (query) => (callInProgress(query.state.data) ? POLL_MS : false),
  });
}

export function isNotFound(err: unknown): boolean {
  return notFound(err);
}

/** POST …/apply-contact; the call (its contact) and the contacts lists reload. */
export function useApplyContact(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => voiceConversationsApi.applyContact(id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: callKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: callKeys.lists }),
        queryClient.invalidateQueries({ queryKey: ['contacts'] }),
      ]),
  });
}
