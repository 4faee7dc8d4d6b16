/**
 * booking-events consumer (issue 30): a booking's stored change goes to every listener of
 * composition/booking-events.ts (the customer's WhatsApp confirmation, the reminder's schedule,
 * the owner's e-mail, and the other features' listeners); a reminder the schedule found due is
 * sent once if the booking is still as it was. A failure comes back on the retry schedule.
 */
import { logger } from '../adapters/logger.js';
import { bookingChangeListeners, bookingEventsError, dueReminder } from '../composition/booking-events.js';
import { runBookingChange } from '../domain/bookings/change-runner.js';
import type { BookingChange } from '../domain/bookings/ports.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker('booking-events', async (job, record, { receiveCount, finalAttempt }) => {
  if ('reminder' in job) {
    const outcome = await dueReminder(job.userId, job.reminder, finalAttempt);
    logger.info('Booking reminder processed', { messageId: record.messageId, userId: job.userId, bookingId: job.reminder.bookingId, receiveCount, outcome });
    return;
  }
  // The core reported it typed (queues.ts bookingEvents); the schema checked what the runner relies on.
  const change = job.change as unknown as BookingChange;
  const result = await runBookingChange(bookingChangeListeners(), job.userId, change, bookingEventsError, { finalAttempt });
  logger.info('Booking change processed', { messageId: record.messageId, userId: job.userId, bookingId: change.booking._id, kind: change.kind, receiveCount, ...result });
});
