/**
 * "Answer waiting messages" (issue 34): POST /api/conversations/{id}/answer-waiting for one
 * conversation, /api/conversations/answer-waiting for all of them; the board and the open
 * conversation reload after (the answers arrive through the queue, so they poll as usual).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AnswerWaitingResult } from '@agentdesk/functions/contract';
import { conversationKeys } from '../../../api/conversations';
import { request } from '../../../api/client';

const EMPTY: AnswerWaitingResult = { queued: 0, messages: 0, skipped: 0 };

export const waitingApi = {
  answerConversation: async (id: string) =>
    (await request<AnswerWaitingResult>(`/api/conversations/${encodeURIComponent(id)}/answer-waiting`, { method: 'POST' })).data ?? EMPTY,
  answerAll: async () => (await request<AnswerWaitingResult>('/api/conversations/answer-waiting', { method: 'POST' })).data ?? EMPTY,
};

/** One conversation's waiting messages (id), or every waiting conversation's (null). */
export function useAnswerWaiting(id: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => (id ? waitingApi.answerConversation(id) : waitingApi.answerAll()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationKeys.all }),
  });
}
