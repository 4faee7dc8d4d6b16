/**
 * An outbound e-mail's delivery state as stored on its subject, and what the API shows of it
 * (issue 34 item 4). Apart from emails.ts so the pages that only show it (the call detail, the
 * notifications list) bundle none of the sending.
 */
import type { EmailDelivery } from '../../contract/email-delivery.js';

/** The delivery state as stored on the subject. */
export interface StoredEmailDelivery extends EmailDelivery {
  /** The current send (a resend starts a new one); a queue message of another send does nothing. */
  sendId: string;
  /** While 'sending': the claiming try holds the send until then (its worker's timeout). */
  leaseUntil?: string;
}

/** What the API shows: the stored state without the send's id and lease. */
export function emailDeliveryView(d: StoredEmailDelivery | null | undefined): EmailDelivery | null {
  if (!d) return null;
  return {
    state: d.state,
    at: d.at,
    tries: d.tries,
    resends: d.resends ?? 0,
    ...(d.sentAt ? { sentAt: d.sentAt } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
  };
}

