/**
 * /api/team and /api/invitations (issue 32): the team page, invitations (sent, revoked, resent,
 * previewed by their link, accepted), role changes, removal, leaving, ownership transfer and the
 * activity log. The manifest's role gate and activity entries apply (routes.ts); the person is
 * req.memberId(), the account req.userId().
 */
import { acceptInvitationRequest, activityQuery, inviteRequest, roleChangeRequest, teamMessages, transferOwnershipRequest } from '../contract/team.js';
import { teamService } from '../composition/team.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

export const routes: RouteTable = {
  'GET /api/team': async (req) => ({ data: await teamService().view(req.userId(), req.memberId()) }),
  'POST /api/team/invitations': async (req) => {
    const input = parseWith(inviteRequest, req.json());
    return { status: 201, message: teamMessages.invited, data: await teamService().invite(req.userId(), req.memberId(), input) };
  },
  'DELETE /api/team/invitations/{id}': async (req) => {
    await teamService().revoke(req.userId(), req.memberId(), req.params.id ?? '');
    return { message: teamMessages.invitationRevokedDone };
  },
  'POST /api/team/invitations/{id}/resend': async (req) => ({
    message: teamMessages.invited,
    data: await teamService().resend(req.userId(), req.memberId(), req.params.id ?? ''),
  }),
  'PUT /api/team/members/{id}/role': async (req) => {
    const { role } = parseWith(roleChangeRequest, req.json());
    return { message: teamMessages.roleChanged, data: await teamService().changeRole(req.userId(), req.memberId(), req.params.id ?? '', role) };
  },
  'DELETE /api/team/members/{id}': async (req) => {
    await teamService().remove(req.userId(), req.memberId(), req.params.id ?? '');
    return { message: teamMessages.removed };
  },
  'POST /api/team/leave': async (req) => ({ message: teamMessages.left, data: await teamService().leave(req.userId(), req.memberId()) }),
  'POST /api/team/ownership': async (req) => {
    const { memberId } = parseWith(transferOwnershipRequest, req.json());
    await teamService().transferOwnership(req.userId(), req.memberId(), memberId);
    return { message: teamMessages.transferred };
  },
  'GET /api/team/activity': async (req) => ({ data: await teamService().activity(req.userId(), parseWith(activityQuery, req.query)) }),
  'GET /api/invitations/{token}': async (req) => ({ data: await teamService().preview(req.params.token ?? '') }),
  'POST /api/invitations/accept': async (req) => {
    const { token } = parseWith(acceptInvitationRequest, req.json());
    return { message: teamMessages.joined, data: await teamService().accept(req.memberId(), token) };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
