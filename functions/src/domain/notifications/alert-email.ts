/** The alert e-mail of a stored notification, rendered when the outbound-email worker sends it (issue 34 item 4). */
import { alertTexts } from './delivery.js';
import type { EmailRenderer } from './emails.js';
import type { NotificationRepository } from './ports.js';

/** Renders kind 'notification': the notification's alert texts in its recipient's language; null when it is gone. */
export function notificationEmailRenderer(deps: { notifications: Pick<NotificationRepository, 'get'>; appUrl: string }): EmailRenderer {
  return async (ref, owner) => {
    const notification = await deps.notifications.get(ref.userId, ref.personId ?? ref.userId, ref.subjectId);
    if (!notification) return null;
    const { subject, text, html } = alertTexts(notification, owner.language, deps.appUrl);
    return { subject, text, html };
  };
}
