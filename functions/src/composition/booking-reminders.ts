/** Wires the booking-reminders schedule (issue 30): the reminder items and the booking-events queue, nothing else. */
import { randomUUID } from 'node:crypto';
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoReminderStore } from '../adapters/dynamo/booking-reminders.js';
import { logger } from '../adapters/logger.js';
import { createReminderSweeper } from '../domain/bookings/reminders.js';
import { once } from '../lib/once.js';
import { bookingReminderQueue } from './queues.js';

export const reminderSweeper = once(() =>
  createReminderSweeper({
    store: new DynamoReminderStore(documentClient(), config().TABLE_NAME),
    queue: bookingReminderQueue(),
    newRunId: randomUUID,
    onError: (message, error, data) => logger.error(message, { ...data, error: error as Error }),
  }),
);
