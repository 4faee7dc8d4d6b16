/**
 * Voice settings use cases (SPEC §2 Voice settings, §5, §7): read with defaults, whole-object
 * update, reset to the §9 defaults, the phone-number request (request / cancel) and the summary
 * webhook signing secret (revealed on demand, created on first use, rotatable; sealed at rest).
 */
import { randomBytes } from 'node:crypto';
import {
  EMPTY_PHONE_REQUEST,
  VOICE_DEFAULTS,
  voiceMessages,
  type PhoneNumberRequest,
  type VoiceSettings,
  type VoiceSettingsInput,
  type WebhookSecretView,
} from '../../contract/voice.js';
import { ConflictError, ValidationError } from '../errors.js';
import type { SecretBox } from '../secrets/ports.js';
import type { StoredVoiceSettings, VoiceSettingsRepository } from './ports.js';

export interface VoiceSettingsDeps {
  settings: VoiceSettingsRepository;
  secrets: SecretBox;
  now?: () => Date;
}

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** 'whsec_' + 32 random bytes, base64url. */
export const newWebhookSecret = () => WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');

export const secretHint = (last4: string | null) => (last4 ? `${WEBHOOK_SECRET_PREFIX}…${last4}` : null);

/** What GET /api/voice-settings answers (defaults when nothing is stored yet). */
export function toVoiceSettingsView(stored: StoredVoiceSettings | null): VoiceSettings {
  if (!stored) return { ...VOICE_DEFAULTS, phoneNumber: { ...EMPTY_PHONE_REQUEST }, summaryWebhookSecretHint: null };
  const { webhookSecret: _s, webhookSecretLast4, updatedAt: _u, ...rest } = stored;
  return {
    ...rest,
    conversationMode: rest.conversationMode ?? VOICE_DEFAULTS.conversationMode,
    // Settings stored before issue 28 have no additional languages.
    additionalLanguages: rest.additionalLanguages ?? [],
    phoneNumber: { ...EMPTY_PHONE_REQUEST, ...rest.phoneNumber },
    summaryWebhookSecretHint: secretHint(webhookSecretLast4),
  };
}

export function createVoiceSettingsService(deps: VoiceSettingsDeps) {
  const now = () => (deps.now ? deps.now() : new Date()).toISOString();
  const read = (userId: string) => deps.settings.get(userId);

  async function get(userId: string): Promise<VoiceSettings> {
    return toVoiceSettingsView(await read(userId));
  }

  async function update(userId: string, input: VoiceSettingsInput): Promise<VoiceSettings> {
    const settings: Omit<VoiceSettings, 'phoneNumber' | 'summaryWebhookSecretHint'> = {
      messageWelcome: input.messageWelcome,
      messageNoInput: input.messageNoInput,
      messageFallback: input.messageFallback,
      messageGoodbye: input.messageGoodbye,
      messageError: input.messageError,
      language: input.language,
      additionalLanguages: input.additionalLanguages,
      voice: input.voice,
      speechRate: input.speechRate,
      pitch: input.pitch,
      volume: input.volume,
      enableRecording: input.enableRecording,
      maxCallDuration: input.maxCallDuration,
      summaryNotificationMethod: input.summaryNotificationMethod,
      summaryWebhookUrl: input.summaryWebhookUrl,
      escalationForwardNumber: input.escalationForwardNumber,
      conversationMode: input.conversationMode,
    };
    return toVoiceSettingsView(await deps.settings.putSettings(userId, { ...settings, updatedAt: now() }));
  }

  /** SPEC §9 defaults; the phone request and the webhook secret stay. */
  async function reset(userId: string): Promise<VoiceSettings> {
    return toVoiceSettingsView(await deps.settings.putSettings(userId, { ...VOICE_DEFAULTS, updatedAt: now() }));
  }

  /** Allowed when there is no request or the last one was rejected; the new one is pending. */
  async function requestPhone(userId: string, notes: string): Promise<VoiceSettings> {
    const current = toVoiceSettingsView(await read(userId)).phoneNumber;
    if (current.status === 'assigned') throw new ConflictError(voiceMessages.phoneAlreadyAssigned);
    if (current.status === 'pending' || current.status === 'approved') throw new ConflictError(voiceMessages.phoneRequestExists);
    const request: PhoneNumberRequest = { ...EMPTY_PHONE_REQUEST, requested: true, status: 'pending', requestedAt: now(), notes };
    const ok = await deps.settings.setPhoneRequest(userId, request, [null, 'rejected']);
    if (!ok) throw new ConflictError(voiceMessages.phoneRequestExists);
    return get(userId);
  }

  /** Only a pending request can be cancelled; back to no request. */
  async function cancelPhoneRequest(userId: string): Promise<VoiceSettings> {
    const current = toVoiceSettingsView(await read(userId)).phoneNumber;
    if (current.status === null) throw new ValidationError(voiceMessages.phoneRequestNotFound);
    if (current.status !== 'pending') throw new ValidationError(voiceMessages.phoneRequestNotPending);
    const ok = await deps.settings.setPhoneRequest(userId, { ...EMPTY_PHONE_REQUEST }, ['pending']);
    if (!ok) throw new ValidationError(voiceMessages.phoneRequestNotPending);
    return get(userId);
  }

  async function storeSecret(userId: string): Promise<WebhookSecretView> {
    const secret = newWebhookSecret();
    await deps.settings.setWebhookSecret(userId, await deps.secrets.seal(secret), secret.slice(-4));
    return { secret };
  }

  /** Reveals the signing secret, creating it on first use. */
  async function revealSecret(userId: string): Promise<WebhookSecretView> {
    const stored = await read(userId);
    if (stored?.webhookSecret) return { secret: await deps.secrets.open(stored.webhookSecret) };
    return storeSecret(userId);
  }

  /** A new secret; the old one stops verifying at once. */
  function rotateSecret(userId: string): Promise<WebhookSecretView> {
    return storeSecret(userId);
  }

  return { get, update, reset, requestPhone, cancelPhoneRequest, revealSecret, rotateSecret };
}

export type VoiceSettingsService = ReturnType<typeof createVoiceSettingsService>;
