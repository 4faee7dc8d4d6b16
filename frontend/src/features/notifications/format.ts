import type { AppNotification } from '@agentdesk/functions/contract';

/** Where a notification opens: the conversation's modal on the board, the call's page, or the integrations (issue 34). */
export function notificationHref(n: Pick<AppNotification, 'kind' | 'subjectId'>): string {
  if (n.kind === 'integration_needs_attention') return '/integrations';
  return n.kind === 'call_escalated' ? `/voice-conversations/${encodeURIComponent(n.subjectId)}` : `/conversations?open=${encodeURIComponent(n.subjectId)}`;
}
