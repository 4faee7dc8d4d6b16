/**
 * Wires the call-summary worker: the call and settings items, the user's ChatGPT connection, and
 * the three deliveries (e-mail queued on the outbound-email queue, the user's WhatsApp
 * integration, the summary webhook through the outbound guard, signed with the user's signing
 * secret). No SES client: e-mails (summaries, handoff notices, the call's alert) are queued.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { logger } from '../adapters/logger.js';
import { OutboundBlockedError, OutboundError, OutboundTimeoutError, guardedFetch } from '../adapters/outbound/guarded-fetch.js';
import { createSummaryDelivery, deliveryReasons, type WebhookPostResult } from '../domain/voice/delivery.js';
import type { CallSummaryJobDeps } from '../domain/voice/summary.js';
import { once } from '../lib/once.js';
import { aiConnector } from './ai.js';
import { callRepository, handoffAnalyses, voiceSettingsRepository } from './voice.js';
import { voiceSettingsService } from './voice-settings.js';
import { graphClient, whatsappCredentials } from './whatsapp.js';
import { escalationAlerts } from './notifications.js';
import { outboundEmails } from './outbound-email.js';

export const WEBHOOK_TIMEOUT_MS = 10_000;

/** One signed POST through the outbound guard; redirects are not followed (a 3xx is a failure). */
export async function postSummaryWebhook(url: string, body: string, headers: Record<string, string>): Promise<WebhookPostResult> {
  try {
    const res = await guardedFetch(url, { method: 'POST', headers, body, timeoutMs: WEBHOOK_TIMEOUT_MS, maxBytes: 4096, maxRedirects: 0 });
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    return { ok: false, status: res.status, error: deliveryReasons.webhookStatus(res.status) };
  } catch (error) {
    if (error instanceof OutboundBlockedError) return { ok: false, permanent: true, error: deliveryReasons.webhookBlocked(error.reason) };
    if (error instanceof OutboundTimeoutError) return { ok: false, error: deliveryReasons.webhookTimeout(WEBHOOK_TIMEOUT_MS / 1000) };
    if (error instanceof OutboundError) return { ok: false, error: deliveryReasons.webhookUnreachableDetail(error.message) };
    logger.error('summary webhook: unexpected error', { error: error as Error });
    return { ok: false, error: deliveryReasons.webhookUnreachable };
  }
}

export const callSummaryDeps = once((): CallSummaryJobDeps => {
  const c = config();
  const calls = callRepository();
  const users = new DynamoUserRepository(documentClient(), c.TABLE_NAME);
  const onError = (message: string, error: unknown) => logger.warn(message, { error: error as Error });
  return {
    calls,
    ai: aiConnector(),
    settings: voiceSettingsRepository(),
    alerts: escalationAlerts(),
    emails: outboundEmails(),
    handoffs: handoffAnalyses(),
    onInvalid: (info) => logger.warn('call summary: invalid model output', info),
    delivery: createSummaryDelivery({
      calls,
      users,
      whatsapp: { connection: whatsappCredentials, sendText: (creds, to, text) => graphClient().sendText(creds, to, text) },
      webhook: { post: postSummaryWebhook },
      signingSecret: async (userId) => (await voiceSettingsService().revealSecret(userId)).secret,
      appUrl: c.APP_URL,
      retryBaseMs: c.SUMMARY_RETRY_BASE_MS,
      onError,
    }),
  };
});
