/**
 * The integration-health tracker that also e-mails the owner (issue 34 item 6): the notification's
 * e-mail queued on the outbound-email queue when they get alerts by e-mail. Apart from
 * integration-health.ts so the functions that may not queue e-mail (the voice relay, the
 * webhooks) do not load the queue; wired where a revoked WhatsApp token or a refused key shows
 * first: the whatsapp-inbound worker and the conversations API ('queue:outbound-email').
 */
import { once } from '../lib/once.js';
import { inboxSettingsRepository } from './conversations.js';
import { integrationHealthTracker } from './integration-health.js';
import { outboundEmails } from './outbound-email.js';

export const integrationHealthWithEmail = once(() => integrationHealthTracker(() => ({ settings: inboxSettingsRepository(), emails: outboundEmails() })));
