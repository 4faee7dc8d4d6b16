/** /api/conversations (the WhatsApp board, a conversation with its messages, changes, escalation, human reply — also with an API key —, return to AI, templates, answer waiting messages). */
import {
  escalateRequest,
  humanReplyRequest,
  listConversationsQuery,
  overviewQuery,
  updateConversationRequest,
  whatsappMessages,
} from '../contract/whatsapp.js';
import { sendTemplateRequest, templateMessages } from '../contract/whatsapp-templates.js';
import { attachmentUploadRequest, mediaMessages } from '../contract/whatsapp-media.js';
import { conversationService, waitingAnswers } from '../composition/conversation-api.js';
import { apiKeyGuard } from '../http/api-key-auth.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

export const routes: RouteTable = {
  'GET /api/conversations/overview': async (req) => {
    const userId = req.userId();
    const { dateFilter, assignee } = parseWith(overviewQuery, req.query);
    // "Mine" is the person's, within the account (issue 32).
    return { data: await conversationService().overview(userId, dateFilter, assignee, req.memberId()) };
  },
  'GET /api/conversations/stats': async (req) => ({ data: await conversationService().stats(req.userId()) }),
  'GET /api/conversations': async (req) => {
    const userId = req.userId();
    const query = parseWith(listConversationsQuery, req.query);
    const { data, pagination } = await conversationService().list(userId, query, req.memberId());
    return { data, extra: { pagination } };
  },
  'GET /api/conversations/{id}': async (req) => ({ data: await conversationService().get(req.userId(), req.params.id ?? '') }),
  'PUT /api/conversations/{id}': async (req) => {
    const userId = req.userId();
    const input = parseWith(updateConversationRequest, req.json());
    return { message: whatsappMessages.conversationUpdated, data: await conversationService().update(userId, req.params.id ?? '', input) };
  },
  'POST /api/conversations/{id}/escalate': async (req) => {
    const userId = req.userId();
    const { reason } = parseWith(escalateRequest, req.json());
    return { message: whatsappMessages.conversationEscalated, data: await conversationService().escalate(userId, req.params.id ?? '', reason) };
  },
  'POST /api/conversations/{id}/messages': async (req) => {
    const userId = req.userId();
    const { text, attachment } = parseWith(humanReplyRequest, req.json());
    // Stored with who sent it (issue 32): the member, or the API key.
    const data = await conversationService().reply(userId, req.params.id ?? '', text, attachment, req.actor());
    return { status: 201, message: attachment ? mediaMessages.attachmentSent : whatsappMessages.replySent, data };
  },
  // Issue 31: where the browser (or an API client) uploads a file before the reply that sends it.
  'POST /api/conversations/{id}/attachments': async (req) => {
    const userId = req.userId();
    const input = parseWith(attachmentUploadRequest, req.json());
    return { status: 201, data: await conversationService().requestAttachmentUpload(userId, req.params.id ?? '', input) };
  },
  'POST /api/conversations/{id}/template': async (req) => {
    const userId = req.userId();
    const input = parseWith(sendTemplateRequest, req.json());
    return { status: 201, message: templateMessages.templateSent, data: await conversationService().sendTemplate(userId, req.params.id ?? '', input, req.actor()) };
  },
  'GET /api/whatsapp/templates': async (req) => ({ data: await conversationService().templates(req.userId()) }),
  'POST /api/conversations/{id}/resume-ai': async (req) => ({
    message: whatsappMessages.aiResumed,
    data: await conversationService().resumeAi(req.userId(), req.params.id ?? ''),
  }),
  // "Answer waiting messages" (issue 34): 202 when answers were queued.
  'POST /api/conversations/answer-waiting': async (req) => {
    const { message, data } = await waitingAnswers().answerAll(req.userId());
    return { status: data.queued > 0 ? 202 : 200, message, data };
  },
  'POST /api/conversations/{id}/answer-waiting': async (req) => {
    const { message, data } = await waitingAnswers().answerConversation(req.userId(), req.params.id ?? '');
    return { status: data.queued > 0 ? 202 : 200, message, data };
  },
  'DELETE /api/conversations/{id}': async (req) => {
    await conversationService().remove(req.userId(), req.params.id ?? '');
    return { message: whatsappMessages.conversationDeleted };
  },
};

// POST /api/conversations/{id}/messages and …/attachments accept API keys (an external system's reply, with a file).
export const handler = httpGroup(routes, { apiKeys: apiKeyGuard, activity: recordRouteActivity });
