/** /api/notifications: the owner's in-app notifications (escalations), unread count, mark read ('user' auth). */
import { listNotificationsQuery, notificationMessages } from '../contract/notifications.js';
import { notificationService } from '../composition/notification-api.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'GET /api/notifications': async (req) => {
    const userId = req.userId();
    return { data: await notificationService().list(userId, parseWith(listNotificationsQuery, req.query)) };
  },
  'POST /api/notifications/read-all': async (req) => ({ message: notificationMessages.allMarkedRead, data: await notificationService().markAllRead(req.userId()) }),
  'POST /api/notifications/{id}/read': async (req) => ({
    message: notificationMessages.markedRead,
    data: await notificationService().markRead(req.userId(), req.params.id ?? ''),
  }),
};

export const handler = httpGroup(routes);
