/** /api/agents/{id}/entries and /api/agents/{id}/unanswered: what the owner teaches the agent ('user' auth). */
import { agentMessages, answerUnansweredRequest, dismissUnansweredRequest, knowledgeEntryRequest } from '../contract/agents.js';
import { agentKnowledge } from '../composition/agent-knowledge.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'GET /api/agents/{id}/entries': async (req) => ({ data: await agentKnowledge().listEntries(req.userId(), req.params.id ?? '') }),
  'POST /api/agents/{id}/entries': async (req) => {
    const userId = req.userId();
    const input = parseWith(knowledgeEntryRequest, req.json());
    return { status: 201, message: agentMessages.entryCreated, data: await agentKnowledge().createEntry(userId, req.params.id ?? '', input) };
  },
  'PUT /api/agents/{id}/entries/{entryId}': async (req) => {
    const userId = req.userId();
    const input = parseWith(knowledgeEntryRequest, req.json());
    return {
      message: agentMessages.entryUpdated,
      data: await agentKnowledge().updateEntry(userId, req.params.id ?? '', req.params.entryId ?? '', input),
    };
  },
  'DELETE /api/agents/{id}/entries/{entryId}': async (req) => {
    await agentKnowledge().deleteEntry(req.userId(), req.params.id ?? '', req.params.entryId ?? '');
    return { message: agentMessages.entryDeleted };
  },
  'GET /api/agents/{id}/unanswered': async (req) => ({ data: await agentKnowledge().listUnanswered(req.userId(), req.params.id ?? '') }),
  'POST /api/agents/{id}/unanswered/answer': async (req) => {
    const userId = req.userId();
    const input = parseWith(answerUnansweredRequest, req.json());
    return { status: 201, message: agentMessages.unansweredAnswered, data: await agentKnowledge().answerUnanswered(userId, req.params.id ?? '', input) };
  },
  'POST /api/agents/{id}/unanswered/dismiss': async (req) => {
    const userId = req.userId();
    const { ids } = parseWith(dismissUnansweredRequest, req.json());
    return { message: agentMessages.unansweredDismissed, data: await agentKnowledge().dismissUnanswered(userId, req.params.id ?? '', ids) };
  },
};

export const handler = httpGroup(routes);
