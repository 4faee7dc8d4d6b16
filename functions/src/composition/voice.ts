/** Voice storage over the single table: calls (with their transcripts) and voice settings. DynamoDB only. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoCallRepository } from '../adapters/dynamo/voice-calls.js';
import { DynamoVoiceSettingsRepository } from '../adapters/dynamo/voice-settings.js';
import type { CallRepository, VoiceSettingsRepository } from '../domain/voice/ports.js';
import { once } from '../lib/once.js';

const calls = once(() => new DynamoCallRepository(documentClient(), config().TABLE_NAME));
const settings = once(() => new DynamoVoiceSettingsRepository(documentClient(), config().TABLE_NAME));

export const callRepository = (): CallRepository => calls();
export const voiceSettingsRepository = (): VoiceSettingsRepository => settings();
