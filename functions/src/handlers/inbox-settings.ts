/** /api/inbox-settings (issue 17): the AI's idle resume time and the escalation alerts, the whole object ('user' auth). */
import { inboxMessages, inboxSettingsRequest } from '../contract/inbox.js';
import { inboxSettingsService } from '../composition/inbox-settings.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

export const routes: RouteTable = {
  'GET /api/inbox-settings': async (req) => ({ data: await inboxSettingsService().get(req.userId()) }),
  'PUT /api/inbox-settings': async (req) => {
    const userId = req.userId();
    const input = parseWith(inboxSettingsRequest, req.json());
    return { message: inboxMessages.settingsSaved, data: await inboxSettingsService().put(userId, input) };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
