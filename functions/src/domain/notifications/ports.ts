/**
 * In-app notifications (issue 17): one per escalation of a conversation or a call, kept per
 * person (issue 32: each member of the account has their own bell, read state and unread counter;
 * the account's own person — id = account id — keeps the keys of before). The lowest domain tier:
 * the escalating areas (whatsapp, conversations, voice) import these ports; this area imports no
 * other domain area (the account's people come through the structural Recipients port below).
 */
import type { AppNotification, NotificationKind } from '../../contract/notification-kinds.js';

export interface StoredNotification extends Omit<AppNotification, '_id'> {
  /** 26-character time-sortable id: newest first is key order. */
  id: string;
  /** The account (the tenant). */
  userId: string;
  /**
   * The person whose bell it is (issue 32). Absent: the account's own person (id = account id) —
   * every notification before issue 32, and the account-level notices (integration health).
   */
  personId?: string;
}

/** Whose bell a notification is in. */
export const recipientOf = (n: Pick<StoredNotification, 'userId' | 'personId'>): string => n.personId ?? n.userId;

export interface NotificationPage {
  items: StoredNotification[];
  /** The id to continue after (older ones); null = no more. */
  next: string | null;
}

/**
 * Every method names the account (`userId`) and the person whose bell it is (`personId`; the
 * account id for the account's own person): a person never reads or moves another's items.
 */
export interface NotificationRepository {
  /**
   * Stores the notification in its person's bell and adds 1 to their unread counter, in one
   * transaction, unless they have a notification with this idempotency key (a retried delivery or
   * webhook): false then.
   */
  create(notification: StoredNotification, key: string): Promise<boolean>;
  /** The person's notification created with this idempotency key; null = none. */
  byKey(userId: string, personId: string, key: string): Promise<StoredNotification | null>;
  /** Claims the sending of a notification's e-mail/WhatsApp/push alert: true once, false after. */
  claimAlert(userId: string, personId: string, id: string, at: string): Promise<boolean>;
  /** Newest first, `limit` at most, older than `before` (an id) when given. */
  page(userId: string, personId: string, limit: number, before?: string): Promise<NotificationPage>;
  unreadCount(userId: string, personId: string): Promise<number>;
  get(userId: string, personId: string, id: string): Promise<StoredNotification | null>;
  /** Sets readAt and takes 1 off the person's unread counter, only if still unread: true when it did. */
  markRead(userId: string, personId: string, id: string, at: string): Promise<boolean>;
  /** The person's unread notifications (for "mark all as read"). */
  unread(userId: string, personId: string): Promise<StoredNotification[]>;
}

/** A person an alert goes to, as the team knows them (domain/team/ports.ts MemberRecord fits). */
export interface Recipient {
  personId: string;
  email: string;
  language: 'en' | 'es';
}

/** The account's active people (domain/team/ports.ts TeamMembers: a single-user account has one, its owner, person id = account id). */
export interface Recipients {
  /** Active members, the owner first. */
  list(accountId: string): Promise<Recipient[]>;
  /** An active member, or null (removed, unknown). */
  get(accountId: string, personId: string): Promise<Recipient | null>;
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
  /**
   * Issue 32: the person the conversation is assigned to — the alert goes to them alone. Absent or
   * null (unassigned, a call, customers waiting): every active member of the account.
   */
  assignee?: string | null;
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
