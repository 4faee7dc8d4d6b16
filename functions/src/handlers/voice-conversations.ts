/** /api/voice-conversations: call logs, detail, recording playback, apply extracted contact data ('user' auth). */
import { listCallsQuery, voiceMessages } from '../contract/voice.js';
import { callsService } from '../composition/voice-conversations.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'GET /api/voice-conversations': async (req) => {
    const userId = req.userId();
    const query = parseWith(listCallsQuery, req.query);
    return { data: await callsService().list(userId, query) };
  },
  'GET /api/voice-conversations/{id}': async (req) => ({
    data: { conversation: await callsService().get(req.userId(), req.params.id ?? '') },
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
  'POST /api/voice-conversations/{id}/apply-contact': async (req) => {
    const result = await callsService().applyContact(req.userId(), req.params.id ?? '');
    return { message: voiceMessages.contactApplied, data: result };
  },
};

export const handler = httpGroup(routes);
