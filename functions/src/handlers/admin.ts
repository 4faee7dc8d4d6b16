/** /api/admin: phone-number requests for administrators (Cognito group 'admin'; everyone else gets 403). */
import { adminAssignRequest, adminListQuery, adminRejectRequest, voiceMessages } from '../contract/voice.js';
import { adminService } from '../composition/admin.js';
import { ForbiddenError } from '../domain/errors.js';
import { httpGroup, parseWith, type Request, type RouteFn, type RouteTable } from '../http/handler.js';

/** Only admins reach the route; the check comes before any input is read. */
const adminOnly =
  (route: RouteFn): RouteFn =>
  async (req: Request) => {
    req.userId();
    if (!req.isAdmin()) throw new ForbiddenError(voiceMessages.adminOnly);
    return route(req);
  };

export const routes: RouteTable = {
  'GET /api/admin/phone-requests': adminOnly(async (req) => {
    const { status } = parseWith(adminListQuery, req.query);
    return { data: await adminService().list(status) };
  }),
  'POST /api/admin/phone-requests/{userId}/approve': adminOnly(async (req) => ({
    message: voiceMessages.requestApproved,
    data: await adminService().approve(req.params.userId ?? ''),
  })),
  'POST /api/admin/phone-requests/{userId}/reject': adminOnly(async (req) => {
    const { reason } = parseWith(adminRejectRequest, req.json());
    return { message: voiceMessages.requestRejected, data: await adminService().reject(req.params.userId ?? '', reason) };
  }),
  'POST /api/admin/phone-requests/{userId}/assign': adminOnly(async (req) => {
    const { number } = parseWith(adminAssignRequest, req.json());
    return { message: voiceMessages.numberAssigned, data: await adminService().assign(req.params.userId ?? '', number) };
  }),
};

export const handler = httpGroup(routes);
