/**
 * Raising an escalation alert: the in-app notification is written once per escalation and person
 * (keyed by subject + occurrence in each person's bell), then — where a sender is wired — each
 * person's e-mail/WhatsApp/push alert is claimed and sent once. Kept apart from the texts
 * (delivery.ts) so the voice relay, which only writes the notification, does not bundle them.
 *
 * Who (issue 32): an alert about an assigned conversation goes to its assignee alone (while they
 * are an active member); anything else — unassigned, a call, customers waiting — to every active
 * member of the account (every role has the inbox). A single-user account's only person is its
 * owner, whose id is the account id: their notification is keyed exactly as before issue 32.
 * Without `recipients` (the voice webhook, whose bundle is size-bound) only the account's own
 * person's notification is written there; the call-summary worker raises the same alert again
 * when the call ends, with recipients, and so writes the others' (the key makes it once each).
 */
import { alertKey, type AlertSender, type EscalationAlert, type EscalationAlerts, type NotificationRepository, type Recipients, type StoredNotification } from './ports.js';

export interface RaiseDeps {
  notifications: Pick<NotificationRepository, 'create' | 'byKey' | 'claimAlert'>;
  /** The account's people; absent: the account's own person only (see the module comment). */
  recipients?: Recipients;
  /** Absent: only the in-app notification here; the e-mail/WhatsApp goes later (sendPending). */
  sender?: AlertSender;
  /** 26-character time-sortable id. */
  newId(now: number): string;
  now?: () => number;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
}

/** The person ids an alert goes to (see the module comment). */
export async function alertRecipients(recipients: Recipients | undefined, userId: string, assignee: string | null | undefined): Promise<string[]> {
  if (!recipients) return [userId];
  if (assignee) {
    const person = await recipients.get(userId, assignee);
    if (person) return [person.personId];
  }
  const people = await recipients.list(userId);
  return [...new Set(people.map((p) => p.personId))];
}

export function createEscalationAlerts(deps: RaiseDeps): EscalationAlerts & {
  /** Sends the e-mail/WhatsApp alert of the notifications raised with this key, unless already sent. Never throws. True when one was sent. */
  sendPending(userId: string, alert: Pick<EscalationAlert, 'kind' | 'subjectId' | 'occurrence' | 'assignee'>): Promise<boolean>;
} {
  const now = deps.now ?? Date.now;
  const onError = deps.onError ?? (() => undefined);

  async function sendOnce(notification: StoredNotification): Promise<boolean> {
    if (!deps.sender) return false;
    if (!(await deps.notifications.claimAlert(notification.userId, notification.personId ?? notification.userId, notification.id, new Date(now()).toISOString()))) return false;
    await deps.sender.send(notification);
    return true;
  }

  return {
    async escalated(userId, alert) {
      try {
        const people = await alertRecipients(deps.recipients, userId, alert.assignee);
        // One person's failure does not keep the others from their notification.
        const results = await Promise.allSettled(
          people.map(async (personId) => {
            const at = now();
            const notification: StoredNotification = {
              id: deps.newId(at),
              userId,
              // The account's own person keeps the keys and the item of before issue 32.
              ...(personId !== userId ? { personId } : {}),
              kind: alert.kind,
              subjectId: alert.subjectId,
              contactName: alert.contactName,
              reason: alert.reason,
              createdAt: new Date(at).toISOString(),
              readAt: null,
            };
            // Already raised for this person (a retry): nothing written, nothing sent again.
            if (!(await deps.notifications.create(notification, alertKey(alert)))) return;
            await sendOnce(notification);
          }),
        );
        for (const r of results) if (r.status === 'rejected') onError('Escalation alert failed; the escalation stands', r.reason, { userId, kind: alert.kind, subjectId: alert.subjectId });
      } catch (error) {
        onError('Escalation alert failed; the escalation stands', error, { userId, kind: alert.kind, subjectId: alert.subjectId });
      }
    },

    async sendPending(userId, alert) {
      try {
        const people = await alertRecipients(deps.recipients, userId, alert.assignee);
        const sent = await Promise.all(
          people.map(async (personId) => {
            const notification = await deps.notifications.byKey(userId, personId, alertKey(alert));
            return notification ? sendOnce(notification) : false;
          }),
        );
        return sent.some(Boolean);
      } catch (error) {
        onError('Escalation alert could not be sent', error, { userId, kind: alert.kind, subjectId: alert.subjectId });
        return false;
      }
    },
  };
}
