/** /api/voice-settings: settings (whole object), reset, phone-number request, summary webhook secret ('user' auth). */
import { phoneRequestInput, voiceMessages, voiceSettingsRequest, type VoiceSettingsInput } from '../contract/voice.js';
import { voiceSettingsService } from '../composition/voice-settings.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

export const routes: RouteTable = {
  'GET /api/voice-settings': async (req) => ({ data: await voiceSettingsService().get(req.userId()) }),
  'PUT /api/voice-settings': async (req) => {
    const userId = req.userId();
    const input = parseWith(voiceSettingsRequest, req.json()) as VoiceSettingsInput;
    return { message: voiceMessages.settingsUpdated, data: await voiceSettingsService().update(userId, input) };
  },
  'POST /api/voice-settings/reset': async (req) => ({ message: voiceMessages.settingsReset, data: await voiceSettingsService().reset(req.userId()) }),
  'POST /api/voice-settings/request-phone': async (req) => {
    const userId = req.userId();
    const { notes } = parseWith(phoneRequestInput, req.json());
    return { message: voiceMessages.phoneRequested, data: await voiceSettingsService().requestPhone(userId, notes) };
  },
  'DELETE /api/voice-settings/request-phone': async (req) => ({
    message: voiceMessages.phoneRequestCancelled,
    data: await voiceSettingsService().cancelPhoneRequest(req.userId()),
  }),
  'GET /api/voice-settings/webhook-secret': async (req) => ({ data: await voiceSettingsService().revealSecret(req.userId()) }),
  'POST /api/voice-settings/webhook-secret/rotate': async (req) => ({ data: await voiceSettingsService().rotateSecret(req.userId()) }),
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
