/**
 * Scheduled (EventBridge rule, routes.ts `schedules`): closes calls whose final Twilio status
 * callback never came (domain/voice/stale-calls.ts). A failed call is logged and retried by the
 * next run; a thrown error (DynamoDB down) lets EventBridge retry the invocation.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { logger } from '../adapters/logger.js';
import { staleCallSweeper } from '../composition/stale-calls.js';
import type { SweepResult } from '../domain/voice/stale-calls.js';

export async function handler(event: Partial<ScheduledEvent>, context?: Context): Promise<SweepResult> {
  if (context) logger.addContext(context);
  const result = await staleCallSweeper().sweep();
  logger.info('Stale calls swept', { ...result, scheduledAt: event.time });
  return result;
}
