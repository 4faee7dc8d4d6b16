/**
 * Scheduled (EventBridge rule every hour, routes.ts `schedules`): deletes at Twilio the call
 * recordings whose account's retention has ended (domain/privacy/recording-retention.ts), by the
 * day partitions of due recordings from the schedule's cursor up to the event's day — Queries,
 * never a Scan. "Now" is the event's scheduled time (the local runtime can run one for a given
 * time: POST /_local/schedules/recording-retention/run?time=…). A thrown error (DynamoDB down)
 * lets EventBridge retry; what one run leaves, the next takes.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { logger } from '../adapters/logger.js';
import { recordingRetention } from '../composition/recording-retention.js';
import type { RecordingSweep } from '../domain/privacy/recording-retention.js';

export async function handler(event: Partial<ScheduledEvent>, context?: Context): Promise<RecordingSweep> {
  if (context) logger.addContext(context);
  const scheduled = event.time ? Date.parse(event.time) : Number.NaN;
  const result = await recordingRetention().sweep(Number.isFinite(scheduled) ? scheduled : Date.now());
  logger.info('Recordings past their retention swept', { ...result, scheduledAt: event.time });
  return result;
}
