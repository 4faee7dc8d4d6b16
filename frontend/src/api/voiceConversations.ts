/** Voice call logs (SPEC §7 Voice: GET /api/voice-conversations and /{id}; the recording and apply-contact calls). */
import type {
  ApplyContactField,
  ApplyContactPreview,
  ApplyContactResult,
  UndoApplyContactResult,
  VoiceConversation,
  VoiceConversationList,
} from '@agentdesk/functions/contract';

/** Where a call's summary e-mail stands (issue 34). */
export type SummaryEmailDelivery = NonNullable<VoiceConversation['summaryEmail']>;
import { request, requestData, requestResponse } from './client';

const BASE = '/api/voice-conversations';

export interface CallListParams {
  page: number;
  search: string;
  limit?: number;
}

export function callListQuery({ page, search, limit }: CallListParams): string {
  const q = new URLSearchParams({ page: String(page) });
  if (limit) q.set('limit', String(limit));
  if (search) q.set('search', search);
  return q.toString();
}

export const voiceConversationsApi = {
  list: (params: CallListParams, signal?: AbortSignal) => requestData<VoiceConversationList>(`${BASE}?${callListQuery(params)}`, { signal }),
  get: async (id: string, signal?: AbortSignal) =>
    (await requestData<{ conversation: VoiceConversation }>(`${BASE}/${encodeURIComponent(id)}`, { signal })).conversation,
  /** The recording as audio (the call is authenticated, so an <audio src> cannot fetch it by itself). */
  recording: async (id: string, signal?: AbortSignal): Promise<Blob> => {
    const res = await requestResponse(`${BASE}/${encodeURIComponent(id)}/recording`, { signal, timeoutMs: 60_000 });
    return res.blob();
  },
  /** What applying the AI analysis would change, field by field (issue 17). */
  applyContactPreview: (id: string, signal?: AbortSignal) =>
    requestData<ApplyContactPreview>(`${BASE}/${encodeURIComponent(id)}/apply-contact/preview`, { signal }),
  /** Writes only the chosen fields to the call's contact (created when there is none); the answer carries the undo token. */
  applyContact: (id: string, fields: ApplyContactField[]) =>
    request<ApplyContactResult>(`${BASE}/${encodeURIComponent(id)}/apply-contact`, { method: 'POST', body: { fields } }),
  /** Queues the summary e-mail again (issue 34); answers its delivery state. */
  resendSummary: (id: string) =>
    request<{ summaryEmail: SummaryEmailDelivery }>(`${BASE}/${encodeURIComponent(id)}/resend-summary`, { method: 'POST' }),
  /** Undoes one apply (once, within 10 minutes). */
  undoApplyContact: (id: string, token: string) =>
    request<UndoApplyContactResult>(`${BASE}/${encodeURIComponent(id)}/apply-contact/undo`, { method: 'POST', body: { token } }),
};
