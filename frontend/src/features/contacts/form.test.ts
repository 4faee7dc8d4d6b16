import { describe, expect, it } from 'vitest';
import type { Contact } from '@agentdesk/functions/contract';
import { contactForm, createInput, EMPTY_CONTACT_FORM, formFromContact, updateInput } from './form';

describe('contact form', () => {
  it('requires a phone number with the spec text', () => {
    const result = contactForm.safeParse(EMPTY_CONTACT_FORM);
    expect(result.success).toBe(false);
    // The form shows a field's first issue.
    const first = result.error?.issues[0];
    expect([first?.path.join('.'), first?.message]).toEqual(['phoneNumber', 'Phone number is required']);
  });

  it('rejects a bad e-mail with the spec text and accepts none', () => {
    const bad = contactForm.safeParse({ ...EMPTY_CONTACT_FORM, phoneNumber: '+14155550123', email: 'nope' });
    expect(bad.error?.issues[0]?.message).toBe('Invalid email address');
    expect(contactForm.safeParse({ ...EMPTY_CONTACT_FORM, phoneNumber: '+14155550123' }).success).toBe(true);
  });

  it('trims the name parts and phone and keeps only complete custom fields', () => {
    const values = contactForm.parse({
      ...EMPTY_CONTACT_FORM,
      firstName: '  Ana ',
      lastName: ' Ruiz Peña ',
      phoneNumber: ' +34 612 345 678 ',
      customFields: [
        { name: 'city', value: 'Madrid' },
        { name: 'plan', value: ' ' },
        { name: 'city', value: 'Sevilla' },
      ],
      notes: ' call after 5 ',
      tags: ['vip'],
    });
    expect(createInput(values)).toEqual({ firstName: 'Ana', lastName: 'Ruiz Peña', phoneNumber: '+34 612 345 678', email: '', customFields: { city: 'Sevilla' } });
    expect(updateInput(values).metadata).toEqual({ notes: 'call after 5', tags: ['vip'] });
  });

  it('edits a contact saved with one name (before issue 29) with that name as its first name', () => {
    const older = { name: 'Ana Ruiz', phoneNumber: '+34612345678', email: '', customFields: {}, metadata: { notes: '', tags: [] } } as unknown as Contact;
    expect(formFromContact(older)).toMatchObject({ firstName: 'Ana Ruiz', lastName: '' });
    expect(formFromContact({ ...older, firstName: 'Ana', lastName: 'Ruiz' })).toMatchObject({ firstName: 'Ana', lastName: 'Ruiz' });
  });
});
