/** The booking's customer in the contact directory (domain/bookings/customers.ts): found by phone, created when new, never blocking a booking. */
import { describe, expect, it } from 'vitest';
import { bookingMessages } from '../../../src/contract/bookings.js';
import { createBookingCustomers } from '../../../src/domain/bookings/customers.js';
import { ConflictError, LimitExceededError, ValidationError } from '../../../src/domain/errors.js';

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
