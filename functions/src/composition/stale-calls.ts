/**
 * Wires the stale-calls schedule: the call storage (the active-calls index), plan minutes, the
 * call-summary queue and the dashboard counters — what ending a call needs, nothing of the call
 * loop's agent runtime.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoActivityCounters } from '../adapters/dynamo/activity.js';
import { logger } from '../adapters/logger.js';
import { createStaleCallSweeper } from '../domain/voice/stale-calls.js';
import { once } from '../lib/once.js';
import { callSummaryQueue } from './queues.js';
import { usageService } from './usage.js';
import { callRepository } from './voice.js';

export const staleCallSweeper = once(() =>
  createStaleCallSweeper({
    calls: callRepository(),
    usage: usageService(),
    queue: callSummaryQueue(),
    activity: new DynamoActivityCounters(documentClient(), config().TABLE_NAME),
    onError: (message, error, data) => logger.error(message, { error: error as Error, ...data }),
    onInfo: (message, data) => logger.info(message, { ...data }),
  }),
);
