/**
 * Sends one Web Push (issue 29): the `web-push` library builds the request — the payload
 * encrypted for the subscription's keys (RFC 8291, aes128gcm) and the VAPID Authorization header
 * (RFC 8292, "vapid t=<JWT>, k=<public key>") — and the outbound guard posts it (RFC 8030): the
 * endpoint is a URL the browser gave us, so it gets the same checks as any user-supplied URL (a
 * public address only, re-checked at connect time; no redirects).
 */
import webpush from 'web-push';
import { classifyHttpFailure, LastingError } from '../../domain/retry.js';
import { PushSubscriptionGoneError, type PushKeys, type PushSender } from '../../domain/notifications/push.js';
import type { GuardedRequest, GuardedResponse } from '../outbound/guarded-fetch.js';

export interface WebPushSenderDeps {
  keys: () => Promise<PushKeys | null>;
  /** The outbound guard's fetch. */
  fetch: (url: string, req: GuardedRequest) => Promise<GuardedResponse>;
  timeoutMs?: number;
}

export function createWebPushSender(deps: WebPushSenderDeps): PushSender {
  return {
    async send(device, payload, options) {
      const keys = await deps.keys();
      if (!keys) throw new LastingError({ provider: 'push', code: 'not_configured', reason: 'invalid_request', message: 'Web Push: no VAPID keys configured' });
      const details = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(payload), {
        vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: options.ttlSeconds,
        topic: options.topic,
        urgency: options.urgency,
        contentEncoding: 'aes128gcm',
      });
      const headers = Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name, String(value)]));
      const body = details.body === null ? undefined : Buffer.from(details.body);
      const res = await deps.fetch(details.endpoint, { method: details.method, headers, ...(body ? { body } : {}), timeoutMs: deps.timeoutMs ?? 10_000, maxBytes: 16 * 1024, maxRedirects: 0 });
      if (res.status >= 200 && res.status < 300) return;
      // RFC 8030 §7.3 / the push services: the subscription expired or was unsubscribed.
      if (res.status === 404 || res.status === 410) throw new PushSubscriptionGoneError(res.status);
      throw classifyHttpFailure('push', res.status, { retryAfter: res.headers['retry-after'] ?? null, message: `The push service answered HTTP ${res.status}` });
    },
  };
}
