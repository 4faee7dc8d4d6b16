/** Wires the private iCalendar feeds (issue 30): feed tokens in DynamoDB, the bookings core, ical-generator. */
import { randomBytes } from 'node:crypto';
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoCalendarFeedRepository } from '../adapters/dynamo/calendar-feeds.js';
import { icalFeedRenderer } from '../adapters/ical/feed.js';
import { createCalendarFeeds } from '../domain/bookings/calendar-feed.js';
import { once } from '../lib/once.js';
import { bookings } from './bookings.js';

export const calendarFeeds = once(() =>
  createCalendarFeeds({
    feeds: new DynamoCalendarFeedRepository(documentClient(), config().TABLE_NAME),
    bookings: bookings(),
    renderer: icalFeedRenderer,
    // 32 random bytes → 43 URL-safe characters (256 bits: not guessable, not enumerable).
    newToken: () => randomBytes(32).toString('base64url'),
    appUrl: config().APP_URL,
  }),
);
