/** /api/integrations: list, read, update and disconnect by type; ChatGPT setup, test and AI-improve; WhatsApp setup and test ('user' auth). */
import * as z from 'zod/mini';
import {
  chatgptAskRequest,
  chatgptSetupRequest,
  chatgptTestRequest,
  integrationMessages,
  integrationTypeParam,
  updateIntegrationRequests,
  type ChatGptSetupInput,
} from '../contract/integrations.js';
import { whatsappMessages, whatsappSetupRequest, type WhatsAppSetupInput } from '../contract/whatsapp.js';
import { integrationService, whatsappIntegrationService } from '../composition/integrations.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

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
  'POST /api/integrations/whatsapp-business/setup': async (req) => {
    const userId = req.userId();
    const input = parseWith(whatsappSetupRequest, req.json());
    return { message: whatsappMessages.setupSuccess, data: await whatsappIntegrationService().setup(userId, input) };
  },
  'POST /api/integrations/whatsapp-business/test': async (req) => {
    const userId = req.userId();
    const raw = req.json() ?? {};
    const input = provided(parseWith(z.partial(whatsappSetupRequest), raw), raw) as Partial<WhatsAppSetupInput>;
    return { message: whatsappMessages.testSuccess, data: await whatsappIntegrationService().test(userId, input) };
  },
  'GET /api/integrations/{type}': async (req) => {
    const userId = req.userId();
    const type = parseWith(integrationTypeParam, req.params.type);
    return { data: await integrationService().get(userId, type) };
  },
  'PUT /api/integrations/{type}': async (req) => {
    const userId = req.userId();
    const type = parseWith(integrationTypeParam, req.params.type);
    const input = parseWith(updateIntegrationRequests[type], req.json());
    return { data: await integrationService().update(userId, type, input) };
  },
  'DELETE /api/integrations/{type}': async (req) => {
    const userId = req.userId();
    const type = parseWith(integrationTypeParam, req.params.type);
    await integrationService().disconnect(userId, type);
    return { message: integrationMessages.disconnected };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
