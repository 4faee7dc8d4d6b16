/**
 * /api/bookings (issue 30): the business's booking settings, services, staff or rooms, free slots
 * and bookings. The owner's app signs in ('user'); the public API reaches the bookings, the
 * availability and the services and staff lists with an API key too ('userOrApiKey'). Every rule
 * (no overlap, hours, closures, notice) is the core's, the same for owner, API and agent.
 */
import {
  availabilityQuery,
  bookingCreateRequest,
  bookingListQuery,
  bookingMessages,
  bookingServiceRequest,
  bookingSettingsRequest,
  bookingStaffRequest,
  bookingUpdateRequest,
} from '../contract/bookings.js';
import { bookings } from '../composition/bookings.js';
import { customerMessageRecords } from '../composition/booking-customer-messages.js';
import type { BookingActor } from '../domain/bookings/ports.js';
import { httpGroup, parseWith, type Request, type RouteTable } from '../http/handler.js';
import { apiKeyGuard } from '../http/api-key-auth.js';
import { recordRouteActivity } from '../composition/activity.js';

/** Who acts: the owner in the app, or an external system with the owner's API key. */
const actorOf = (req: Request): BookingActor => (req.authType() === 'apiKey' ? { by: 'api', channel: 'api' } : { by: 'owner', channel: 'dashboard' });

/** A "limit" query value (digits only, checked by the schema) as a number; the core keeps it within its bounds. */
const limitOf = (text: string | undefined) => (text === undefined ? {} : { limit: Number(text) });

const id = (req: Request) => req.params.id ?? '';

export const routes: RouteTable = {
  'GET /api/bookings/settings': async (req) => ({ data: await bookings().settings(req.userId()) }),
  'PUT /api/bookings/settings': async (req) => {
    const userId = req.userId();
    const input = parseWith(bookingSettingsRequest, req.json());
    return { message: bookingMessages.settingsSaved, data: await bookings().saveSettings(userId, input) };
  },

  'GET /api/bookings/services': async (req) => ({ data: await bookings().listServices(req.userId()) }),
  'POST /api/bookings/services': async (req) => {
    const userId = req.userId();
    const input = parseWith(bookingServiceRequest, req.json());
    return { status: 201, message: bookingMessages.serviceCreated, data: await bookings().createService(userId, input) };
  },
  'GET /api/bookings/services/{id}': async (req) => ({ data: await bookings().getService(req.userId(), id(req)) }),
  'PUT /api/bookings/services/{id}': async (req) => {
    const userId = req.userId();
    const input = parseWith(bookingServiceRequest, req.json());
    return { message: bookingMessages.serviceUpdated, data: await bookings().updateService(userId, id(req), input) };
  },
  'DELETE /api/bookings/services/{id}': async (req) => {
    await bookings().deleteService(req.userId(), id(req));
    return { message: bookingMessages.serviceDeleted };
  },

  'GET /api/bookings/staff': async (req) => ({ data: await bookings().listStaff(req.userId()) }),
  'POST /api/bookings/staff': async (req) => {
    const userId = req.userId();
    const input = parseWith(bookingStaffRequest, req.json());
    return { status: 201, message: bookingMessages.staffCreated, data: await bookings().createStaff(userId, input) };
  },
  'GET /api/bookings/staff/{id}': async (req) => ({ data: await bookings().getStaff(req.userId(), id(req)) }),
  'PUT /api/bookings/staff/{id}': async (req) => {
    const userId = req.userId();
    const input = parseWith(bookingStaffRequest, req.json());
    return { message: bookingMessages.staffUpdated, data: await bookings().updateStaff(userId, id(req), input) };
  },
  'DELETE /api/bookings/staff/{id}': async (req) => {
    await bookings().deleteStaff(req.userId(), id(req));
    return { message: bookingMessages.staffDeleted };
  },

  'GET /api/bookings/availability': async (req) => {
    const userId = req.userId();
    const { limit, ...query } = parseWith(availabilityQuery, req.query);
    return { data: await bookings().findSlots(userId, { ...query, ...limitOf(limit) }) };
  },

  'GET /api/bookings': async (req) => {
    const userId = req.userId();
    const { limit, ...query } = parseWith(bookingListQuery, req.query);
    return { data: await bookings().list(userId, { ...query, ...limitOf(limit) }) };
  },
  'POST /api/bookings': async (req) => {
    const userId = req.userId();
    const input = parseWith(bookingCreateRequest, req.json());
    return { status: 201, message: bookingMessages.created, data: await bookings().book(userId, input, actorOf(req)) };
  },
  'GET /api/bookings/{id}': async (req) => ({ data: await bookings().get(req.userId(), id(req)) }),
  'PATCH /api/bookings/{id}': async (req) => {
    const userId = req.userId();
    const input = parseWith(bookingUpdateRequest, req.json());
    return { message: bookingMessages.updated, data: await bookings().update(userId, id(req), input, actorOf(req)) };
  },
  'POST /api/bookings/{id}/cancel': async (req) => ({
    message: bookingMessages.cancelled,
    data: await bookings().cancel(req.userId(), id(req), actorOf(req)),
  }),
  // The booking's WhatsApp messages to the customer (issue 30, the booking-events worker): a 404 for another account's booking.
  'GET /api/bookings/{id}/messages': async (req) => {
    const booking = await bookings().get(req.userId(), id(req));
    return { data: await customerMessageRecords().list(req.userId(), booking._id) };
  },
};

export const handler = httpGroup(routes, { apiKeys: apiKeyGuard, activity: recordRouteActivity });
