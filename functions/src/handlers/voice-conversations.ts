/**
 * /api/voice-conversations: call logs, detail, recording playback, the summary e-mail's Resend ('user' auth). Apply-contact
 * (POST …/{id}/apply-contact) is served by the contacts group (handlers/contacts.ts).
 */
import { listCallsQuery, voiceMessages } from '../contract/voice.js';
import { callsService } from '../composition/voice-conversations.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { apiKeyGuard } from '../http/api-key-auth.js';

export const routes: RouteTable = {
  'GET /api/voice-conversations': async (req) => {
    const userId = req.userId();
    const query = parseWith(listCallsQuery, req.query);
    return { data: await callsService().list(userId, query) };
  },
  'GET /api/voice-conversations/{id}': async (req) => ({
    data: { conversation: await callsService().get(req.userId(), req.params.id ?? '') },
  }),
  // Issue 34: the summary e-mailed again (queued); answers its delivery state.
  'POST /api/voice-conversations/{id}/resend-summary': async (req) => ({
    data: { summaryEmail: await callsService().resendSummary(req.userId(), req.params.id ?? '') },
    message: voiceMessages.summaryResendQueued,
  }),
  'GET /api/voice-conversations/{id}/recording': async (req) => {
    const { contentType, body } = await callsService().recording(req.userId(), req.params.id ?? '');
    return {
      raw: {
        statusCode: 200,
        headers: { 'content-type': contentType, 'cache-control': 'private, no-store' },
        body: body.toString('base64'),
        isBase64Encoded: true,
      },
    };
  },
};

export const handler = httpGroup(routes, { apiKeys: apiKeyGuard });
