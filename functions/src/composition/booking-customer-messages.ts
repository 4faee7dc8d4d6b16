/**
 * The records of what a booking's customer was told on WhatsApp (issue 30; BKMSG# items): written
 * by the booking-events worker, read by the bookings API. Its own module so the API's bundle gets
 * the adapter alone, not the worker's WhatsApp wiring.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoBookingMessages } from '../adapters/dynamo/booking-messages.js';
import { once } from '../lib/once.js';

export const customerMessageRecords = once(() => new DynamoBookingMessages(documentClient(), config().TABLE_NAME));
