/**
 * Wires the bookings core of the owner, the API and the workers (issue 30): the core of
 * composition/agent-bookings.ts (store, profile, Google free/busy, events queue) plus the contact
 * directory (the customer found or created by phone through the contacts service) and typed
 * phones read in the account's country (libphonenumber). The first-contact functions use
 * agentBookings() instead: the booking-events worker links their bookings' contacts.
 */
import { createBookingCustomers } from '../domain/bookings/customers.js';
import type { Bookings } from '../domain/bookings/ports.js';
import { createBookings, type BookingsDeps } from '../domain/bookings/service.js';
import { toE164 } from '../domain/contacts/text.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { bookingCoreDeps } from './agent-bookings.js';
import { contactRepository, contactService } from './contacts.js';

export { bookingStore } from './agent-bookings.js';

/** The booking's customer in the contacts, found or created by phone. */
export const bookingCustomers = once(() =>
  createBookingCustomers({
    accountCountry: (userId) => accountCountry()(userId),
    contactByPhone: async (userId, phone) => (await contactRepository().phoneOwners(userId, [phone])).get(phone) ?? null,
    createContact: async (userId, contact) => (await contactService().create(userId, { ...contact, email: '', customFields: {} }))._id,
  }),
);

/** What the core is wired with (the bookings bench builds a loader from it without the events queue). */
export const bookingDeps = once(
  (): BookingsDeps => ({
    ...bookingCoreDeps(),
    customers: bookingCustomers(),
    // The owner types phones as people write them ("612 345 678"): read in the account's country.
    phone: toE164,
  }),
);

export const bookings = once((): Bookings => createBookings(bookingDeps()));
