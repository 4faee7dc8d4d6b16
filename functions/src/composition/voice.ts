/** Voice storage over the single table: calls (with their transcripts) and voice settings. DynamoDB only. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoCallRepository } from '../adapters/dynamo/voice-calls.js';
import { DynamoVoiceSettingsRepository } from '../adapters/dynamo/voice-settings.js';
import type { CallRepository, HandoffAnalyses, VoiceSettingsRepository } from '../domain/voice/ports.js';
import { once } from '../lib/once.js';
import { privacySettingsStore } from './privacy-settings-store.js';

// Issue 33: a call is stamped with the account's retention, a recording gets its due item (the shared store's minute cache).
const calls = once(() => new DynamoCallRepository(documentClient(), config().TABLE_NAME, privacySettingsStore()));
const settings = once(() => new DynamoVoiceSettingsRepository(documentClient(), config().TABLE_NAME));

export const callRepository = (): CallRepository => calls();
/** Whether a CallSid's call was erased (issue 33: its tombstone), for the recording callback. */
export const isErasedCallSid = (userId: string, callSid: string): Promise<boolean> => calls().isErasedSid(userId, callSid);
/** A forwarded call's analysis so far, on the call item (its queued handoff notice e-mail is rendered from it, issue 34). */
export const handoffAnalyses = (): HandoffAnalyses => calls();
export const voiceSettingsRepository = (): VoiceSettingsRepository => settings();
