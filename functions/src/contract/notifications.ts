/**
 * In-app notifications (issue 17: the owner is told when a conversation or call is escalated).
 * GET /api/notifications (newest first, cursor-paginated, with the unread count),
 * POST /api/notifications/{id}/read, POST /api/notifications/read-all. The texts are the
 * frontend's (en/es), rendered from `kind` and the fields: nothing shown to the user is stored.
 * Browser-safe: no Node imports.
 */
import * as z from 'zod/mini';
import './zod-locale.js';

export { NOTIFICATION_KINDS, type AppNotification, type NotificationKind, type NotificationList } from './notification-kinds.js';

export const NOTIFICATIONS_PAGE_SIZE = 20;

export const notificationMessages = {
  notificationNotFound: 'Notification not found',
  cursorInvalid: 'Invalid cursor',
  limitInvalid: 'Limit must be between 1 and 50',
  markedRead: 'Notification marked as read',
  allMarkedRead: 'All notifications marked as read',
} as const;

/** GET /api/notifications query. The cursor is the last notification id of the previous page. */
export const listNotificationsQuery = z.object({
  limit: z._default(
    z.pipe(z.string(), z.transform(Number)).check(z.refine((n) => Number.isInteger(n) && n >= 1 && n <= 50, notificationMessages.limitInvalid)),
    NOTIFICATIONS_PAGE_SIZE,
  ),
  cursor: z.optional(z.string().check(z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, notificationMessages.cursorInvalid))),
});
