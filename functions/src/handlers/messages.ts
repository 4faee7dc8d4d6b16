/** /api/messages: the Message Hub (list, stats, latest, detail, retry of a failed send, delete) ('user' auth). */
import * as z from 'zod/mini';
import { listMessagesQuery, messageStatsQuery, whatsappMessages } from '../contract/whatsapp.js';
import { conversationService } from '../composition/conversation-api.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

const latestQuery = z.object({
  limit: z._default(
    z.pipe(z.string(), z.transform(Number)).check(z.refine((n) => Number.isInteger(n) && n >= 1 && n <= 50, 'Limit must be between 1 and 50')),
    10,
  ),
});

export const routes: RouteTable = {
  'GET /api/messages': async (req) => {
    const userId = req.userId();
    const query = parseWith(listMessagesQuery, req.query);
    const { data, pagination } = await conversationService().listMessages(userId, query);
    return { data, extra: { pagination } };
  },
  'GET /api/messages/stats': async (req) => {
    const userId = req.userId();
    const { timeFilter } = parseWith(messageStatsQuery, req.query);
    return { data: await conversationService().messageStats(userId, timeFilter) };
  },
  'GET /api/messages/latest': async (req) => {
    const userId = req.userId();
    const { limit } = parseWith(latestQuery, req.query);
    return { data: await conversationService().latestMessages(userId, limit) };
  },
  'GET /api/messages/{id}': async (req) => ({ data: await conversationService().getMessage(req.userId(), req.params.id ?? '') }),
  'POST /api/messages/{id}/retry': async (req) => ({
    message: whatsappMessages.retryStarted,
    data: await conversationService().retryMessage(req.userId(), req.params.id ?? ''),
  }),
  'DELETE /api/messages/{id}': async (req) => {
    await conversationService().removeMessage(req.userId(), req.params.id ?? '');
    return { message: whatsappMessages.messageDeleted };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
