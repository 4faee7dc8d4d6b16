/**
 * The notification shapes without zod (issue 17): what the voice relay's notification write needs,
 * kept apart from the request schemas so that bundle does not load zod and its locale.
 */

export const NOTIFICATION_KINDS = ['conversation_escalated', 'call_escalated'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface AppNotification {
  _id: string;
  kind: NotificationKind;
  /** The conversation id (conversation_escalated) or the call id (call_escalated). */
  subjectId: string;
  contactName: string;
  reason: string;
  createdAt: string;
  readAt: string | null;
}

export interface NotificationList {
  notifications: AppNotification[];
  unreadCount: number;
  /** Pass as `cursor` for the next (older) page; null = no more. */
  nextCursor: string | null;
}
