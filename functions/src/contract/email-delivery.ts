/**
 * Where an e-mail to the account's owner stands (issue 34 item 4): the outbound-email queue's
 * delivery state, kept on the e-mail's subject (a call's summary e-mail, an alert's e-mail) and
 * shown by the app. No zod: the voice relay and the notifications bundle read these shapes too.
 * The frontend words every state and reason (en/es); nothing here is shown as is.
 */

/**
 * - queued: waiting for its first try;
 * - sending: a try is asking SES right now;
 * - sent: SES accepted it (`sentAt`);
 * - retrying: SES did not take it yet (unreachable, 5xx, throttled): tried again on the retry schedule;
 * - failed: given up, with `reason` (a refusal, or SES down for the whole schedule). A summary can be resent.
 */
export const EMAIL_DELIVERY_STATES = ['queued', 'sending', 'sent', 'retrying', 'failed'] as const;
export type EmailDeliveryState = (typeof EMAIL_DELIVERY_STATES)[number];

/** States a try may still change: the e-mail is on its way. */
export const EMAIL_IN_FLIGHT: readonly EmailDeliveryState[] = ['queued', 'sending', 'retrying'];

/**
 * Why an e-mail failed (or, while 'retrying', why its last try did):
 * - rejected: SES refused the message or the address (MessageRejected, a bad request);
 * - not_verified: the sender (or, in the SES sandbox, the recipient) is not verified in SES;
 * - sending_paused: sending is paused or suspended on the SES account;
 * - credentials / permission: AWS refused the app's credentials, or SendEmail is not allowed;
 * - no_address: the account has no e-mail address;
 * - unavailable: SES did not answer (down, 5xx, throttled) — for the whole retry schedule when 'failed';
 * - unconfirmed: a try stopped while SES had the e-mail (a crash, a timeout, a broken connection):
 *   it may or may not have arrived, and it is not sent again by itself (never twice);
 * - not_queued: the e-mail could not be put on the queue;
 * - gone: what it was about (the call's summary, the alert) no longer exists.
 */
export const EMAIL_FAILURE_REASONS = [
  'rejected',
  'not_verified',
  'sending_paused',
  'credentials',
  'permission',
  'no_address',
  'unavailable',
  'unconfirmed',
  'not_queued',
  'gone',
] as const;
export type EmailFailureReason = (typeof EMAIL_FAILURE_REASONS)[number];

/** What the API shows of an e-mail's delivery. */
export interface EmailDelivery {
  state: EmailDeliveryState;
  /** When the state last changed (ISO). */
  at: string;
  /** Tries (requests to SES) of this send so far. */
  tries: number;
  /** When SES accepted it (state 'sent'). */
  sentAt?: string;
  /** 'failed': why; 'retrying': why the last try failed. */
  reason?: EmailFailureReason;
  /** How many times the owner resent it (the first send is 0). */
  resends: number;
}
