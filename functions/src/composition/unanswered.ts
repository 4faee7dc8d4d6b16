/**
 * The recorder of unanswered questions (issue 18) the channels share: the Test Agent chat,
 * WhatsApp, the <Gather> call loop and the streamed voice relay. Only the DynamoDB document
 * client these bundles already carry.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoUnansweredStore } from '../adapters/dynamo/unanswered.js';
import { logger } from '../adapters/logger.js';
import { createUnansweredRecorder } from '../domain/knowledge/unanswered.js';
import { newId } from '../lib/ids.js';
import { once } from '../lib/once.js';

export const unansweredRecorder = once(() =>
  createUnansweredRecorder({
    store: new DynamoUnansweredStore(documentClient(), config().TABLE_NAME),
    newId,
    onError: (message, error) => logger.error(message, { error: error as Error }),
  }),
);
