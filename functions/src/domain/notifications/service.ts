/**
 * The notifications API (issue 17): the user's notifications newest first with the unread count,
 * mark one read, mark all read. A foreign or unknown id is not found.
 */
import { notificationMessages, type AppNotification, type NotificationList } from '../../contract/notifications.js';
import { NotFoundError } from '../errors.js';
import type { NotificationRepository, StoredNotification } from './ports.js';

export interface NotificationServiceDeps {
  notifications: NotificationRepository;
  now?: () => Date;
}

const ID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function toAppNotification(n: StoredNotification): AppNotification {
  return { _id: n.id, kind: n.kind, subjectId: n.subjectId, contactName: n.contactName, reason: n.reason, createdAt: n.createdAt, readAt: n.readAt, email: n.email ?? null };
}

export function createNotificationService(deps: NotificationServiceDeps) {
  const now = deps.now ?? (() => new Date());

  return {
    async list(userId: string, query: { limit: number; cursor?: string }): Promise<NotificationList> {
      const [page, unreadCount] = await Promise.all([deps.notifications.page(userId, query.limit, query.cursor), deps.notifications.unreadCount(userId)]);
      return { notifications: page.items.map(toAppNotification), unreadCount, nextCursor: page.next };
    },

    /** Marks one read (already read: unchanged). Returns it with the new unread count. */
    async markRead(userId: string, id: string): Promise<{ notification: AppNotification; unreadCount: number }> {
      if (!ID_RE.test(id)) throw new NotFoundError(notificationMessages.notificationNotFound);
      const found = await deps.notifications.get(userId, id);
      if (!found) throw new NotFoundError(notificationMessages.notificationNotFound);
      const at = now().toISOString();
      const changed = found.readAt === null && (await deps.notifications.markRead(userId, id, at));
      const notification = changed ? { ...found, readAt: at } : ((await deps.notifications.get(userId, id)) ?? found);
      return { notification: toAppNotification(notification), unreadCount: await deps.notifications.unreadCount(userId) };
    },

    /** Marks every unread notification read, each with its own conditional write (the counter stays exact). */
    async markAllRead(userId: string): Promise<{ marked: number; unreadCount: number }> {
      const unread = await deps.notifications.unread(userId);
      const at = now().toISOString();
      let marked = 0;
      for (const n of unread) if (await deps.notifications.markRead(userId, n.id, at)) marked++;
      return { marked, unreadCount: await deps.notifications.unreadCount(userId) };
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
