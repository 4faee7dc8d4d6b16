/** /api/saved-replies: the owner's saved replies (title + text), inserted in the reply box with `/` ('user' auth). */
import { savedReplyMessages, savedReplyRequest } from '../contract/saved-replies.js';
import { savedReplyService } from '../composition/saved-replies.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'GET /api/saved-replies': async (req) => ({ data: await savedReplyService().list(req.userId()) }),
  'POST /api/saved-replies': async (req) => {
    const userId = req.userId();
    const input = parseWith(savedReplyRequest, req.json());
    return { status: 201, message: savedReplyMessages.created, data: await savedReplyService().create(userId, input) };
  },
  'GET /api/saved-replies/{id}': async (req) => ({ data: await savedReplyService().get(req.userId(), req.params.id ?? '') }),
  'PUT /api/saved-replies/{id}': async (req) => {
    const userId = req.userId();
    const input = parseWith(savedReplyRequest, req.json());
    return { message: savedReplyMessages.updated, data: await savedReplyService().update(userId, req.params.id ?? '', input) };
  },
  'DELETE /api/saved-replies/{id}': async (req) => {
    await savedReplyService().remove(req.userId(), req.params.id ?? '');
    return { message: savedReplyMessages.deleted };
  },
};

export const handler = httpGroup(routes);
