/**
 * One form shape for 'Add New Contact' and the contact edit mode (the add form leaves notes and
 * tags at their defaults). Field rules come from the contract, so the messages are the server's.
 */
import * as z from 'zod/mini';
import { contactEmail, contactName, contactNotes, contactPhone } from '@agentdesk/functions/contract';
import { collectCustomFields, customFieldRows } from './fields';
import type { Contact, CreateContactInput, UpdateContactInput } from './types';

export const contactForm = z.object({
  // Issue 29: the name in two parts, shown and searched together.
  firstName: contactName,
  lastName: contactName,
  phoneNumber: contactPhone,
  email: contactEmail,
  customFields: z.array(z.object({ name: z.string(), value: z.string() })),
  notes: contactNotes,
  tags: z.array(z.string()),
});

export type ContactFormInput = z.input<typeof contactForm>;
export type ContactFormValues = z.output<typeof contactForm>;

export const EMPTY_CONTACT_FORM: ContactFormInput = { firstName: '', lastName: '', phoneNumber: '', email: '', customFields: [], notes: '', tags: [] };

export function formFromContact(contact: Contact): ContactFormInput {
  return {
    // A contact saved with one name (before issue 29) reads it as its first name.
    firstName: contact.firstName ?? contact.name ?? '',
    lastName: contact.lastName ?? '',
    phoneNumber: contact.phoneNumber ?? '',
    email: contact.email ?? '',
    customFields: customFieldRows(contact.customFields),
    notes: contact.metadata?.notes ?? '',
    tags: [...(contact.metadata?.tags ?? [])],
  };
}

export function createInput(values: ContactFormValues): CreateContactInput {
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    phoneNumber: values.phoneNumber,
    email: values.email,
    customFields: collectCustomFields(values.customFields),
  };
}

export function updateInput(values: ContactFormValues): UpdateContactInput {
  return { ...createInput(values), metadata: { notes: values.notes, tags: values.tags } };
}
