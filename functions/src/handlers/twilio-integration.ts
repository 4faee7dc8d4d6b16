/**
 * POST /api/integrations/twilio-voice/setup and /test ('user' auth). Reading, updating and
 * disconnecting the integration go through the generic /api/integrations/{type} routes.
 */
import * as z from 'zod/mini';
import { twilioSetupRequest, voiceMessages, type TwilioSetupInput } from '../contract/voice.js';
import { twilioIntegrationService } from '../composition/twilio-integration.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

/** Only the fields the caller sent (the schema fills defaults, which must not override stored values). */
function provided<T extends Record<string, unknown>>(parsed: T, raw: unknown): Partial<T> {
  const keys = raw && typeof raw === 'object' ? Object.keys(raw) : [];
  return Object.fromEntries(Object.entries(parsed).filter(([k]) => keys.includes(k))) as Partial<T>;
}

export const routes: RouteTable = {
  'POST /api/integrations/twilio-voice/setup': async (req) => {
    const userId = req.userId();
    const input = parseWith(twilioSetupRequest, req.json());
    return { message: voiceMessages.setupSuccess, data: await twilioIntegrationService().setup(userId, input) };
  },
  'POST /api/integrations/twilio-voice/test': async (req) => {
    const userId = req.userId();
    const raw = req.json() ?? {};
    const input = provided(parseWith(z.partial(twilioSetupRequest), raw), raw) as Partial<TwilioSetupInput>;
    return { message: voiceMessages.testSuccess, data: await twilioIntegrationService().test(userId, input) };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
