/** The signed-in user's routes: profile, settings, business location, password change, logout (all 'user' auth). */
import { profileUpdateRequest, settingsRequest, updatePasswordRequest } from '../contract/auth.js';
import { businessLocationRequest, mediaMessages } from '../contract/whatsapp-media.js';
import { accountService } from '../composition/account.js';
import { businessLocations } from '../composition/business-location.js';
import { accountMessages, type AccountCaller, type AccountService } from '../domain/account/service.js';
import { recordRouteActivity } from '../composition/activity.js';
import { httpGroup, parseWith, type Request, type RouteTable } from '../http/handler.js';

/** Members of the Cognito 'admin' group are 'admin' (the group is the source of truth, not the profile). */
const withRole = <T extends { role: string }>(req: Request, user: T): T => (req.isAdmin() ? { ...user, role: 'admin' } : user);

/** Who is asking (issue 32): the account from the token, the person, their role there. */
const callerOf = (req: Request): AccountCaller => ({ accountId: req.userId(), personId: req.memberId(), role: req.role() });

/**
 * Saves the settings: the person's own fields, and the account's country and time zone when an
 * admin or the owner changed them — logged then (not for a person's own name or language).
 */
async function saveSettings(req: Request, input: Parameters<AccountService['updateSettings']>[1]) {
  const { user, accountSettingsChanged } = await accountService().updateSettings(callerOf(req), input);
  if (accountSettingsChanged) await recordRouteActivity(req, 'account_settings.changed');
  return user;
}

export const routes: RouteTable = {
  'GET /api/me': async (req) => ({ data: withRole(req, await accountService().me(callerOf(req))) }),
  'GET /api/user/profile': async (req) => ({ data: withRole(req, await accountService().me(callerOf(req))) }),
  'POST /api/settings': async (req) => {
    const input = parseWith(settingsRequest, req.json());
    return { message: accountMessages.userUpdated, data: await saveSettings(req, input) };
  },
  'PUT /api/user/profile': async (req) => {
    const input = parseWith(profileUpdateRequest, req.json());
    return { message: accountMessages.profileUpdated, data: await saveSettings(req, input) };
  },
  // The person's own password (their login, not the account's).
  'POST /api/update-password': async (req) => {
    const personId = req.memberId();
    const input = parseWith(updatePasswordRequest, req.json());
    return { message: accountMessages.passwordUpdated, data: await accountService().changePassword(personId, input) };
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
    // Signs out the person calling, everywhere; the account's other people stay signed in.
    await accountService().logout(req.memberId());
    return { message: accountMessages.loggedOut };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
