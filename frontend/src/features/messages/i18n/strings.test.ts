import { describe, expect, it } from 'vitest';
import { whatsappMessages } from '@agentdesk/functions/contract';
import en from './en.json';
import es from './es.json';
import { keyPaths as keys } from '../../../i18n/keyPaths';

describe('Message Hub strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the spec texts exact (SPEC §2 Messages, §8)', () => {
    expect(en.title).toBe('Message Hub');
    expect(en.stats.disabled).toBe('Disabled');
    expect(Object.values(en.timeFilters)).toEqual(['Today', 'Last 7 Days', 'Last 30 Days', 'All Time']);
    expect(en.empty.filteredTitle).toBe('No messages found');
    expect(en.empty.body).toBe('Messages will appear here once you start sending WhatsApp messages.');
    expect(en.list.minutesAgo.replace('{{count}}', '5')).toBe('5m ago');
    expect(en.list.hoursAgo.replace('{{count}}', '3')).toBe('3h ago');
    expect(en.toasts).toEqual({
      loadFailed: 'Failed to load messages',
      retryFailed: 'Failed to retry message',
      deleteFailed: 'Failed to delete message',
      retryStarted: 'Message retry initiated',
      deleted: 'Message deleted successfully',
    });
  });

  it('keys the server texts like the contract, with the contract English', () => {
    for (const [key, text] of Object.entries(en.server)) {
      expect((whatsappMessages as Record<string, unknown>)[key], key).toBe(text);
    }
  });
});
