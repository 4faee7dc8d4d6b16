/**
 * POST /api/webhooks/twilio/{userId}/voice[/gather|/status|/recording|/relay-action] ('webhook' auth: Twilio
 * signs, we verify). The route's declared verification runs first
 * (adapters/twilio/webhook-verifier.ts): X-Twilio-Signature with the user's active integration's
 * auth token over the public URL Twilio called; refused → 403 text/plain, no TwiML.
 *
 * Verified: the call loop answers TwiML (text/xml). If the loop itself fails, the caller hears
 * the error message and the call ends (Twilio would otherwise say "an application error has
 * occurred"); the status and recording callbacks answer an empty <Response/>.
 */
import { logger } from '../adapters/logger.js';
import { callLoop, renderTwiml, twilioWebhookVerifier } from '../composition/voice-webhook.js';
import { VOICE_DEFAULTS } from '../contract/voice-catalogue.js';
import type { CallScript, TwilioCallParams } from '../domain/voice/call-loop.js';
import { httpGroup, type HttpResult, type Request, type RouteResult, type RouteTable } from '../http/handler.js';
import { webhookVerification } from '../http/webhook-verification.js';

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

function webhook(run: (userId: string, params: TwilioCallParams, req: Request) => Promise<string>, onFailure: string) {
  return async (req: Request): Promise<RouteResult> => {
    const { userId, params } = req.webhook('twilio');
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
  // <Connect action> of a streamed call: <Dial> for a warm transfer, else the end of the call.
  'POST /api/webhooks/twilio/{userId}/voice/relay-action': webhook(
    async (userId, p, req) => renderTwiml(await callLoop().relayAction(userId, p, { call: req.query.call })),
    renderTwiml(FAILED_CALL),
  ),
  'POST /api/webhooks/twilio/{userId}/voice/status': async (req) => {
    const { userId, params } = req.webhook('twilio');
    const outcome = await callLoop().status(userId, params);
    if (outcome !== 'finished') logger.info('Twilio status callback', { outcome, callStatus: params.CallStatus, callSid: params.CallSid });
    return { raw: xml(EMPTY) };
  },
  'POST /api/webhooks/twilio/{userId}/voice/recording': async (req) => {
    const { userId, params } = req.webhook('twilio');
    const outcome = await callLoop().recording(userId, params);
    if (outcome !== 'stored') logger.info('Twilio recording callback', { outcome, recordingStatus: params.RecordingStatus, callSid: params.CallSid });
    return { raw: xml(EMPTY) };
  },
};

export const handler = httpGroup(routes, { webhooks: webhookVerification({ twilio: twilioWebhookVerifier }) });
