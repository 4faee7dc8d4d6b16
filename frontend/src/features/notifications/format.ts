import type { AppNotification } from '@agentdesk/functions/contract';

/**
 * Where a notification opens: the conversation's modal on the board, the call's page, the
 * integrations, or the board with its "Answer waiting messages" banner (issue 34).
 */
export function notificationHref(n: Pick<AppNotification, 'kind' | 'subjectId'>): string {
  if (n.kind === 'integration_needs_attention') return '/integrations';
  if (n.kind === 'messages_waiting') return '/conversations?waiting=1';
  return n.kind === 'call_escalated' ? `/voice-conversations/${encodeURIComponent(n.subjectId)}` : `/conversations?open=${encodeURIComponent(n.subjectId)}`;
}
