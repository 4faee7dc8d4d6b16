/**
 * /api/integrations/google-calendar (issue 30): status with the account's calendars, connect
 * (Google's consent URL), the OAuth callback (public: Google sends the browser back here with our
 * single-use state), the calendar choices, disconnect.
 */
import { bookingMessages } from '../contract/bookings.js';
import { googleCalendarCallbackQuery, googleCalendarSettingsRequest } from '../contract/google-calendar.js';
import { googleCalendar } from '../composition/google-calendar.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

export const routes: RouteTable = {
  'GET /api/integrations/google-calendar': async (req) => ({ data: await googleCalendar().status(req.userId()) }),
  'POST /api/integrations/google-calendar/connect': async (req) => ({ data: await googleCalendar().connect(req.userId()) }),
  'GET /api/integrations/google-calendar/callback': async (req) => {
    const parsed = googleCalendarCallbackQuery.safeParse(req.query ?? {});
    const location = await googleCalendar().callback(parsed.success ? parsed.data : {});
    return { raw: { statusCode: 302, headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, body: '' } };
  },
  'PUT /api/integrations/google-calendar': async (req) => {
    const input = parseWith(googleCalendarSettingsRequest, req.json());
    return { message: bookingMessages.googleSaved, data: await googleCalendar().save(req.userId(), input) };
  },
  'DELETE /api/integrations/google-calendar': async (req) => {
    await googleCalendar().disconnect(req.userId());
    return { message: bookingMessages.googleDisconnected };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
