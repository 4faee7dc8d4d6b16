/**
 * /api/agents/{id}/chat and /api/agents/chat: one turn of the agent runtime (the Test Agent tab);
 * also what the owner teaches the agent: /api/agents/{id}/entries and /api/agents/{id}/unanswered
 * ('user' auth; in this function rather than one of their own, see routes.ts).
 */
import { agentMessages, answerUnansweredRequest, chatRequest, dismissUnansweredRequest, knowledgeEntryRequest } from '../contract/agents.js';
import { agentKnowledge } from '../composition/agent-knowledge.js';
import { agentChat } from '../composition/agent-chat.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { apiKeyGuard } from '../http/api-key-auth.js';
import { recordRouteActivity } from '../composition/activity.js';

export const routes: RouteTable = {
  'POST /api/agents/{id}/chat': async (req) => {
    const userId = req.userId();
    const input = parseWith(chatRequest, req.json());
    return { data: await agentChat().chat(userId, req.params.id ?? '', input) };
  },
  'POST /api/agents/chat': async (req) => {
    const userId = req.userId();
    const input = parseWith(chatRequest, req.json());
    return { data: await agentChat().chat(userId, null, input) };
  },
  // Knowledge entries and unanswered questions (issue 18)
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

export const handler = httpGroup(routes, { apiKeys: apiKeyGuard, activity: recordRouteActivity });
