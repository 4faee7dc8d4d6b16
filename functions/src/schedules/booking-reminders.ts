/**
 * Scheduled (EventBridge rule every 5 minutes, routes.ts `schedules`): queues the booking
 * reminders due now on booking-events (domain/bookings/reminders.ts). "Now" is the event's
 * scheduled time, so a run is about its own slot whenever it starts (and the local runtime can
 * run one for a given time: POST /_local/schedules/booking-reminders/run?time=…). A thrown error
 * (DynamoDB down) lets EventBridge retry; what one run leaves, the next takes.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { logger } from '../adapters/logger.js';
import { reminderSweeper } from '../composition/booking-reminders.js';
import type { SweepResult } from '../domain/bookings/reminders.js';

export async function handler(event: Partial<ScheduledEvent>, context?: Context): Promise<SweepResult> {
  if (context) logger.addContext(context);
  const scheduled = event.time ? Date.parse(event.time) : Number.NaN;
  const result = await reminderSweeper().sweep(Number.isFinite(scheduled) ? scheduled : Date.now());
  logger.info('Booking reminders swept', { ...result, scheduledAt: event.time });
  return result;
}
