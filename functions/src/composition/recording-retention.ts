/**
 * Wires the recording-retention schedule (issue 33): the due items and the calls over the table,
 * the account's Twilio integration (token opened with the secret box) and Twilio's REST API.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoRecordingDue } from '../adapters/dynamo/recording-retention.js';
import { DynamoCallRepository } from '../adapters/dynamo/voice-calls.js';
import { logger } from '../adapters/logger.js';
import { createRecordingRetention } from '../domain/privacy/recording-retention.js';
import { once } from '../lib/once.js';
import { voiceIntegrationReader } from './twilio.js';
import { twilioAccountApi } from './twilio-integration.js';

export const recordingRetention = once(() =>
  createRecordingRetention({
    due: new DynamoRecordingDue(documentClient(), config().TABLE_NAME),
    calls: new DynamoCallRepository(documentClient(), config().TABLE_NAME),
    twilio: twilioAccountApi(),
    integrations: voiceIntegrationReader(),
    onError: (message, error, data) => logger.warn(message, { ...data, error: error as Error }),
  }),
);
