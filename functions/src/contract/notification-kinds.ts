/**
 * The notification shapes without zod (issue 17): what the voice relay's notification write needs,
 * kept apart from the request schemas so that bundle does not load zod and its locale.
 */

import type { EmailDelivery } from './email-delivery.js';

export const NOTIFICATION_KINDS = ['conversation_escalated', 'call_escalated', 'integration_needs_attention', 'messages_waiting'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface AppNotification {
  _id: string;
  kind: NotificationKind;
  /**
   * The conversation id (conversation_escalated), the call id (call_escalated), or the integration
   * type (integration_needs_attention, issue 34), or the provider whose failure left customers'
   * messages unanswered (messages_waiting, issue 34: 'openai').
   */
  subjectId: string;
  /** The contact's name; for integration_needs_attention the integration's product name. */
  contactName: string;
  /**
   * The escalation's reason as written; for integration_needs_attention a reason key
   * (contract/integration-health.ts); for messages_waiting a NoAnswerReason key (contract/no-answer.ts).
   */
  reason: string;
  createdAt: string;
  readAt: string | null;
  /**
   * Issue 34: where the alert's e-mail stands (queued on the outbound-email queue: queued,
   * sending, sent, retrying, failed + reason); absent or null when the alert was not e-mailed.
   */
  email?: EmailDelivery | null;
}

export interface NotificationList {
  notifications: AppNotification[];
  unreadCount: number;
  /** Pass as `cursor` for the next (older) page; null = no more. */
  nextCursor: string | null;
}
