/**
 * Server state of the board and the modal (TanStack Query). The board polls so new WhatsApp
 * messages show up without a refresh; the open conversation polls faster. After a change the
 * conversation moves to its new status's column, placed first (SPEC §4), and the overview reloads;
 * a deleted one is removed and the overview reloads.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AssigneeFilterParam, Conversation, ConversationDateFilter, ConversationDetail, ConversationOverview } from '@agentdesk/functions/contract';
import { conversationKeys, conversationsApi, type ReplyInput, type UpdateConversationInput } from '../../api/conversations';
import { placeOnBoard, removeFromBoard } from './format';

const BOARD_POLL_MS = 15_000;
const DETAIL_POLL_MS = 5_000;

export function useConversationOverview(dateFilter: ConversationDateFilter, assignee: AssigneeFilterParam = 'all') {
  return useQuery({
    queryKey: conversationKeys.overview(dateFilter, assignee),
    queryFn: ({ signal }) => conversationsApi.overview(dateFilter, signal, assignee),
    placeholderData: keepPreviousData,
    refetchInterval: BOARD_POLL_MS,
  });
}

const notFound = (err: unknown) => !!err && typeof err === 'object' && 'status' in err && (err.status === 404 || err.status === 400);

export function useConversation(id: string | null) {
  return useQuery({
    queryKey: conversationKeys.detail(id ?? ''),
    queryFn: ({ signal }) => conversationsApi.get(id ?? '', signal),
    enabled: !!id,
    refetchInterval: DETAIL_POLL_MS,
    retry: (count, err) => count < 2 && !notFound(err),
  });
}

/** Moves the changed conversation on every cached board (placed first), refreshes its detail and reloads the overview. */
function afterChange(queryClient: QueryClient, id: string, conversation: Conversation | undefined) {
  if (conversation) {
    queryClient.setQueriesData<ConversationOverview>({ queryKey: conversationKeys.overviews }, (board) => (board ? placeOnBoard(board, conversation) : board));
    queryClient.setQueryData<ConversationDetail>(conversationKeys.detail(id), (detail) => (detail ? { ...detail, conversation } : detail));
  }
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: conversationKeys.overviews }),
    queryClient.invalidateQueries({ queryKey: conversationKeys.detail(id) }),
  ]);
}

export function useUpdateConversation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateConversationInput) => conversationsApi.update(id, input),
    onSuccess: (conversation) => afterChange(queryClient, id, conversation),
  });
}

export function useEscalateConversation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => conversationsApi.escalate(id, reason),
    onSuccess: (conversation) => afterChange(queryClient, id, conversation),
  });
}

/** "Return to AI" (issue 17): the card and the modal show the AI answering again. */
export function useResumeAi(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => conversationsApi.resumeAi(id),
    onSuccess: ({ conversation }) => afterChange(queryClient, id, conversation),
  });
}

export function useDeleteConversation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => conversationsApi.remove(id),
    onSuccess: () => {
      queryClient.setQueriesData<ConversationOverview>({ queryKey: conversationKeys.overviews }, (board) => (board ? removeFromBoard(board, id) : board));
      // The modal closes on success; its cached detail is dropped by the garbage collector.
      return queryClient.invalidateQueries({ queryKey: conversationKeys.overviews });
    },
  });
}

export function useReplyToConversation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReplyInput) => conversationsApi.reply(id, input),
    onSuccess: () => afterChange(queryClient, id, undefined),
  });
}
