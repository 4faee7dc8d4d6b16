/**
 * E-mails to an account's owner that wait for SES (issue 34 item 4): escalation alerts, call
 * summaries, and any notice a feature adds. A producer never calls SES: it queues the e-mail
 * (one outbound-email queue, workers/outbound-email.ts), and the worker sends it, retrying on the
 * schedule of domain/retry.ts while SES fails, and keeps its delivery state on the e-mail's
 * subject (contract/email-delivery.ts: queued, sending, sent, retrying, failed + reason).
 *
 * ## Producer API (for every feature)
 *
 *     // composition/outbound-email.ts: outboundEmails() — SQS + DynamoDB, no SES client
 *     await outboundEmails().queue({ kind: 'notification', userId, subjectId: notification.id });
 *
 * - kind 'notification' e-mails an in-app notification (domain/notifications/delivery.ts
 *   alertTexts renders it by its NotificationKind, in the owner's language): to e-mail a new
 *   notice, add its NotificationKind (contract/notification-kinds.ts) and its texts in
 *   delivery.ts LABELS, store the notification, then queue it like this. Whether to e-mail at all
 *   (InboxSettings.alertByEmail…) is the producer's decision, made before it queues.
 * - kind 'call-summary' e-mails a call's completed summary (the call-summary worker; the call
 *   page's Resend: `resend`); kind 'call-handoff' the notice of a call being forwarded to a person
 *   (the call-summary worker's handoff stage, rendered with the analysis so far kept on the call).
 * - queue() is idempotent per subject: it starts the subject's delivery once; called again (a
 *   retried producer) it only puts a message for the same send back on the queue when that send
 *   is still on its way, so a retried producer never e-mails twice. It throws when the message
 *   could not be queued (the delivery is then 'failed', reason 'not_queued', and a later queue()
 *   starts it again).
 * - The job carries ids only (contract/jobs.ts outboundEmailJob): the address and the language
 *   are the account's when the e-mail is sent (an address changed during an outage is honoured,
 *   and nothing personal waits in the queue), the text is rendered from the stored subject.
 *
 * ## Never twice: claim before send
 *
 * A try first claims the send with a conditional write (queued|retrying → sending, this sendId,
 * a lease until the worker's timeout), then asks SES, then marks it sent. A redelivered or
 * duplicated message finds it sent (nothing to do) or being sent (it comes back later). The
 * window between SES accepting an e-mail and the mark cannot be closed (SendEmail takes no
 * idempotency token), so we chose its side: at most once. A try that stopped inside it (a crash,
 * a timeout, a connection broken after the request went out) leaves the e-mail 'failed' with
 * reason 'unconfirmed' — never sent again by itself, visible to the owner, who can resend a
 * summary. A failure that proves SES did not take the e-mail (an error answer, a connection that
 * was never made) releases the claim: 'retrying', and the queue tries again on the schedule. The
 * SES client of the worker makes one request per try (no in-process retry that could resend
 * after a broken connection): the schedule is the retry.
 */
import type { OutboundEmailJob, OutboundEmailKind } from '../../contract/jobs.js';
import type { EmailDeliveryState, EmailFailureReason } from '../../contract/email-delivery.js';
import { EMAIL_IN_FLIGHT } from '../../contract/email-delivery.js';
import { classifyProviderFailure, LastingError, neverReachedProvider, TransientError } from '../retry.js';
import type { StoredEmailDelivery } from './email-view.js';

export type { StoredEmailDelivery } from './email-view.js';

/** The e-mail of one subject: what it is about and whose it is. */
export interface EmailRef {
  kind: OutboundEmailKind;
  userId: string;
  /** The notification id ('notification') or the call id ('call-summary'). */
  subjectId: string;
  /** 'team-invitation' only: the link's token, carried by the job since the table keeps only its hash. */
  token?: string;
  /**
   * Issue 32, kind 'notification' only: the member whose notification it is — the e-mail goes to
   * their address, in their language, while they are an active member. Absent: the account's own
   * person (its owner's profile), as before issue 32.
   */
  personId?: string;
}

/** The delivery state on the subject's item (adapters/dynamo/email-deliveries.ts). */
export interface EmailDeliveryStore {
  /** The subject's delivery; null when it has none or the subject is gone. */
  get(ref: EmailRef): Promise<StoredEmailDelivery | null>;
  /**
   * Writes `next` as the subject's delivery if the subject exists and either has no delivery
   * (`expected` absent) or its delivery is still send `expected.sendId` in `expected.state`.
   * False when that condition did not hold.
   */
  put(ref: EmailRef, next: StoredEmailDelivery, expected?: { sendId: string; state: EmailDeliveryState }): Promise<boolean>;
  /** queued|retrying of `sendId` → sending, tries + 1, leaseUntil. False when it was not (sent, being sent, another send, gone). */
  claim(ref: EmailRef, sendId: string, at: string, leaseUntil: string): Promise<boolean>;
  /** A send of `sendId` in one of `from` → `to` (the lease dropped; `reason` set or removed; `sentAt` for 'sent'). */
  settle(ref: EmailRef, sendId: string, from: readonly EmailDeliveryState[], to: { state: EmailDeliveryState; at: string; reason?: EmailFailureReason; sentAt?: string }): Promise<boolean>;
}

/** The outbound-email queue (SQS). */
export interface OutboundEmailQueue {
  enqueue(job: OutboundEmailJob): Promise<void>;
}

export interface EmailOwner {
  email: string;
  language: 'en' | 'es';
  /** IANA zone for times in the text (profile; absent = UTC). */
  timeZone?: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** Another recipient than the owner (an invitation goes to the invitee). */
  to?: string;
}

/** Renders one kind's e-mail when it is sent, in the owner's language; null = its subject is gone (nothing to send). */
export type EmailRenderer = (ref: EmailRef, owner: EmailOwner) => Promise<RenderedEmail | null>;

export interface OutboundEmailsDeps {
  store: EmailDeliveryStore;
  queue: OutboundEmailQueue;
  /** 26-character time-sortable id. */
  newId(now: number): string;
  now?: () => number;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
}

const jobOf = (ref: EmailRef, sendId: string): OutboundEmailJob => ({ kind: ref.kind, userId: ref.userId, subjectId: ref.subjectId, sendId, ...(ref.token ? { token: ref.token } : {}), ...(ref.personId ? { personId: ref.personId } : {}) });

export type ResendResult =
  /** A new send was queued. */
  | { outcome: 'queued'; delivery: StoredEmailDelivery }
  /** The e-mail is on its way already (a second click): nothing new. */
  | { outcome: 'in_flight'; delivery: StoredEmailDelivery }
  /** The subject never had an e-mail (e.g. the summary went by WhatsApp). */
  | { outcome: 'none' }
  /** Resent `max` times already. */
  | { outcome: 'limit'; delivery: StoredEmailDelivery };

/** The producers' side: queue an e-mail once, resend one. */
export function createOutboundEmails(deps: OutboundEmailsDeps) {
  const now = deps.now ?? Date.now;
  const fresh = (resends: number): StoredEmailDelivery => {
    const at = now();
    return { sendId: deps.newId(at), state: 'queued', at: new Date(at).toISOString(), tries: 0, resends };
  };

  /** Puts the send's message on the queue; a refused message leaves the send failed 'not_queued' (and throws). */
  async function enqueue(ref: EmailRef, sendId: string): Promise<void> {
    try {
      await deps.queue.enqueue(jobOf(ref, sendId));
    } catch (error) {
      await deps.store
        .settle(ref, sendId, ['queued'], { state: 'failed', at: new Date(now()).toISOString(), reason: 'not_queued' })
        .catch((settleError: unknown) => deps.onError?.('Outbound e-mail: could not record the failed enqueue', settleError, { ...ref, sendId }));
      throw error;
    }
  }

  return {
    /**
     * Queues the subject's e-mail once (see the module comment). Answers the delivery as it now
     * stands; null when the subject does not exist. Throws when the message could not be queued.
     */
    async queue(ref: EmailRef): Promise<StoredEmailDelivery | null> {
      const first = fresh(0);
      if (await deps.store.put(ref, first)) {
        await enqueue(ref, first.sendId);
        return first;
      }
      const current = await deps.store.get(ref);
      if (!current) return null;
      if (current.state === 'queued' || current.state === 'retrying') {
        // A retried producer: the same send's message again (a duplicate message is harmless: one claim wins).
        await enqueue(ref, current.sendId);
        return current;
      }
      if (current.state === 'failed' && current.reason === 'not_queued') {
        const again = { ...fresh(current.resends ?? 0) };
        if (await deps.store.put(ref, again, { sendId: current.sendId, state: 'failed' })) {
          await enqueue(ref, again.sendId);
          return again;
        }
        return deps.store.get(ref);
      }
      return current;
    },

    /**
     * A new send whatever the current one is doing: the subject changed so that an older send
     * must not be the last (an invitation's new link). An older send still on its way finds itself
     * superseded (its claim and settle name its own sendId) and sends nothing more. Throws when the
     * message could not be queued.
     */
    async restart(ref: EmailRef): Promise<StoredEmailDelivery | null> {
      for (let round = 0; round < 3; round++) {
        const current = await deps.store.get(ref);
        const next = fresh(current ? (current.resends ?? 0) + 1 : 0);
        if (await deps.store.put(ref, next, current ? { sendId: current.sendId, state: current.state } : undefined)) {
          await enqueue(ref, next.sendId);
          return next;
        }
      }
      return null;
    },

    /**
     * The owner's Resend: a new send of an e-mail that failed or was sent, at most `max` times
     * per subject. A click while it is on its way changes nothing (idempotent per click). Throws
     * when the message could not be queued (the delivery is then failed 'not_queued').
     */
    async resend(ref: EmailRef, max: number): Promise<ResendResult> {
      for (let round = 0; round < 3; round++) {
        const current = await deps.store.get(ref);
        if (!current) return { outcome: 'none' };
        if ((EMAIL_IN_FLIGHT as readonly string[]).includes(current.state)) return { outcome: 'in_flight', delivery: current };
        const resends = current.resends ?? 0;
        if (resends >= max) return { outcome: 'limit', delivery: current };
        const next = fresh(resends + 1);
        if (await deps.store.put(ref, next, { sendId: current.sendId, state: current.state })) {
          await enqueue(ref, next.sendId);
          return { outcome: 'queued', delivery: next };
        }
        // Another click or a try changed it meanwhile: look again.
      }
      const latest = await deps.store.get(ref);
      return latest ? { outcome: 'in_flight', delivery: latest } : { outcome: 'none' };
    },
  };
}

export type OutboundEmails = ReturnType<typeof createOutboundEmails>;

// ---------------------------------------------------------------------------------------------
// The worker's side

export interface OutboundEmailWorkerDeps {
  store: EmailDeliveryStore;
  users: { get(userId: string): Promise<{ email: string; language?: string; timeZone?: string } | null> };
  /** Issue 32: an e-mail naming a person goes to that active member of the account (null: removed since → 'no_address'). */
  members: { get(accountId: string, personId: string): Promise<{ email: string; language: string; timeZone?: string } | null> };
  renderers: Record<OutboundEmailKind, EmailRenderer>;
  /** SES SendEmail (adapters/mailer.ts): throws TransientError / LastingError (classifySesFailure) or the raw failure. */
  mailer: { send(message: { to: string } & RenderedEmail): Promise<void> };
  /** How long a claim holds: the worker's timeout (a try older than that is dead). */
  leaseMs: number;
  /**
   * Told once a send ended (sent, or failed for good), per kind: the call-summary kind records
   * it among the call's summary deliveries. Best effort: a failure is only reported (onError).
   */
  onSettled?: Partial<Record<OutboundEmailKind, (ref: EmailRef, outcome: SettledEmail) => Promise<void>>>;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
  now?: () => number;
}

/** How a send ended, as onSettled hears it. */
export interface SettledEmail {
  state: 'sent' | 'failed';
  reason?: EmailFailureReason;
  /** Tries of this send. */
  tries: number;
  /** 0 for the first send, n for the n-th Resend. */
  resends: number;
  at: string;
}

export type OutboundEmailOutcome =
  | 'sent'
  | 'failed'
  /** Already sent, failed or superseded by a resend: nothing to do. */
  | 'done'
  /** Its subject or delivery is gone. */
  | 'gone'
  /** A try died while SES had it: recorded as failed 'unconfirmed', not sent again. */
  | 'unconfirmed';

/** Another try holds the send right now (a duplicate message): this one comes back later. */
export class EmailSendBusyError extends Error {
  constructor() {
    super('outbound e-mail: another try is sending it');
    this.name = 'EmailSendBusyError';
  }
}

/** The delivery reason of a lasting SES refusal. */
export function sesRefusalReason(error: LastingError): EmailFailureReason {
  if (error.reason === 'credentials') return 'credentials';
  if (/^(MailFromDomainNotVerified)/.test(error.code) || (error.code === 'MessageRejected' && /not verified/i.test(error.message))) return 'not_verified';
  if (/(SendingPaused|AccountSuspended)/.test(error.code)) return 'sending_paused';
  if (error.reason === 'permission') return 'permission';
  return 'rejected';
}

/**
 * One outbound-email message (see the module comment): claim, render, send, mark. A transient
 * SES failure that proves the e-mail was not taken is thrown (a TransientError) after the
 * delivery is set 'retrying', so the queue tries again on the schedule; on the job's last try it
 * is recorded as failed ('unavailable') instead. Lasting refusals are recorded as failed with
 * their reason and not retried.
 */
export async function sendOutboundEmail(deps: OutboundEmailWorkerDeps, job: OutboundEmailJob, options: { finalAttempt: boolean }): Promise<OutboundEmailOutcome> {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const ref: EmailRef = { kind: job.kind, userId: job.userId, subjectId: job.subjectId, ...(job.token ? { token: job.token } : {}), ...(job.personId ? { personId: job.personId } : {}) };
  const fail = async (reason: EmailFailureReason): Promise<'failed'> => {
    await finish(deps, ref, job.sendId, ['sending'], { state: 'failed', at: iso(), reason });
    return 'failed';
  };

  if (!(await deps.store.claim(ref, job.sendId, iso(), new Date(now() + deps.leaseMs).toISOString()))) {
    const current = await deps.store.get(ref);
    if (!current) return 'gone';
    if (current.sendId !== job.sendId || current.state === 'sent' || current.state === 'failed') return 'done';
    if (current.state === 'sending') {
      if (current.leaseUntil && Date.parse(current.leaseUntil) > now()) throw new EmailSendBusyError();
      // The try that claimed it died while SES may have had the e-mail: never sent twice.
      await finish(deps, ref, job.sendId, ['sending'], { state: 'failed', at: iso(), reason: 'unconfirmed' });
      return 'unconfirmed';
    }
    // queued/retrying yet not claimable: a race with another write; the queue brings it back.
    throw new EmailSendBusyError();
  }

  // The recipient as they are now: the account's owner profile, or the member the e-mail names.
  const owner = job.personId && job.personId !== job.userId ? await deps.members.get(job.userId, job.personId) : await deps.users.get(job.userId);
  if (!owner?.email) return fail('no_address');
  const rendered = await deps.renderers[job.kind](ref, {
    email: owner.email,
    language: owner.language === 'es' ? 'es' : 'en',
    ...(owner.timeZone ? { timeZone: owner.timeZone } : {}),
  });
  if (!rendered) return fail('gone');

  try {
    await deps.mailer.send({ ...rendered, to: rendered.to ?? owner.email });
  } catch (error) {
    const failure = classifyProviderFailure(error);
    if (failure instanceof LastingError) return fail(sesRefusalReason(failure));
    const notTaken = failure instanceof TransientError && (failure.status !== undefined || neverReachedProvider(failure));
    // A timeout or a connection broken mid-request: SES may have it. At most once.
    if (!notTaken) return fail('unconfirmed');
    if (options.finalAttempt) return fail('unavailable');
    await deps.store.settle(ref, job.sendId, ['sending'], { state: 'retrying', at: iso(), reason: 'unavailable' });
    throw failure;
  }
  await finish(deps, ref, job.sendId, ['sending'], { state: 'sent', at: iso(), sentAt: iso() });
  return 'sent';
}

/** Settles a send for good and, when this write did it, tells the kind's onSettled. */
async function finish(
  deps: Pick<OutboundEmailWorkerDeps, 'store' | 'onSettled' | 'onError'>,
  ref: EmailRef,
  sendId: string,
  from: readonly EmailDeliveryState[],
  to: { state: 'sent' | 'failed'; at: string; reason?: EmailFailureReason; sentAt?: string },
): Promise<boolean> {
  if (!(await deps.store.settle(ref, sendId, from, to))) return false;
  const hook = deps.onSettled?.[ref.kind];
  if (hook) {
    const settled = await deps.store.get(ref).catch(() => null);
    await hook(ref, { state: to.state, at: to.at, tries: settled?.tries ?? 0, resends: settled?.resends ?? 0, ...(to.reason ? { reason: to.reason } : {}) }).catch((error: unknown) =>
      deps.onError?.('Outbound e-mail: could not record how the send ended', error, { ...ref, sendId }),
    );
  }
  return true;
}

/**
 * The give-up delivery (every try failed or died): a send still claimed is 'unconfirmed' (a try
 * died holding it), one never taken is 'unavailable'. A settled or superseded send is left alone.
 */
export async function giveUpOutboundEmail(deps: Pick<OutboundEmailWorkerDeps, 'store' | 'now' | 'onSettled' | 'onError'>, job: OutboundEmailJob): Promise<void> {
  const at = new Date((deps.now ?? Date.now)()).toISOString();
  const ref: EmailRef = { kind: job.kind, userId: job.userId, subjectId: job.subjectId, ...(job.personId ? { personId: job.personId } : {}) };
  if (await finish(deps, ref, job.sendId, ['sending'], { state: 'failed', at, reason: 'unconfirmed' })) return;
  await finish(deps, ref, job.sendId, ['queued', 'retrying'], { state: 'failed', at, reason: 'unavailable' });
}
