/**
 * The private iCalendar feeds (issue 30): the owner's feed links (list, create or rotate —
 * the one answer with the whole URL —, revoke) and the public feed a calendar app subscribes to
 * (auth 'public': the long random token in the path is the credential).
 */
import { bookingMessages, calendarFeedQuery, calendarFeedRequest } from '../contract/bookings.js';
import { calendarFeeds } from '../composition/calendar-feed.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'GET /api/bookings/calendar-feed': async (req) => ({ data: await calendarFeeds().list(req.userId()) }),
  'POST /api/bookings/calendar-feed': async (req) => {
    const { staffId } = parseWith(calendarFeedRequest, req.json());
    return { status: 201, message: bookingMessages.feedCreated, data: await calendarFeeds().create(req.userId(), staffId) };
  },
  'DELETE /api/bookings/calendar-feed': async (req) => {
    const { staffId } = parseWith(calendarFeedQuery, req.query);
    await calendarFeeds().revoke(req.userId(), staffId || null);
    return { message: bookingMessages.feedRevoked };
  },
  'GET /api/calendar-feeds/{token}': async (req) => {
    // A malformed, unknown or revoked token: 404 (NotFoundError), never which of the three.
    const body = await calendarFeeds().render(req.params.token ?? '');
    return {
      raw: {
        statusCode: 200,
        headers: {
          'content-type': 'text/calendar; charset=utf-8',
          'content-disposition': 'inline; filename="agentdesk.ics"',
          // A credential in the URL: no shared cache keeps the answer; the client polls again.
          'cache-control': 'private, max-age=300',
          'x-robots-tag': 'noindex',
        },
        body,
      },
    };
  },
};

export const handler = httpGroup(routes);
