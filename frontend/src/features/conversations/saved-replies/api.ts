/** Saved reply calls (issue 17): list, create, replace, delete; one query shared by the dialog and the reply box's `/` list. */
import { useQuery } from '@tanstack/react-query';
import type { SavedReply, SavedReplyInput } from '@agentdesk/functions/contract';
import { request, requestData } from '../../../api/client';

const BASE = '/api/saved-replies';

export const savedReplyQueryKeys = {
  all: ['saved-replies'] as const,
};

export const savedRepliesApi = {
  list: async (signal?: AbortSignal) => {
    const data = await requestData<unknown>(BASE, { signal });
    return Array.isArray(data) ? (data as SavedReply[]) : [];
  },
  create: (input: SavedReplyInput) => request<SavedReply>(BASE, { method: 'POST', body: input }),
  update: (id: string, input: SavedReplyInput) => request<SavedReply>(`${BASE}/${encodeURIComponent(id)}`, { method: 'PUT', body: input }),
  remove: (id: string) => request(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};

export function useSavedReplies(enabled = true) {
  return useQuery({ queryKey: savedReplyQueryKeys.all, queryFn: ({ signal }) => savedRepliesApi.list(signal), enabled, staleTime: 60_000 });
}
