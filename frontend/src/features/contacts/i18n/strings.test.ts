import { describe, expect, it } from 'vitest';
import { contactBulkMessages, contactMessages, whatsappMessages } from '@agentdesk/functions/contract';
import en from './en.json';
import es from './es.json';
import esServer from './es-server.json';
import { keyPaths as keys } from '../../../i18n/keyPaths';

describe('contacts strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the spec texts exact', () => {
    expect(en.title).toBe('Contacts');
    expect(en.addContact).toBe('Add Contact');
    expect(en.filters.clear).toBe('Clear Filters');
    expect(en.empty.filteredTitle).toBe('No contacts found');
    expect(en.empty.filteredBody).toBe('Try adjusting your search or filter criteria');
    expect(en.empty.title).toBe('No contacts in your directory yet');
    expect([en.empty.hints.importTitle, en.empty.hints.phoneTitle, en.empty.hints.customTitle]).toEqual([
      'Easy Import',
      'Phone Numbers',
      'Custom Variables',
    ]);
    expect(en.empty.importWhatsApp).toBe('Import from WhatsApp');
    expect(en.empty.addFirst).toBe('Add Your First Contact');
    expect(en.empty.importTooltip).toBe('Premium subscription required to import contacts from WhatsApp');
    expect(en.empty.addTooltip).toBe('Premium subscription required to add contacts manually');
    expect(en.form.addTitle).toBe('Add New Contact');
    expect(en.form.phonePlaceholder).toBe('+1234567890');
    expect(en.form.phoneHint).toBe('* Phone number is required.');
    expect(en.form.submit).toBe('Add Contact');
    expect(en.form.cancel).toBe('Cancel');
    expect(en.pagination.page).toBe('Page {{page}} of {{total}}');
    expect(en.pagination.previous).toBe('Previous');
    expect(en.pagination.next).toBe('Next');
    expect(Object.values(en.toasts)).toEqual([
      'Failed to load contacts',
      'Failed to add contact',
      'Failed to delete contact',
      'Failed to update contact',
      'Contact not found',
      'Failed to load contact',
      'Contact added successfully!',
      'Contact updated successfully!',
      'Contact deleted successfully!',
    ]);
    expect(en.duplicate.replace('{{label}}', 'Ana')).toBe(contactMessages.duplicate('Ana'));
    expect(en.whatsappImport.done_one.replace('{{count}}', '1')).toBe(whatsappMessages.importDone(1));
    expect(en.whatsappImport.done_other.replace('{{count}}', '3')).toBe(whatsappMessages.importDone(3));
  });

  it('has Spanish for every fixed server message of the contract', () => {
    const fixed = [...Object.values(contactMessages as Record<string, unknown>), ...Object.values(contactBulkMessages as Record<string, unknown>)].filter(
      (m): m is string => typeof m === 'string',
    );
    for (const message of fixed) expect(esServer, message).toHaveProperty([message]);
  });
});
