/** Wires the bookings outcome listener (issue 30: the dashboard's "bookings made by the agent" counters) over the single table. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoBookingOutcomeStore } from '../adapters/dynamo/booking-outcomes.js';
import { createBookingOutcomes } from '../domain/bookings/outcomes.js';
import { once } from '../lib/once.js';

export const bookingOutcomes = once(() => createBookingOutcomes({ store: new DynamoBookingOutcomeStore(documentClient(), config().TABLE_NAME) }));
