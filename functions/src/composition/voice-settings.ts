/** Wires the voice-settings group: the settings item and the SecretBox for the webhook signing secret. */
import { createVoiceSettingsService } from '../domain/voice/settings.js';
import { once } from '../lib/once.js';
import { secretBox } from './secrets.js';
import { voiceSettingsRepository } from './voice.js';

export const voiceSettingsService = once(() => createVoiceSettingsService({ settings: voiceSettingsRepository(), secrets: secretBox() }));
