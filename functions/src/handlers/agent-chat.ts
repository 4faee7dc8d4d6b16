/** /api/agents/{id}/chat and /api/agents/chat: one turn of the agent runtime (the Test Agent tab). */
import { chatRequest } from '../contract/agents.js';
import { agentChat } from '../composition/agent-chat.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { apiKeyGuard } from '../http/api-key-auth.js';

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
};

export const handler = httpGroup(routes, { apiKeys: apiKeyGuard });
