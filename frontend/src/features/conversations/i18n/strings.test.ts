import { describe, expect, it } from 'vitest';
import { mediaMessages, whatsappMessages } from '@agentdesk/functions/contract';
import en from './en.json';
import es from './es.json';
import esServer from './es-server.json';
import { keyPaths as keys } from '../../../i18n/keyPaths';

describe('conversations strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the spec texts exact (SPEC §2, §8, §9)', () => {
    expect([en.columns.active, en.columns.requires_human, en.columns.closed]).toEqual([
      { title: 'Active', subtitle: 'Ongoing conversations' },
      { title: 'Requires Human', subtitle: 'Needs human intervention' },
      { title: 'Closed', subtitle: 'Completed conversations' },
    ]);
    expect([en.stats.total, en.stats.active, en.stats.requiresHuman, en.stats.closed, en.stats.archived]).toEqual([
      'Total',
      'Active',
      'Requires Human',
      'Closed',
      'Archived',
    ]);
    expect(en.dateFilters).toEqual({ today: 'Today', this_week: 'This week', this_month: 'This month' });
    expect(en.card.actionNeeded).toBe('ACTION NEEDED');
    expect(en.time.now).toBe('Just now');
    expect([en.modal.openWhatsApp, en.modal.viewContact, en.modal.searchContacts]).toEqual(['Open WhatsApp', 'View contact', 'Search in Contacts']);
    expect(en.modal.windowOpen).toBe('Can send new messages for free during 24h period');
    expect(en.modal.windowClosed).toBe('Last message sent more than 24h ago');
    expect(en.errors).toMatchObject({
      loadFailed: 'Failed to load conversations',
      detailFailed: 'Failed to load conversation details',
      updateFailed: 'Failed to update conversation',
      reasonRequired: 'Escalation reason is required',
      escalateFailed: 'Failed to escalate conversation',
      deleteFailed: 'Failed to delete conversation',
    });
    expect(en.errors.reasonRequired).toBe(whatsappMessages.escalationReasonRequired);
  });

  it('has Spanish for the conversation calls’ server messages', () => {
    for (const key of ['conversationNotFound', 'escalationReasonRequired', 'notesTooLong', 'replyRequired', 'windowClosed', 'graphUnavailable'] as const) {
      expect(esServer, key).toHaveProperty([whatsappMessages[key]]);
    }
  });

  it('has Spanish for the reply attachment’s server messages (issue 31)', () => {
    const keys = ['attachmentTypeInvalid', 'attachmentTooLarge', 'attachmentFileNameRequired', 'attachmentFileNameTooLong', 'attachmentNotUploaded', 'attachmentIdInvalid', 'captionTooLong', 'attachmentSent'] as const;
    for (const key of keys) expect(esServer, key).toHaveProperty([mediaMessages[key]]);
  });
});
