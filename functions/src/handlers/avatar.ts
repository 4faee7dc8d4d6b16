/** POST /api/user/avatar: a multipart image, checked, stored in the uploads bucket. */
import { avatarService } from '../composition/avatar.js';
import { AVATAR_MAX_BYTES } from '../domain/account/avatar.js';
import { accountMessages } from '../domain/account/service.js';
import { httpGroup, type RouteTable } from '../http/handler.js';
import { readMultipartFile } from '../http/multipart.js';

export const routes: RouteTable = {
  'POST /api/user/avatar': async (req) => {
    // The person's own picture (issue 32: a member's, not the account owner's).
    const caller = { accountId: req.userId(), personId: req.memberId(), role: req.role() };
    const file = await readMultipartFile(req.headers, req.rawBody, 'avatar', AVATAR_MAX_BYTES);
    return { message: accountMessages.avatarUpdated, data: await avatarService().uploadAvatar(caller, file) };
  },
};

export const handler = httpGroup(routes);
