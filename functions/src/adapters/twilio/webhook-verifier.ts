/**
 * The Twilio webhook verifier (provider 'twilio' in the route manifest). The {userId}'s Twilio
 * integration is read and X-Twilio-Signature is checked with its auth token over the public URL
 * Twilio called (APP_URL origin + raw path + raw query) and the form parameters. A missing or
 * wrong signature, an unknown user, a user without an active Twilio integration, or another
 * account's AccountSid → 403 text/plain, no TwiML (the same answer for all: no enumeration). A
 * {userId} that is not a Cognito sub (UUID) gets that same 403 before any read (a 5,000-character
 * key would make DynamoDB refuse the request and the webhook answer 500).
 */
import { isUuid } from '../../lib/ids.js';
import { textResponse, type WebhookVerifier } from '../../http/webhook-verification.js';
import { formParams, publicRequestUrl, verifyTwilioSignature } from './signature.js';

export interface TwilioWebhookVerifierDeps {
  /** The user's Twilio Voice integration with its auth token opened, or null. */
  integrations: { get(userId: string): Promise<{ accountSid: string; authToken: string; isActive: boolean } | null> };
  /** The app's public origin (APP_URL): the URLs Twilio calls start with it. */
  appUrl: () => string;
  onRefused?: (path: string) => void;
}

export function createTwilioWebhookVerifier(deps: TwilioWebhookVerifierDeps): WebhookVerifier<'twilio'> {
  async function check(req: Parameters<WebhookVerifier<'twilio'>['verify']>[0]) {
    const userId = req.params.userId ?? '';
    const signature = req.headers['x-twilio-signature'];
    if (!isUuid(userId) || !signature) return null;
    const integration = await deps.integrations.get(userId);
    if (!integration?.isActive) return null;
    const params = formParams(req.rawBody);
    const url = publicRequestUrl(deps.appUrl(), req.rawPath, req.rawQueryString);
    if (!verifyTwilioSignature(integration.authToken, signature, url, params)) return null;
    if (params.AccountSid !== undefined && params.AccountSid !== integration.accountSid) return null;
    return { userId, params };
  }
  return {
    async verify(req) {
      const verified = await check(req);
      if (verified) return { verified };
      deps.onRefused?.(req.rawPath);
      return { refused: textResponse(403, 'Forbidden') };
    },
  };
}
