/**
 * Conversations calls (SPEC §7 Conversations: overview with dateFilter, detail with messages,
 * PUT status/notes, escalate, delete) plus the human reply (POST /{id}/messages {text}, beyond the
 * spec's modal), and the query keys the board and the modal share.
 */
import type {
  AttachmentUploadTicket,
  AssigneeFilterParam,
  Conversation,
  ConversationDateFilter,
  ConversationDetail,
  ConversationMessage,
  ConversationOverview,
  ConversationStatus,
  ResumeAiResult,
} from '@agentdesk/functions/contract';
import { request, requestData } from './client';

const BASE = '/api/conversations';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const conversationKeys = {
  all: ['conversations'] as const,
  overviews: ['conversations', 'overview'] as const,
  overview: (dateFilter: ConversationDateFilter, assignee: AssigneeFilterParam = 'all') => ['conversations', 'overview', dateFilter, assignee] as const,
  detail: (id: string) => ['conversations', 'detail', id] as const,
};

/** A reply: its text, and the upload of a file it sends (the text then is the caption, and may be empty). */
export interface ReplyInput {
  text: string;
  attachment?: { uploadId: string };
}

export interface UpdateConversationInput {
  status?: ConversationStatus;
  notes?: string;
  /** A member's person id (issue 32: any active member of the account), or null to unassign. */
  assignee?: string | null;
}

/** The server answers a change with the conversation; older shapes nest it under `conversation`. */
function conversationOf(data: unknown): Conversation | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const value = 'conversation' in data ? (data as { conversation: unknown }).conversation : data;
  return value && typeof value === 'object' && '_id' in value && 'status' in value ? (value as Conversation) : undefined;
}

export const conversationsApi = {
  /** Today's board when dateFilter is 'today' and every assignee (the server's defaults: those parameters are omitted). */
  overview: (dateFilter: ConversationDateFilter, signal?: AbortSignal, assignee: AssigneeFilterParam = 'all') => {
    const query = new URLSearchParams({ ...(dateFilter === 'today' ? {} : { dateFilter }), ...(assignee === 'all' ? {} : { assignee }) }).toString();
    return requestData<ConversationOverview>(query ? `${BASE}/overview?${query}` : `${BASE}/overview`, { signal });
  },
  get: (id: string, signal?: AbortSignal) => requestData<ConversationDetail>(path(id), { signal }),
  /** Returns the updated conversation when the server sends it. */
  update: async (id: string, input: UpdateConversationInput) =>
    conversationOf((await request<unknown>(path(id), { method: 'PUT', body: input })).data),
  escalate: async (id: string, reason: string) =>
    conversationOf((await request<unknown>(`${path(id)}/escalate`, { method: 'POST', body: { reason } })).data),
  remove: (id: string) => request(path(id), { method: 'DELETE' }),
  /**
   * "Return to AI" (issue 17): the agent answers the conversation again; `left` says how many of
   * the customer's messages nobody answered and whether the AI answers them now (issue 29).
   */
  resumeAi: async (id: string) => {
    const data = (await request<unknown>(`${path(id)}/resume-ai`, { method: 'POST' })).data;
    const result = (data ?? {}) as Partial<ResumeAiResult>;
    return { conversation: conversationOf(data), left: { count: result.leftUnanswered ?? 0, answering: result.answering === true } };
  },
  /** A person's reply as the business, with a file uploaded first (issue 31; the text is its caption); the server refuses it outside the 24-hour window. */
  reply: async (id: string, input: ReplyInput) =>
    (await request<ConversationMessage>(`${path(id)}/messages`, { method: 'POST', body: input.attachment ? input : { text: input.text } })).data,
  /** Where the browser uploads a file to attach to a reply (issue 31): a signed form (postFileToTicket) and its uploadId. */
  requestAttachment: (id: string, file: { fileName: string; mimeType: string; size: number }) =>
    requestData<AttachmentUploadTicket>(`${path(id)}/attachments`, { method: 'POST', body: file }),
};
