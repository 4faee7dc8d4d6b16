/**
 * /api/notifications: the caller's in-app notifications (escalations), unread count, mark read;
 * /api/push: the caller's Web Push devices and which events push (issue 29) ('user' auth).
 * Issue 32: personal — the account is req.userId(), the person req.memberId(): each member has
 * their own bell, read state, devices and push settings.
 */
import { listNotificationsQuery, notificationMessages } from '../contract/notifications.js';
import { pushMessages, pushSettingsRequest, pushSubscriptionRequest } from '../contract/push.js';
import { notificationService } from '../composition/notification-api.js';
import { pushService } from '../composition/push.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'GET /api/notifications': async (req) => {
    const userId = req.userId();
    return { data: await notificationService().list(userId, req.memberId(), parseWith(listNotificationsQuery, req.query)) };
  },
  'POST /api/notifications/read-all': async (req) => ({ message: notificationMessages.allMarkedRead, data: await notificationService().markAllRead(req.userId(), req.memberId()) }),
  'POST /api/notifications/{id}/read': async (req) => ({
    message: notificationMessages.markedRead,
    data: await notificationService().markRead(req.userId(), req.memberId(), req.params.id ?? ''),
  }),
  'GET /api/push/public-key': async (req) => {
    req.userId();
    return { data: await pushService().publicKey() };
  },
  'GET /api/push/devices': async (req) => ({ data: { devices: await pushService().list(req.userId(), req.memberId()) } }),
  'POST /api/push/devices': async (req) => {
    const userId = req.userId();
    const input = parseWith(pushSubscriptionRequest, req.json());
    return { status: 201, message: pushMessages.subscribed, data: { device: await pushService().subscribe(userId, req.memberId(), input) } };
  },
  'DELETE /api/push/devices/{id}': async (req) => {
    await pushService().remove(req.userId(), req.memberId(), req.params.id ?? '');
    return { message: pushMessages.removed };
  },
  'POST /api/push/devices/{id}/test': async (req) => {
    await pushService().test(req.userId(), req.memberId(), req.params.id ?? '');
    return { status: 202, message: pushMessages.testQueued };
  },
  'GET /api/push/settings': async (req) => ({ data: await pushService().settings(req.userId(), req.memberId()) }),
  'PUT /api/push/settings': async (req) => {
    const userId = req.userId();
    const input = parseWith(pushSettingsRequest, req.json());
    return { message: pushMessages.settingsSaved, data: await pushService().saveSettings(userId, req.memberId(), input) };
  },
};

export const handler = httpGroup(routes);
