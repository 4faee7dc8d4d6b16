/** /api/integrations: list, read, update and disconnect by type; ChatGPT setup, test and AI-improve ('user' auth). */
import {
  chatgptAskRequest,
  chatgptSetupRequest,
  chatgptTestRequest,
  integrationMessages,
  integrationTypeParam,
  updateIntegrationRequest,
  type ChatGptSetupInput,
} from '../contract/integrations.js';
import { integrationService } from '../composition/integrations.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

/** Only the fields the caller sent (the schema fills defaults, which must not override stored values). */
function provided<T extends Record<string, unknown>>(parsed: T, raw: unknown): Partial<T> {
  const keys = raw && typeof raw === 'object' ? Object.keys(raw) : [];
  return Object.fromEntries(Object.entries(parsed).filter(([k]) => keys.includes(k))) as Partial<T>;
}

export const routes: RouteTable = {
  'GET /api/integrations': async (req) => ({ data: await integrationService().list(req.userId()) }),
  'POST /api/integrations/chatgpt/setup': async (req) => {
    const userId = req.userId();
    const input = parseWith(chatgptSetupRequest, req.json());
    return { message: integrationMessages.setupSuccess, data: await integrationService().setupChatGpt(userId, input) };
  },
  'POST /api/integrations/chatgpt/test': async (req) => {
    const userId = req.userId();
    const raw = req.json() ?? {};
    const input = provided(parseWith(chatgptTestRequest, raw), raw) as Partial<ChatGptSetupInput>;
    await integrationService().testChatGpt(userId, input);
    return { message: integrationMessages.testSuccess };
  },
  'POST /api/integrations/chatgpt/ask': async (req) => {
    const userId = req.userId();
    const input = parseWith(chatgptAskRequest, req.json());
    return { data: await integrationService().ask(userId, input) };
  },
  'GET /api/integrations/{type}': async (req) => {
    const userId = req.userId();
    const type = parseWith(integrationTypeParam, req.params.type);
    return { data: await integrationService().get(userId, type) };
  },
  'PUT /api/integrations/{type}': async (req) => {
    const userId = req.userId();
    const type = parseWith(integrationTypeParam, req.params.type);
    const input = parseWith(updateIntegrationRequest, req.json());
    return { data: await integrationService().update(userId, type, input) };
  },
  'DELETE /api/integrations/{type}': async (req) => {
    const userId = req.userId();
    const type = parseWith(integrationTypeParam, req.params.type);
    await integrationService().disconnect(userId, type);
    return { message: integrationMessages.disconnected };
  },
};

export const handler = httpGroup(routes);
