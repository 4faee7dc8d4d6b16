/**
 * POST /api/webhooks/twilio/{userId}/voice[/gather|/status|/recording] ('webhook' auth: Twilio
 * signs, we verify). Before anything else: the user's Twilio integration is read and
 * X-Twilio-Signature is checked with its auth token over the public URL Twilio called (APP_URL
 * origin + raw path + raw query) and the form parameters. A missing or wrong signature, an
 * unknown user, a user without an active Twilio integration, or another account's AccountSid →
 * 403 text/plain, no TwiML (the same answer for all: no enumeration). A {userId} that is not a
 * Cognito sub (UUID) gets that same 403 before any read (a 5,000-character key would make
 * DynamoDB refuse the request and the webhook answer 500).
 *
 * Verified: the call loop answers TwiML (text/xml). If the loop itself fails, the caller hears
 * the error message and the call ends (Twilio would otherwise say "an application error has
 * occurred"); the status and recording callbacks answer an empty <Response/>.
 */
import { config } from '../config.js';
import { logger } from '../adapters/logger.js';
import { formParams, publicRequestUrl, verifyTwilioSignature } from '../adapters/twilio/signature.js';
import { renderTwiml } from '../adapters/twilio/twiml.js';
import { callLoop, voiceIntegrationReader } from '../composition/voice-webhook.js';
import { VOICE_DEFAULTS } from '../contract/voice.js';
import type { CallScript, TwilioCallParams } from '../domain/voice/call-loop.js';
import { isUuid } from '../lib/ids.js';
import { httpGroup, type HttpResult, type Request, type RouteResult, type RouteTable } from '../http/handler.js';

const text = (status: number, body: string): HttpResult => ({
  statusCode: status,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body,
});

const xml = (body: string): HttpResult => ({
  statusCode: 200,
  headers: { 'content-type': 'text/xml; charset=utf-8', 'cache-control': 'no-store' },
  body,
});

const EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

const FAILED_CALL: CallScript = {
  voice: { voice: VOICE_DEFAULTS.voice, language: VOICE_DEFAULTS.language, speechRate: 1, pitch: 1, volume: 1 },
  steps: [{ kind: 'say', text: VOICE_DEFAULTS.messageError }, { kind: 'hangup' }],
};

/** The verified form parameters, or null (→ 403). */
async function verified(req: Request): Promise<TwilioCallParams | null> {
  const userId = req.params.userId ?? '';
  const signature = req.headers['x-twilio-signature'];
  if (!isUuid(userId) || !signature) return null;
  const integration = await voiceIntegrationReader().get(userId);
  if (!integration?.isActive) return null;
  const params = formParams(req.rawBody);
  const url = publicRequestUrl(config().APP_URL, req.event.rawPath, req.event.rawQueryString);
  if (!verifyTwilioSignature(integration.authToken, signature, url, params)) return null;
  if (params.AccountSid !== undefined && params.AccountSid !== integration.accountSid) return null;
  return params;
}

function webhook(run: (userId: string, params: TwilioCallParams, req: Request) => Promise<string>, onFailure: string) {
  return async (req: Request): Promise<RouteResult> => {
    const params = await verified(req);
    if (!params) {
      logger.warn('Twilio webhook refused: signature, user or integration', { path: req.event.rawPath });
      return { raw: text(403, 'Forbidden') };
    }
    const userId = req.params.userId ?? '';
    try {
      return { raw: xml(await run(userId, params, req)) };
    } catch (error) {
      logger.error('Twilio webhook failed', { error: error as Error, userId, callSid: params.CallSid });
      return { raw: xml(onFailure) };
    }
  };
}

export const routes: RouteTable = {
  'POST /api/webhooks/twilio/{userId}/voice': webhook(async (userId, p) => renderTwiml(await callLoop().incoming(userId, p)), renderTwiml(FAILED_CALL)),
  'POST /api/webhooks/twilio/{userId}/voice/gather': webhook(
    async (userId, p, req) => renderTwiml(await callLoop().gather(userId, p, { call: req.query.call, agent: req.query.agent, turn: req.query.turn, silences: req.query.silences })),
    renderTwiml(FAILED_CALL),
  ),
  'POST /api/webhooks/twilio/{userId}/voice/status': async (req) => {
    const params = await verified(req);
    if (!params) return { raw: text(403, 'Forbidden') };
    const outcome = await callLoop().status(req.params.userId ?? '', params);
    if (outcome !== 'finished') logger.info('Twilio status callback', { outcome, callStatus: params.CallStatus, callSid: params.CallSid });
    return { raw: xml(EMPTY) };
  },
  'POST /api/webhooks/twilio/{userId}/voice/recording': async (req) => {
    const params = await verified(req);
    if (!params) return { raw: text(403, 'Forbidden') };
    const outcome = await callLoop().recording(req.params.userId ?? '', params);
    if (outcome !== 'stored') logger.info('Twilio recording callback', { outcome, recordingStatus: params.RecordingStatus, callSid: params.CallSid });
    return { raw: xml(EMPTY) };
  },
};

export const handler = httpGroup(routes);
