/**
 * The Knowledge tab's calls (issue 18): the agent's knowledge entries (CRUD) and its unanswered
 * questions (grouped list, answer → a knowledge entry, dismiss). Settings go through PUT /api/agents/{id}.
 */
import type { AnswerUnansweredInput, KnowledgeEntry, KnowledgeEntryInput, UnansweredGroup } from '@agentdesk/functions/contract';
import { request, requestData } from '../../../../api/client';

const agentPath = (agentId: string) => `/api/agents/${encodeURIComponent(agentId)}`;
const entryPath = (agentId: string, entryId: string) => `${agentPath(agentId)}/entries/${encodeURIComponent(entryId)}`;

export const knowledgeApi = {
  listEntries: (agentId: string, signal?: AbortSignal) => requestData<KnowledgeEntry[]>(`${agentPath(agentId)}/entries`, { signal }),
  createEntry: (agentId: string, input: KnowledgeEntryInput) => request<KnowledgeEntry>(`${agentPath(agentId)}/entries`, { method: 'POST', body: input }),
  updateEntry: (agentId: string, entryId: string, input: KnowledgeEntryInput) => request<KnowledgeEntry>(entryPath(agentId, entryId), { method: 'PUT', body: input }),
  deleteEntry: (agentId: string, entryId: string) => request(entryPath(agentId, entryId), { method: 'DELETE' }),

  listUnanswered: async (agentId: string, signal?: AbortSignal) =>
    (await requestData<{ groups: UnansweredGroup[] }>(`${agentPath(agentId)}/unanswered`, { signal })).groups ?? [],
  answerUnanswered: (agentId: string, input: AnswerUnansweredInput) =>
    request<KnowledgeEntry>(`${agentPath(agentId)}/unanswered/answer`, { method: 'POST', body: input }),
  dismissUnanswered: (agentId: string, ids: string[]) => request(`${agentPath(agentId)}/unanswered/dismiss`, { method: 'POST', body: { ids } }),
};
