/**
 * The queue producers' ports, all on the one SQS job sender (adapters/aws/sqs-jobs.ts): each
 * port only names its queue, the job's type comes from that queue's manifest schema.
 */
import { queueUrl } from '../config.js';
import { sqsService } from '../adapters/aws/sqs.js';
import { SqsJobQueue } from '../adapters/aws/sqs-jobs.js';
import type { KnowledgeJobs } from '../domain/agents/repository.js';
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
