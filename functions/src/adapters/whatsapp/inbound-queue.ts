/**
 * The whatsapp-inbound queue: one SQS message per verified webhook delivery (WhatsAppInboundJob
 * as JSON). Meta's deliveries are a few KB; SQS takes up to 256 KB, beyond which the send fails
 * and the webhook answers 500 (Meta redelivers).
 */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { WhatsAppInboundJob } from '../../domain/whatsapp/ports.js';
import type { InboundJobQueue } from '../../domain/whatsapp/webhook.js';

export class SqsWhatsAppInboundQueue implements InboundJobQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(job: WhatsAppInboundJob): Promise<void> {
    if (!this.queueUrl) throw new Error('No queue URL configured for whatsapp-inbound');
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job) }));
  }
}
