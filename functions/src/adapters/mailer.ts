/**
 * Mailer over SESv2 SendEmail (simple text + HTML content), from config MAIL_FROM: the request
 * the SDK's SESv2 client sends (POST /v2/email/outbound-emails), through aws-json.ts. A failure is
 * thrown in the two kinds of domain/retry.ts (classifySesFailure: SES's refusals are lasting, an
 * outage transient), so a queued e-mail knows whether to wait for SES or give up with the reason.
 */
import type { SendEmailRequest } from '@aws-sdk/client-sesv2';
import type { Mailer } from '../domain/auth/ports.js';
import { classifySesFailure } from '../domain/retry.js';
import type { SignedJsonRequests } from './aws/aws-json.js';

export class SesMailer implements Mailer {
  constructor(
    private readonly ses: SignedJsonRequests,
    private readonly from: string,
  ) {}

  async send(message: { to: string; subject: string; text: string; html: string }): Promise<void> {
    const request: SendEmailRequest = {
      FromEmailAddress: this.from,
      Destination: { ToAddresses: [message.to] },
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: message.text, Charset: 'UTF-8' }, Html: { Data: message.html, Charset: 'UTF-8' } },
        },
      },
    };
    try {
      await this.ses('/v2/email/outbound-emails', request, { 'content-type': 'application/json' });
    } catch (error) {
      throw classifySesFailure(error) ?? error;
    }
  }
}
