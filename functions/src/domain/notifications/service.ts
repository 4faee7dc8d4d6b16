/**
 * The notifications API (issue 17): the person's notifications newest first with their unread
 * count, mark one read, mark all read. Issue 32: each member has their own bell and read state —
 * every call names the account (`userId`) and the person (`personId`, the caller's memberId()).
 * A foreign or unknown id (another account's, another person's) is not found.
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
    async list(userId: string, personId: string, query: { limit: number; cursor?: string }): Promise<NotificationList> {
      const [page, unreadCount] = await Promise.all([deps.notifications.page(userId, personId, query.limit, query.cursor), deps.notifications.unreadCount(userId, personId)]);
      return { notifications: page.items.map(toAppNotification), unreadCount, nextCursor: page.next };
    },

    /** Marks one read (already read: unchanged). Returns it with the new unread count. */
    async markRead(userId: string, personId: string, id: string): Promise<{ notification: AppNotification; unreadCount: number }> {
      if (!ID_RE.test(id)) throw new NotFoundError(notificationMessages.notificationNotFound);
      const found = await deps.notifications.get(userId, personId, id);
      if (!found) throw new NotFoundError(notificationMessages.notificationNotFound);
      const at = now().toISOString();
      const changed = found.readAt === null && (await deps.notifications.markRead(userId, personId, id, at));
      const notification = changed ? { ...found, readAt: at } : ((await deps.notifications.get(userId, personId, id)) ?? found);
      return { notification: toAppNotification(notification), unreadCount: await deps.notifications.unreadCount(userId, personId) };
    },

    /** Marks every unread notification read, each with its own conditional write (the counter stays exact). */
    async markAllRead(userId: string, personId: string): Promise<{ marked: number; unreadCount: number }> {
      const unread = await deps.notifications.unread(userId, personId);
      const at = now().toISOString();
      let marked = 0;
      for (const n of unread) if (await deps.notifications.markRead(userId, personId, n.id, at)) marked++;
      return { marked, unreadCount: await deps.notifications.unreadCount(userId, personId) };
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
