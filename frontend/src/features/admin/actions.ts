/** What an admin may do with a phone-number request (SPEC §4 states; the server's rules in domain/voice/admin.ts). */
import type { PhoneRequestStatus } from '@agentdesk/functions/contract';

export type AdminAction = 'approve' | 'reject' | 'assign';

/** approve: pending only; reject and assign: pending or approved. */
export function allowedActions(status: PhoneRequestStatus | null): AdminAction[] {
  if (status === 'pending') return ['approve', 'reject', 'assign'];
  if (status === 'approved') return ['reject', 'assign'];
  return [];
}
