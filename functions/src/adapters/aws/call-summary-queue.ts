/**
 * The call-summary queue: one SQS message per finished call (CallSummaryJob as JSON); the
 * call-summary worker analyses the call and delivers its summary.
 */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { CallSummaryJob, CallSummaryQueue } from '../../domain/voice/ports.js';

export class SqsCallSummaryQueue implements CallSummaryQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(job: CallSummaryJob): Promise<void> {
    if (!this.queueUrl) throw new Error('No queue URL configured for call-summary');
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify({ userId: job.userId, callId: job.callId }) }));
  }
}
