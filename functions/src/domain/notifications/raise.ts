/**
 * Raising an escalation alert: the in-app notification is written once per escalation (keyed by
 * subject + occurrence), then — where a sender is wired — its e-mail/WhatsApp alert is claimed
 * and sent once. Kept apart from the texts (delivery.ts) so the voice relay, which only writes
 * the notification, does not bundle them.
 */
import { alertKey, type AlertSender, type EscalationAlert, type EscalationAlerts, type NotificationRepository, type StoredNotification } from './ports.js';

export interface RaiseDeps {
  notifications: Pick<NotificationRepository, 'create' | 'byKey' | 'claimAlert'>;
  /** Absent: only the in-app notification here; the e-mail/WhatsApp goes later (sendPending). */
  sender?: AlertSender;
  /** 26-character time-sortable id. */
  newId(now: number): string;
  now?: () => number;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
}

export function createEscalationAlerts(deps: RaiseDeps): EscalationAlerts & {
  /** Sends the e-mail/WhatsApp alert of the notification raised with this key, unless already sent. Never throws. */
  sendPending(userId: string, alert: Pick<EscalationAlert, 'kind' | 'subjectId' | 'occurrence'>): Promise<boolean>;
} {
  const now = deps.now ?? Date.now;
  const onError = deps.onError ?? (() => undefined);

  async function sendOnce(notification: StoredNotification): Promise<boolean> {
    if (!deps.sender) return false;
    if (!(await deps.notifications.claimAlert(notification.userId, notification.id, new Date(now()).toISOString()))) return false;
    await deps.sender.send(notification);
    return true;
  }

  return {
    async escalated(userId, alert) {
      try {
        const at = now();
        const notification: StoredNotification = {
          id: deps.newId(at),
          userId,
          kind: alert.kind,
          subjectId: alert.subjectId,
          contactName: alert.contactName,
          reason: alert.reason,
          createdAt: new Date(at).toISOString(),
          readAt: null,
        };
        if (!(await deps.notifications.create(notification, alertKey(alert)))) return;
        await sendOnce(notification);
      } catch (error) {
        onError('Escalation alert failed; the escalation stands', error, { userId, kind: alert.kind, subjectId: alert.subjectId });
      }
    },

    async sendPending(userId, alert) {
      try {
        const notification = await deps.notifications.byKey(userId, alertKey(alert));
        return notification ? await sendOnce(notification) : false;
      } catch (error) {
        onError('Escalation alert could not be sent', error, { userId, kind: alert.kind, subjectId: alert.subjectId });
        return false;
      }
    },
  };
}
