/** Wires GET /api/contacts/{id}/timeline (contacts group): the contact's calls, conversations and bookings, DynamoDB only. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoBookingTimelineWriter, DynamoContactTimelineReader } from '../adapters/dynamo/contact-timeline.js';
import { createBookingTimeline } from '../domain/bookings/contact-timeline.js';
import { createContactTimeline } from '../domain/contacts/timeline.js';
import { once } from '../lib/once.js';

export const contactTimeline = once(() => createContactTimeline({ reader: new DynamoContactTimelineReader(documentClient(), config().TABLE_NAME) }));

/** Issue 30: the booking-events listener that records each booking change on the customer's timeline. */
export const bookingTimeline = once(() => createBookingTimeline({ writer: new DynamoBookingTimelineWriter(documentClient(), config().TABLE_NAME) }));
