/**
 * The booking's customer in the contact directory (BookingCustomerDirectory): the phone read in
 * the account's country (E.164, like every phone the contacts take), the contact found by that
 * phone, or created when new (origin 'manual', like a contact the owner types). A full contacts
 * plan does not stop a booking: it keeps the customer's name and phone without a contact.
 */
import { bookingMessages } from '../../contract/bookings.js';
import { CONTACT_LIMITS } from '../../contract/contacts.js';
import { ConflictError, LimitExceededError, ValidationError } from '../errors.js';
import { toE164 } from '../contacts/text.js';
import type { BookingChangeListener, BookingCustomerDirectory, Bookings } from './ports.js';
import type { BookingStore } from './store.js';

export interface BookingCustomerDeps {
  accountCountry(userId: string): Promise<string>;
  /** The contact holding an E.164 phone, or null. */
  contactByPhone(userId: string, phone: string): Promise<string | null>;
  /** Creates a contact (the contacts service's create path: plan limit, counters, search tokens); answers its id. */
  createContact(userId: string, contact: { name: string; phoneNumber: string }): Promise<string>;
}

export function createBookingCustomers(deps: BookingCustomerDeps): BookingCustomerDirectory {
  return {
    async ensure(userId, customer) {
      const phone = toE164(customer.phone, await deps.accountCountry(userId));
      if (!phone) throw new ValidationError(bookingMessages.customerPhoneInvalid, 'customer.phone');
      const existing = await deps.contactByPhone(userId, phone);
      if (existing) return { contactId: existing, phone };
      try {
        return { contactId: await deps.createContact(userId, { name: customer.name.slice(0, CONTACT_LIMITS.name).trim(), phoneNumber: phone }), phone };
      } catch (error) {
        // Created by someone else meanwhile (two bookings of a new customer at once): that contact.
        const other = error instanceof ConflictError ? error.details?.existingContactId : undefined;
        if (typeof other === 'string') return { contactId: other, phone };
        if (error instanceof LimitExceededError) return { contactId: null, phone };
        throw error;
      }
    },
  };
}

export interface ContactLinkerDeps {
  customers: BookingCustomerDirectory;
  bookings: Pick<Bookings, 'get'>;
  store: Pick<BookingStore, 'setContact'>;
  isNotFound(error: unknown): boolean;
}

/**
 * The booking's contact, for a booking stored by a core without a customer directory (the agent's
 * calls, chat and WhatsApp): found or created by the booking's phone in the booking-events worker.
 * Idempotent: a booking already linked is left alone and a second run finds the contact the first
 * created. Reads the booking as it is now (a change may arrive late). A failure is thrown: retried.
 */
export function contactLinker(deps: ContactLinkerDeps): BookingChangeListener {
  return {
    name: 'booking-contact',
    async handle(userId, change) {
      if (change.kind !== 'created' || change.booking.customer.contactId) return;
      let booking;
      try {
        booking = await deps.bookings.get(userId, change.booking._id);
      } catch (error) {
        if (deps.isNotFound(error)) return;
        throw error;
      }
      if (booking.customer.contactId) return;
      let contactId: string | null;
      try {
        ({ contactId } = await deps.customers.ensure(userId, { name: booking.customer.name, phone: booking.customer.phone }));
      } catch (error) {
        // A number the contacts refuse (E.164-shaped but not a real one): retrying cannot fix it.
        if (error instanceof ValidationError) return;
        throw error;
      }
      if (contactId) await deps.store.setContact(userId, booking._id, contactId);
    },
  };
}
