/**
 * In-app notifications (issue 17): one per escalation of a conversation or a call, kept per user
 * with an exact unread counter. The lowest domain tier: the escalating areas (whatsapp,
 * conversations, voice) import these ports; this area imports no other domain area.
 */
import type { AppNotification, NotificationKind } from '../../contract/notification-kinds.js';

export interface StoredNotification extends Omit<AppNotification, '_id'> {
  /** 26-character time-sortable id: newest first is key order. */
  id: string;
  userId: string;
}

export interface NotificationPage {
  items: StoredNotification[];
  /** The id to continue after (older ones); null = no more. */
  next: string | null;
}

export interface NotificationRepository {
  /**
   * Stores the notification and adds 1 to the unread counter, in one transaction, unless a
   * notification with this idempotency key exists (a retried delivery or webhook): false then.
   */
  create(notification: StoredNotification, key: string): Promise<boolean>;
  /** The notification created with this idempotency key; null = none. */
  byKey(userId: string, key: string): Promise<StoredNotification | null>;
  /** Claims the sending of a notification's e-mail/WhatsApp alert: true once, false after. */
  claimAlert(userId: string, id: string, at: string): Promise<boolean>;
  /** Newest first, `limit` at most, older than `before` (an id) when given. */
  page(userId: string, limit: number, before?: string): Promise<NotificationPage>;
  unreadCount(userId: string): Promise<number>;
  get(userId: string, id: string): Promise<StoredNotification | null>;
  /** Sets readAt and takes 1 off the unread counter, only if still unread: true when it did. */
  markRead(userId: string, id: string, at: string): Promise<boolean>;
  /** The user's unread notifications (for "mark all as read"). */
  unread(userId: string): Promise<StoredNotification[]>;
}

/** One escalation, as the escalating area reports it. */
export interface EscalationAlert {
  kind: NotificationKind;
  subjectId: string;
  contactName: string;
  reason: string;
  /**
   * What makes this escalation unique within its subject (a conversation's escalatedAt; '' for a
   * call, escalated at most once as far as the owner is concerned): a retry with the same key
   * raises nothing.
   */
  occurrence: string;
}

/**
 * The port the escalating areas call. Never throws: an alert failure is logged and never fails
 * the escalation.
 */
export interface EscalationAlerts {
  escalated(userId: string, alert: EscalationAlert): Promise<void>;
}

/** The e-mail/WhatsApp side of an alert (delivery.ts). Never throws. */
export interface AlertSender {
  send(notification: StoredNotification): Promise<void>;
}

export const alertKey = (alert: Pick<EscalationAlert, 'kind' | 'subjectId' | 'occurrence'>): string =>
  `${alert.kind}#${alert.subjectId}#${alert.occurrence}`;
