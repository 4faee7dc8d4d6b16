/** /api/api-keys: list, create (the key is in the answer once), regenerate, delete ('user' auth). */
import { apiKeyMessages, createApiKeyRequest } from '../contract/api-keys.js';
import { apiKeyService } from '../composition/api-keys.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

export const routes: RouteTable = {
  'GET /api/api-keys': async (req) => ({ data: await apiKeyService().list(req.userId()) }),
  'POST /api/api-keys': async (req) => {
    const userId = req.userId();
    const { name } = parseWith(createApiKeyRequest, req.json());
    return { status: 201, message: apiKeyMessages.created, data: await apiKeyService().create(userId, name) };
  },
  'PUT /api/api-keys/{id}/regenerate': async (req) => ({
    message: apiKeyMessages.regenerated,
    data: await apiKeyService().regenerate(req.userId(), req.params.id ?? ''),
  }),
  'DELETE /api/api-keys/{id}': async (req) => {
    await apiKeyService().remove(req.userId(), req.params.id ?? '');
    return { message: apiKeyMessages.deleted };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
