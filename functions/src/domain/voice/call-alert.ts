/** The owner's alert of an escalated call (issue 17), shared by the call loop, the relay and the call-summary worker. */
import type { EscalationAlert } from '../notifications/ports.js';
import type { StoredCall } from './ports.js';

/** One alert per call: a call escalated again later in the same call does not alert twice. */
export function callAlert(call: Pick<StoredCall, 'id' | 'contact' | 'phoneNumber'>, reason: string): EscalationAlert {
  return { kind: 'call_escalated', subjectId: call.id, contactName: call.contact?.name || call.phoneNumber, reason, occurrence: '' };
}

/** The call-summary worker's side: once the call is over, the escalated call's e-mail/WhatsApp alert is sent (once). */
export interface CallAlertSender {
  sendPending(userId: string, alert: Pick<EscalationAlert, 'kind' | 'subjectId' | 'occurrence'>): Promise<boolean>;
}

export const sendCallAlert = (sender: CallAlertSender, userId: string, callId: string) =>
  sender.sendPending(userId, { kind: 'call_escalated', subjectId: callId, occurrence: '' });


