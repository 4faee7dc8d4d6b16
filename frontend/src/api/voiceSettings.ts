/**
 * Voice settings calls (SPEC §7 Voice): GET/PUT the whole object, reset to the §9 defaults, the
 * phone-number request (POST/DELETE, both answer the updated settings) and the summary webhook's
 * signing secret (reveal — created on first use — and rotate).
 */
import type { VoiceSettings, VoiceSettingsInput, WebhookSecretView } from '@agentdesk/functions/contract';
import { request, requestData } from './client';

const BASE = '/api/voice-settings';

export const voiceSettingsKeys = {
  all: ['voice-settings'] as const,
};

export const voiceSettingsApi = {
  get: (signal?: AbortSignal) => requestData<VoiceSettings>(BASE, { signal }),
  /** The whole object; numeric fields as numbers. */
  save: (input: VoiceSettingsInput) => request<VoiceSettings>(BASE, { method: 'PUT', body: input }),
  reset: () => request<VoiceSettings>(`${BASE}/reset`, { method: 'POST', body: {} }),
  requestPhone: (notes: string) => request<VoiceSettings>(`${BASE}/request-phone`, { method: 'POST', body: { notes } }),
  cancelPhoneRequest: () => request<VoiceSettings>(`${BASE}/request-phone`, { method: 'DELETE' }),
  revealSecret: () => requestData<WebhookSecretView>(`${BASE}/webhook-secret`),
  rotateSecret: () => requestData<WebhookSecretView>(`${BASE}/webhook-secret/rotate`, { method: 'POST', body: {} }),
};
