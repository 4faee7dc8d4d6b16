/**
 * The iCalendar text of a booking feed (RFC 5545) with ical-generator. Times are written in UTC
 * ("20261201T090000Z"): an instant every client reads the same, with no VTIMEZONE to get wrong
 * across a DST change; the business's zone goes in X-WR-TIMEZONE, which Google, Apple and Outlook
 * use to show the calendar. REFRESH-INTERVAL / X-PUBLISHED-TTL ask clients that honour them
 * (Apple, Outlook) to poll every 15 minutes; Google polls on its own schedule (hours).
 */
import ical, { ICalEventStatus } from 'ical-generator';
import type { FeedRenderer } from '../../domain/bookings/calendar-feed.js';

const REFRESH_SECONDS = 15 * 60;

export const icalFeedRenderer: FeedRenderer = {
  render({ name, timeZone, events }) {
    const calendar = ical({
      name,
      prodId: { company: 'AgentDesk', product: 'Bookings', language: 'EN' },
      ttl: REFRESH_SECONDS,
      x: { 'X-WR-TIMEZONE': timeZone },
    });
    for (const e of events) {
      calendar.createEvent({
        id: e.uid,
        start: e.start,
        end: e.end,
        summary: e.summary,
        description: e.description,
        status: ICalEventStatus.CONFIRMED,
        created: e.created,
        lastModified: e.updated,
        stamp: e.updated,
      });
    }
    return calendar.toString();
  },
};
