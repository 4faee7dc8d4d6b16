/**
 * The queue producers' ports, all on the one SQS job sender (adapters/aws/sqs-jobs.ts): each
 * port only names its queue, the job's type comes from that queue's manifest schema.
 */
import { queueUrl } from '../config.js';
import type { QueueJob } from '../routes.js';
import { sqsService } from '../adapters/aws/sqs.js';
import { SqsJobQueue } from '../adapters/aws/sqs-jobs.js';
import type { KnowledgeJobs } from '../domain/agents/repository.js';
import type { BookingEvents } from '../domain/bookings/ports.js';
import type { ReminderJobQueue } from '../domain/bookings/reminders.js';
import type { WaitingAnswerQueue } from '../domain/conversations/waiting.js';
import type { CallSummaryQueue } from '../domain/voice/ports.js';
import type { InboundJobQueue } from '../domain/whatsapp/webhook.js';
import { once } from '../lib/once.js';

export const jobQueue = /* @__PURE__ */ once(() => new SqsJobQueue(sqsService(), queueUrl));

/** file-ingest and url-scrape (agents: uploads, URLs, refresh). */
export const knowledgeJobs = (): KnowledgeJobs => ({
  ingestFiles: (jobs) => jobQueue().send('file-ingest', jobs),
  scrapeUrls: (jobs) => jobQueue().send('url-scrape', jobs),
});

/** call-summary (the call loop and the stale-calls sweeper). */
export const callSummaryQueue = (): CallSummaryQueue => ({
  enqueue: (job) => jobQueue().send('call-summary', [job]),
});

/** whatsapp-inbound (the WhatsApp webhook: a delivery, or the pieces of an oversized one). */
export const whatsappInboundQueue = (): InboundJobQueue => ({
  enqueue: (job) => jobQueue().send('whatsapp-inbound', [job]),
  enqueueAll: (jobs) => jobQueue().send('whatsapp-inbound', jobs),
});

/** whatsapp-inbound, "Answer waiting messages" (issue 34): one job per conversation; the resume check of a pause (issue 29), delayed. */
export const waitingAnswerQueue = (): WaitingAnswerQueue => ({
  answerWaiting: (userId, conversationIds) => jobQueue().send('whatsapp-inbound', conversationIds.map((conversationId) => ({ userId, answerWaiting: { conversationId } }))),
  resumeCheck: (userId, conversationId, wroteAt, delaySeconds) => jobQueue().send('whatsapp-inbound', [{ userId, resumeCheck: { conversationId, wroteAt } }], delaySeconds),
});

/**
 * booking-events (issue 30): the core's BookingEvents port — each stored change, one message, for
 * the listeners of composition/booking-events.ts. A refused send throws (the core logs it; the
 * change itself stands).
 */
export const bookingEvents = (): BookingEvents => ({
  // The schema checks only what the runner relies on and lets the rest through (a loose object, hence the cast).
  changed: (userId, change) => jobQueue().send('booking-events', [{ userId, change: change as unknown as Extract<QueueJob<'booking-events'>, { change: unknown }>['change'] }]),
});

/** booking-events, the reminders the booking-reminders schedule found due. */
export const bookingReminderQueue = (): ReminderJobQueue => ({
  enqueue: (jobs) => jobQueue().send('booking-events', jobs),
});
