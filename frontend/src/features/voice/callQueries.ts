/** Server state for the call logs (TanStack Query). The detail polls while the call or its analysis is still running. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApplyContactField } from '@agentdesk/functions/contract';
import { ApiError } from '../../api/client';
import { voiceConversationsApi } from '../../api/voiceConversations';
import { callInProgress, type CallLogFilters } from './callFormat';

export const callKeys = {
  all: ['voice-conversations'] as const,
  lists: ['voice-conversations', 'list'] as const,
  list: (filters: CallLogFilters) => ['voice-conversations', 'list', filters] as const,
  detail: (id: string) => ['voice-conversations', 'detail', id] as const,
  applyPreview: (id: string) => ['voice-conversations', 'apply-preview', id] as const,
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

/** GET …/apply-contact/preview while the dialog is open (always fresh: the contact may have changed). */
export function useApplyContactPreview(id: string, enabled: boolean) {
  return useQuery({
    queryKey: callKeys.applyPreview(id),
    queryFn: ({ signal }) => voiceConversationsApi.applyContactPreview(id, signal),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** After an apply or its undo: the call (its contact), the call lists and the contacts reload. */
function useReloadAfterContactChange(id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: callKeys.detail(id) }),
      queryClient.invalidateQueries({ queryKey: callKeys.lists }),
      queryClient.invalidateQueries({ queryKey: ['contacts'] }),
    ]);
}

/** POST …/apply-contact with the chosen fields. */
export function useApplyContact(id: string) {
  const reload = useReloadAfterContactChange(id);
  return useMutation({
    mutationFn: (fields: ApplyContactField[]) => voiceConversationsApi.applyContact(id, fields),
    onSuccess: reload,
  });
}

/** POST …/apply-contact/undo with the token of the apply. */
export function useUndoApplyContact(id: string) {
  const reload = useReloadAfterContactChange(id);
  return useMutation({
    mutationFn: (token: string) => voiceConversationsApi.undoApplyContact(id, token),
    onSettled: reload,
  });
}

/** POST …/resend-summary (issue 34): the summary e-mail queued again; the call reloads (and polls while it is on its way). */
export function useResendSummary(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => voiceConversationsApi.resendSummary(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: callKeys.detail(id) }),
  });
}
