/**
 * Queue job bodies (SQS JSON messages), declared once: the route manifest names each queue's
 * schema (routes.ts `workers`), the worker wrapper validates every message with it, the SQS
 * sender is typed by it, and the domain's job types are inferred from it.
 *
 * The manifest is imported by infra/, the local runtime and (through the route table) API
 * bundles that never parse a job, so every schema is marked pure: unused, esbuild drops it.
 * No zod-locale import either (a side effect): job issues are only logged, the worker wrapper
 * loads the locale where messages are parsed.
 */
import * as z from 'zod/mini';

// Every call is marked pure, nested ones too: esbuild keeps an unused pure call whose arguments
// it cannot prove side-effect free (it does not read zod's own annotations here).
const id = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1));

/**
 * `generation` (issue 34): the source's processing round the job was queued for (a new one each
 * time the source goes back to pending: confirm, refresh, reprocess). The job's outcome is written
 * only while the source is still pending in that round, so a stale job of an older round never
 * overwrites a newer outcome. Jobs queued before generations existed have none (and match sources
 * without one).
 */
const generation = /* @__PURE__ */ z.optional(id);

/** file-ingest: one uploaded document to extract, chunk and embed. */
export const fileIngestJob = /* @__PURE__ */ z.object({ userId: id, agentId: id, fileId: id, generation });
export type FileIngestJob = z.infer<typeof fileIngestJob>;

/** url-scrape: one web page to fetch, chunk and embed; `refresh` (the Refresh and Reprocess actions) replaces the chunks only when the text changed. */
export const urlScrapeJob = /* @__PURE__ */ z.object({
  userId: id,
  agentId: id,
  urlId: id,
  refresh: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean()),
  generation,
});
export type UrlScrapeJob = z.infer<typeof urlScrapeJob>;

const callId = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(200));

/**
 * call-summary: analyse this finished call and deliver its summary. stage 'handoff' (issue 16,
 * warm transfer): the call is being forwarded to a human right now; summarise it so far and tell
 * the owner at once (the final summary still follows when the call ends).
 */
export const callSummaryJob = /* @__PURE__ */ z.object({ userId: callId, callId, stage: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.literal('handoff')) });
export type CallSummaryJob = z.infer<typeof callSummaryJob>;

/** Uploads-bucket prefix of inbound WhatsApp bodies too large for a queue message. */
export const INBOUND_BODY_PREFIX = 'tmp/whatsapp-inbound/';

const text = /* @__PURE__ */ z.string();
// A regex rather than z.startsWith: the worker bundles already carry zod's regex check.
const parkedKey = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/* @__PURE__ */ new RegExp(`^${INBOUND_BODY_PREFIX}`)));

/**
 * whatsapp-inbound: one verified webhook delivery (or one piece of an oversized one), as
 * received: `body` is the raw JSON text (the signature was checked over these bytes), or — when
 * one piece is too big for SQS on its own — `bodyKey` points to it in the uploads bucket under
 * INBOUND_BODY_PREFIX (1-day lifecycle); the worker reads and then deletes it (and refuses a
 * message with neither). `receivedAt`: ISO time the webhook acknowledged the delivery.
 */
export const whatsappDeliveryJob = /* @__PURE__ */ z.object({
  userId: id,
  integrationId: id,
  receivedAt: text,
  body: /* @__PURE__ */ z.optional(text),
  bodyKey: /* @__PURE__ */ z.optional(parkedKey),
});
/**
 * whatsapp-inbound, the other job (issue 34): "Answer waiting messages" for one conversation of
 * the user (its messages the model could not answer; domain/conversations/waiting.ts).
 */
export const whatsappAnswerWaitingJob = /* @__PURE__ */ z.object({
  userId: id,
  answerWaiting: /* @__PURE__ */ z.object({ conversationId: id }),
});
export type WhatsAppAnswerWaitingJob = z.infer<typeof whatsappAnswerWaitingJob>;
/**
 * whatsapp-inbound, the third job (issue 29): the customer wrote while a person answered; when the
 * pause has ended by itself, what they left is handed to the agent (domain/conversations/waiting.ts
 * resumeCheck). `wroteAt`: when that message was written as the conversation's lastInboundAt has
 * it (a newer one supersedes the check).
 */
export const whatsappResumeCheckJob = /* @__PURE__ */ z.object({
  userId: id,
  resumeCheck: /* @__PURE__ */ z.object({ conversationId: id, wroteAt: id }),
});
export const whatsappInboundJob = /* @__PURE__ */ z.union([whatsappAnswerWaitingJob, whatsappResumeCheckJob, whatsappDeliveryJob]);
type InboundFields = Omit<z.infer<typeof whatsappDeliveryJob>, 'body' | 'bodyKey'>;
/** What the webhook queues: exactly one of body / bodyKey (the worker refuses a message with neither). */
export type QueuedInboundJob = InboundFields & ({ body: string; bodyKey?: undefined } | { body?: undefined; bodyKey: string });
/** A delivery with its body at hand (a parked piece once read back): what the inbound pipeline processes. */
export type WhatsAppInboundJob = InboundFields & { body: string };

/**
 * contacts-jobs (issue 19): one CSV job of a user, its record in the table (the mapping, the
 * progress). An import slice starts at `cursor` (the byte offset after the last row done, and that
 * row's line number and index) and queues the next slice before the function's timeout.
 */
export const contactsJob = /* @__PURE__ */ z.object({
  userId: id,
  jobId: id,
  kind: /* @__PURE__ */ z.enum(['import', 'undo', 'export']),
  cursor: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.object({ offset: /* @__PURE__ */ z.number(), line: /* @__PURE__ */ z.number(), row: /* @__PURE__ */ z.number() }),
  ),
});
export type ContactsJob = z.infer<typeof contactsJob>;

/**
 * privacy-jobs (issue 33): one person's erasure or export (`person`: the job item
 * `PRIVACYJOB#{jobId}` in the account holds who and how far), or the account's deletion
 * (`accountDeletion`; `sweep`: its final, delayed re-check). A job that nears the function's timeout queues itself again with
 * `resume` (the steps done are on the job item, so a redelivery after a crash does the same).
 */
export const privacyJob = /* @__PURE__ */ z.union([
  /* @__PURE__ */ z.object({ kind: /* @__PURE__ */ z.literal('person'), accountId: id, jobId: id, resume: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.number()) }),
  /* @__PURE__ */ z.object({
    kind: /* @__PURE__ */ z.literal('accountDeletion'),
    accountId: id,
    resume: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.number()),
    // The final sweep's run: queued with a delay past the access tokens' lifetime (domain/privacy/account-deletion.ts).
    sweep: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean()),
  }),
  // Issue 33: the account's stored data re-dated to its current retention (retention-restamp.ts); `cursor`: where a slice stopped.
  /* @__PURE__ */ z.object({
    kind: /* @__PURE__ */ z.literal('retention'),
    accountId: id,
    resume: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.number()),
    cursor: /* @__PURE__ */ z.optional(
      /* @__PURE__ */ z.object({
        stage: /* @__PURE__ */ z.enum(['messages', 'conversations', 'calls', 'media']),
        after: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.record(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(1024)))),
      }),
    ),
  }),
]);
export type PrivacyJob = z.infer<typeof privacyJob>;
export type RetentionRestampJob = Extract<PrivacyJob, { kind: 'retention' }>;

/** What an outbound e-mail is about (see outboundEmailJob). */
export const OUTBOUND_EMAIL_KINDS = ['notification', 'call-summary', 'call-handoff', 'booking-change', 'team-invitation'] as const;
export type OutboundEmailKind = (typeof OUTBOUND_EMAIL_KINDS)[number];

/**
 * outbound-email (issue 34 item 4): one e-mail to an account's owner, sent through SES by the
 * outbound-email worker and retried on the schedule while SES fails (domain/notifications/
 * emails.ts; producers never build this by hand: they call OutboundEmails.queue). The job names
 * what to send, never its text, address or any secret: the worker reads the owner's current
 * address and language and renders the e-mail from the stored subject when it sends.
 * - kind 'notification': the alert e-mail of an in-app notification (subjectId = the notification id);
 * - kind 'call-summary': a finished call's summary (subjectId = the call id);
 * - kind 'call-handoff': the notice of a call being forwarded to a person (subjectId = the call id).
 * - kind 'booking-change' (issue 30): a booking the agent made, moved or cancelled (subjectId = the
 *   change's record, domain/bookings/owner-email.ts).
 * - kind 'team-invitation' (issue 32): an invitation to join the account (subjectId = the
 *   invitation id), to the invitee's address stored on it, not the owner's. The one job with a
 *   secret: `token`, the link's token, which is stored nowhere else (the table keeps its SHA-256
 *   only); the worker sends it only while it is still the invitation's current token.
 * `personId` (issue 32, kind 'notification'): the member whose notification it is — the worker e-mails
 * their address in their language; absent = the account's own person (its owner), as before.
 * `sendId`: this send, as recorded in the subject's delivery state when it was queued (a resend
 * starts a new one, so a message of an older send does nothing). Strict: a message carrying
 * anything more (an address, a text) is refused, not sent.
 */
export const outboundEmailJob = /* @__PURE__ */ z
  .strictObject({
    userId: id,
    kind: /* @__PURE__ */ z.enum(OUTBOUND_EMAIL_KINDS),
    subjectId: callId,
    personId: /* @__PURE__ */ z.optional(id),
    sendId: id,
    token: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[A-Za-z0-9_-]{43}$/))),
  })
  .check(/* @__PURE__ */ z.refine((job) => (job.kind === 'team-invitation') === (job.token !== undefined), 'only a team invitation carries its link token'));
export type OutboundEmailJob = z.infer<typeof outboundEmailJob>;

/**
 * web-push (issue 29 item 6): a push to the owner's devices, sent by the web-push worker with the
 * VAPID keys and retried on the schedule while the push service fails. Ids only: the worker reads
 * the device's subscription and the owner's language, and renders the text, when it sends.
 * - {userId, notificationId}: a notification was raised; the worker checks which events the owner
 *   pushes and queues one job per subscribed device (so one device's failure retries only it);
 * - {userId, notificationId, deviceId}: that notification's push to one device;
 * - {userId, deviceId, test: true}: the "send a test" button of one device.
 * `personId` (issue 32): the member whose notification and devices they are (their devices, their
 * settings, their language); absent = the account's own person (its owner), as before.
 */
export const webPushJob = /* @__PURE__ */ z
  .strictObject({
    userId: id,
    personId: /* @__PURE__ */ z.optional(id),
    notificationId: /* @__PURE__ */ z.optional(id),
    deviceId: /* @__PURE__ */ z.optional(id),
    test: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.literal(true)),
  })
  .check(/* @__PURE__ */ z.refine((job) => (job.test === true ? job.deviceId !== undefined && job.notificationId === undefined : job.notificationId !== undefined), 'a web-push job names a notification, or a device to test'));
export type WebPushJob = z.infer<typeof webPushJob>;

/**
 * booking-events (issue 30): what follows a booking's change (domain/bookings/change-runner.ts).
 * - {userId, change}: one stored change (BookingChange of domain/bookings/ports.ts, as the core
 *   reported it), handed to each listener of composition/booking-events.ts in turn; the booking is
 *   read again there where the current state matters, so only the fields the runner relies on are
 *   checked here and the rest travels as sent;
 * - {userId, reminder}: a reminder the booking-reminders schedule found due, for the booking as it
 *   was when scheduled (`start`: a booking moved since is not reminded of its old time).
 */
const bookingRef = /* @__PURE__ */ z.looseObject({ _id: id, start: id, status: id, updatedAt: id });
export const bookingChangeJob = /* @__PURE__ */ z.object({
  userId: id,
  change: /* @__PURE__ */ z.looseObject({
    kind: /* @__PURE__ */ z.enum(['created', 'moved', 'cancelled', 'status']),
    booking: bookingRef,
    before: /* @__PURE__ */ z.optional(bookingRef),
    actor: /* @__PURE__ */ z.looseObject({ by: /* @__PURE__ */ z.enum(['agent', 'owner', 'api']), channel: id }),
  }),
});
export const bookingReminderJob = /* @__PURE__ */ z.object({
  userId: id,
  // at: the run's scheduled time (ISO) the reminder was found due at.
  reminder: /* @__PURE__ */ z.object({ bookingId: id, start: id, at: /* @__PURE__ */ z.optional(id) }),
});
export type BookingReminderJob = z.infer<typeof bookingReminderJob>;
export const bookingEventsJob = /* @__PURE__ */ z.union([bookingReminderJob, bookingChangeJob]);
