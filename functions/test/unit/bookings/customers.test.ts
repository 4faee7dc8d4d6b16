/** The booking's customer in the contact directory (domain/bookings/customers.ts): found by phone, created when new, never blocking a booking; linked later by the booking-events worker for the agent's bookings. */
import { describe, expect, it } from 'vitest';
import { bookingMessages } from '../../../src/contract/bookings.js';
import type { Booking } from '../../../src/contract/bookings.js';
import { contactLinker, createBookingCustomers } from '../../../src/domain/bookings/customers.js';
import type { BookingChange } from '../../../src/domain/bookings/ports.js';
import { ConflictError, LimitExceededError, NotFoundError, ValidationError } from '../../../src/domain/errors.js';

function directory(options: { existing?: Record<string, string>; fail?: Error } = {}) {
  const created: { name: string; phoneNumber: string }[] = [];
  const customers = createBookingCustomers({
    accountCountry: async () => 'ES',
    contactByPhone: async (_u, phone) => options.existing?.[phone] ?? null,
    createContact: async (_u, contact) => {
      if (options.fail) throw options.fail;
      created.push(contact);
      return `c${created.length}`;
    },
  });
  return { customers, created };
}

describe('createBookingCustomers', () => {
  it("reads a phone without prefix in the account's country and creates the contact when new", async () => {
    const { customers, created } = directory();
    expect(await customers.ensure('u', { name: 'José Núñez', phone: '612 34 56 78' })).toEqual({ contactId: 'c1', phone: '+34612345678' });
    expect(created).toEqual([{ name: 'José Núñez', phoneNumber: '+34612345678' }]);
  });

  it('finds an existing contact by phone (no new one)', async () => {
    const { customers, created } = directory({ existing: { '+34612345678': 'old' } });
    expect(await customers.ensure('u', { name: 'José', phone: '+34 612 345 678' })).toEqual({ contactId: 'old', phone: '+34612345678' });
    expect(created).toEqual([]);
  });

  it('an invalid phone is a 400 with the bookings message', async () => {
    const refused = directory().customers.ensure('u', { name: 'Ana', phone: '123' });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toThrow(bookingMessages.customerPhoneInvalid);
  });

  it('created meanwhile: that contact; a full plan: no contact, the booking goes on', async () => {
    const race = directory({ fail: new ConflictError('duplicate', { existingContactId: 'other' }) });
    expect(await race.customers.ensure('u', { name: 'Ana', phone: '612345678' })).toEqual({ contactId: 'other', phone: '+34612345678' });
    const full = directory({ fail: new LimitExceededError('limit') });
    expect(await full.customers.ensure('u', { name: 'Ana', phone: '612345678' })).toEqual({ contactId: null, phone: '+34612345678' });
  });
});

describe('contactLinker (booking-events worker: the contact of a booking made by the agent)', () => {
  const booking = (contactId: string | null, phone = '+34612345678') =>
    ({ _id: 'b1', customer: { name: 'Ana Pérez', phone, contactId } }) as unknown as Booking;
  const change = (kind: BookingChange['kind'], b: Booking): BookingChange => ({ kind, booking: b, actor: { by: 'agent', channel: 'voice' } });

  function linker(stored: Booking | null, options: { existing?: Record<string, string>; fail?: Error } = {}) {
    const { customers, created } = directory(options);
    const links: [string, string][] = [];
    let current = stored;
    const listener = contactLinker({
      customers,
      bookings: {
        async get() {
          if (!current) throw new NotFoundError('gone');
          return current;
        },
      },
      store: {
        async setContact(_u, id, contactId) {
          links.push([id, contactId]);
          current = current && { ...current, customer: { ...current.customer, contactId } };
        },
      },
      isNotFound: (e) => e instanceof NotFoundError,
    });
    return { listener, created, links };
  }

  it('creates the contact by the booking’s number and links it; a second delivery changes nothing', async () => {
    const { listener, created, links } = linker(booking(null));
    await listener.handle('u', change('created', booking(null)));
    await listener.handle('u', change('created', booking(null)));
    expect(created).toEqual([{ name: 'Ana Pérez', phoneNumber: '+34612345678' }]);
    expect(links).toEqual([['b1', 'c1']]);
  });

  it('links the contact that already holds the number (no new one)', async () => {
    const { listener, created, links } = linker(booking(null), { existing: { '+34612345678': 'old' } });
    await listener.handle('u', change('created', booking(null)));
    expect(created).toEqual([]);
    expect(links).toEqual([['b1', 'old']]);
  });

  it('leaves alone a booking already linked (the owner’s core linked it), one gone, a move, a number the contacts refuse and a full plan', async () => {
    const linked = linker(booking('c9'));
    await linked.listener.handle('u', change('created', booking('c9')));
    await linked.listener.handle('u', change('created', booking(null)));
    const gone = linker(null);
    await gone.listener.handle('u', change('created', booking(null)));
    const moved = linker(booking(null));
    await moved.listener.handle('u', change('moved', booking(null)));
    const invalid = linker(booking(null, '+3400'));
    await invalid.listener.handle('u', change('created', booking(null, '+3400')));
    const full = linker(booking(null), { fail: new LimitExceededError('limit') });
    await full.listener.handle('u', change('created', booking(null)));
    for (const l of [linked, gone, moved, invalid, full]) expect(l.links).toEqual([]);
  });

  it('a contacts failure is thrown (the queue retries the change)', async () => {
    const { listener } = linker(booking(null), { fail: new Error('table down') });
    await expect(listener.handle('u', change('created', booking(null)))).rejects.toThrow('table down');
  });
});
