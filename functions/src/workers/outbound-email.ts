/**
 * outbound-email consumer (issue 34 item 4): one e-mail to an account's owner per message
 * ({userId, kind, subjectId, sendId}; domain/notifications/emails.ts). Claims the send, renders it
 * in the owner's language, sends it through SES, marks it sent. While SES fails the message comes
 * back on the retry schedule (the subject shows 'retrying'); SES's refusals, an outage longer than
 * every try, and a try that died while SES had the e-mail leave it 'failed' with the reason.
 */
import { logger } from '../adapters/logger.js';
import { outboundEmailWorkerDeps } from '../composition/outbound-email-worker.js';
import { giveUpOutboundEmail, sendOutboundEmail } from '../domain/notifications/emails.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker(
  'outbound-email',
  async (job, record, { receiveCount, finalAttempt }) => {
    const outcome = await sendOutboundEmail(outboundEmailWorkerDeps(), job, { finalAttempt });
    logger.info('outbound-email processed', { messageId: record.messageId, userId: job.userId, kind: job.kind, subjectId: job.subjectId, sendId: job.sendId, receiveCount, outcome });
  },
  { giveUp: (job) => giveUpOutboundEmail(outboundEmailWorkerDeps(), job) },
);
