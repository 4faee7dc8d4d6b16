/** The signed-in user's routes: profile, settings, business location, password change, logout (all 'user' auth). */
import { profileUpdateRequest, settingsRequest, updatePasswordRequest } from '../contract/auth.js';
import { businessLocationRequest, mediaMessages } from '../contract/whatsapp-media.js';
import { accountService } from '../composition/account.js';
import { businessLocations } from '../composition/business-location.js';
import { accountMessages } from '../domain/account/service.js';
import { httpGroup, parseWith, type Request, type RouteTable } from '../http/handler.js';

/** Members of the Cognito 'admin' group are 'admin' (the group is the source of truth, not the profile). */
const withRole = <T extends { role: string }>(req: Request, user: T): T => (req.isAdmin() ? { ...user, role: 'admin' } : user);

export const routes: RouteTable = {
  'GET /api/me': async (req) => ({ data: withRole(req, await accountService().me(req.userId())) }),
  'GET /api/user/profile': async (req) => ({ data: withRole(req, await accountService().me(req.userId())) }),
  'POST /api/settings': async (req) => {
    const userId = req.userId();
    const input = parseWith(settingsRequest, req.json());
    return { message: accountMessages.userUpdated, data: await accountService().updateSettings(userId, input) };
  },
  'PUT /api/user/profile': async (req) => {
    const userId = req.userId();
    const input = parseWith(profileUpdateRequest, req.json());
    return { message: accountMessages.profileUpdated, data: await accountService().updateSettings(userId, input) };
  },
  'POST /api/update-password': async (req) => {
    const userId = req.userId();
    const input = parseWith(updatePasswordRequest, req.json());
    return { message: accountMessages.passwordUpdated, data: await accountService().changePassword(userId, input) };
  },
  // Issue 31: the business's location, sent by the agent's send_location tool.
  'GET /api/user/business-location': async (req) => ({ data: await businessLocations().get(req.userId()) }),
  'PUT /api/user/business-location': async (req) => {
    const userId = req.userId();
    const input = parseWith(businessLocationRequest, req.json());
    return { message: mediaMessages.locationSaved, data: await businessLocations().save(userId, input) };
  },
  'DELETE /api/user/business-location': async (req) => {
    await businessLocations().clear(req.userId());
    return { message: mediaMessages.locationCleared, data: null };
  },
  'POST /api/logout': async (req) => {
    await accountService().logout(req.userId());
    return { message: accountMessages.loggedOut };
  },
};

export const handler = httpGroup(routes);
