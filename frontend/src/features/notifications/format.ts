import type { AppNotification } from '@agentdesk/functions/contract';

/** Where a notification opens: the conversation's modal on the board, or the call's page. */
export function notificationHref(n: Pick<AppNotification, 'kind' | 'subjectId'>): string {
  return n.kind === 'call_escalated' ? `/voice-conversations/${encodeURIComponent(n.subjectId)}` : `/conversations?open=${encodeURIComponent(n.subjectId)}`;
}
