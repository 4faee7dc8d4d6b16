/** Server state of the Message Hub (TanStack Query); retry and delete refresh the lists and the stats. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TimeFilter } from '@agentdesk/functions/contract';
import { messageKeys, messagesApi } from '../../api/messages';
import { listQuery, type MessageFilters } from './model';

export function useMessageList(filters: MessageFilters) {
  const query = listQuery(filters);
  return useQuery({
    queryKey: messageKeys.list(query),
    queryFn: ({ signal }) => messagesApi.list(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useMessageStats(timeFilter: TimeFilter) {
  return useQuery({
    queryKey: messageKeys.stats(timeFilter),
    queryFn: ({ signal }) => messagesApi.stats(timeFilter, signal),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateMessages() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: messageKeys.all });
}

export function useRetryMessage() {
  const invalidate = useInvalidateMessages();
  return useMutation({ mutationFn: (id: string) => messagesApi.retry(id), onSettled: () => invalidate() });
}

export function useDeleteMessage() {
  const invalidate = useInvalidateMessages();
  return useMutation({ mutationFn: (id: string) => messagesApi.remove(id), onSuccess: () => invalidate() });
}
