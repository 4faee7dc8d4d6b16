/** The owner's alert of an escalated call (issue 17), shared by the call loop, the relay and the call-summary worker. */
import type { EscalationAlert } from '../notifications/ports.js';
import type { StoredCall } from './ports.js';

/** One alert per call: a call escalated again later in the same call does not alert twice. */
export function callAlert(call: Pick<StoredCall, 'id' | 'contact' | 'phoneNumber'>, reason: string): EscalationAlert {
  return { kind: 'call_escalated', subjectId: call.id, contactName: call.contact?.name || call.phoneNumber, reason, occurrence: '' };
}

/** The call-summary worker's side (escalation alerts with a sender). Never throws. */
export interface CallAlertSender {
  escalated(userId: string, alert: EscalationAlert): Promise<void>;
  sendPending(userId: string, alert: Pick<EscalationAlert, 'kind' | 'subjectId' | 'occurrence'>): Promise<boolean>;
}

/**
 * Once the call is over: an escalated call's notification is raised if nobody did yet (the voice
 * relay leaves it to this worker: its bundle stays within budget), and its e-mail/WhatsApp alert
 * is sent once (the <Gather> loop wrote the notification at the escalation itself).
 */
export async function sendCallAlert(sender: CallAlertSender, call: Pick<StoredCall, 'id' | 'userId' | 'contact' | 'phoneNumber' | 'escalated' | 'escalationReason'>): Promise<void> {
  if (!call.escalated) return;
  const alert = callAlert(call, call.escalationReason ?? '');
  await sender.escalated(call.userId, alert);
  await sender.sendPending(call.userId, alert);
}


