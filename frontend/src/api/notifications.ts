/** In-app notifications (issue 17): the list with the unread count, mark one read, mark all read. */
import type { AppNotification, NotificationList } from '@agentdesk/functions/contract';
import { request, requestData } from './client';

const BASE = '/api/notifications';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
};

export const notificationsApi = {
  list: (signal?: AbortSignal) => requestData<NotificationList>(BASE, { signal }),
  markRead: async (id: string) =>
    (await request<{ notification: AppNotification; unreadCount: number }>(`${BASE}/${encodeURIComponent(id)}/read`, { method: 'POST' })).data,
  markAllRead: async () => (await request<{ marked: number; unreadCount: number }>(`${BASE}/read-all`, { method: 'POST' })).data,
};
