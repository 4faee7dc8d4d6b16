import { describe, expect, it } from 'vitest';
import {
  canRetry,
  DEFAULT_MESSAGE_FILTERS,
  hasActiveFilter,
  listQuery,
  percent,
  relativeTime,
  shownStatus,
  statusCounts,
  typeIconKind,
  hasRichContent,
  withFilter,
} from './model';

describe('Message Hub filters', () => {
  it('asks for page 1 of 20 from the last 7 days by default', () => {
    expect(Object.fromEntries(new URLSearchParams(listQuery(DEFAULT_MESSAGE_FILTERS)))).toEqual({ page: '1', limit: '20', timeFilter: 'lastWeek' });
    expect(hasActiveFilter(DEFAULT_MESSAGE_FILTERS)).toBe(false);
  });

  it('sends search, status, direction as fromMe and the time filter', () => {
    const filters = { search: ' hola ', status: 'failed', direction: 'outgoing', timeFilter: 'all', page: 3 } as const;
    expect(Object.fromEntries(new URLSearchParams(listQuery(filters)))).toEqual({
      page: '3',
      limit: '20',
      search: 'hola',
      status: 'failed',
      fromMe: 'true',
      timeFilter: 'all',
    });
    expect(new URLSearchParams(listQuery({ ...filters, direction: 'incoming' })).get('fromMe')).toBe('false');
  });

  it('goes back to page 1 when a filter or the search changes', () => {
    const onPage4 = { ...DEFAULT_MESSAGE_FILTERS, page: 4 };
    expect(withFilter(onPage4, { search: 'order' })).toEqual({ ...DEFAULT_MESSAGE_FILTERS, search: 'order', page: 1 });
    expect(hasActiveFilter(withFilter(onPage4, { timeFilter: 'today' }))).toBe(true);
  });
});

describe('Message Hub display rules', () => {
  it('shows an unknown status as pending', () => {
    expect(shownStatus('delivered')).toBe('delivered');
    expect(shownStatus('failed')).toBe('failed');
    expect(shownStatus('deleted')).toBe('pending');
    expect(shownStatus(undefined)).toBe('pending');
  });

  it('shows ptt like audio, a location, contacts and options by their own icon (issue 31), and other types with the generic icon', () => {
    expect(typeIconKind('ptt')).toBe('audio');
    expect(typeIconKind('audio')).toBe('audio');
    expect(typeIconKind('chat')).toBe('chat');
    expect(typeIconKind('sticker')).toBe('sticker');
    expect(typeIconKind('location')).toBe('location');
    expect(typeIconKind('contacts')).toBe('contacts');
    expect(typeIconKind('interactive')).toBe('interactive');
    expect(typeIconKind('reaction')).toBe('media');
  });

  it('shows media, a location, contact cards and options with more than their text (issue 31)', () => {
    expect(hasRichContent({ hasMedia: false })).toBe(false);
    expect(hasRichContent({ hasMedia: false, contactCards: [] })).toBe(false);
    expect(hasRichContent({ hasMedia: true })).toBe(true);
    expect(hasRichContent({ hasMedia: false, location: { latitude: 40.4, longitude: -3.7 } })).toBe(true);
    expect(hasRichContent({ hasMedia: false, interactiveReply: { id: 'a', title: 'Mañana' } })).toBe(true);
  });

  it('retries only failed outgoing messages', () => {
    expect(canRetry({ fromMe: true, status: 'failed' })).toBe(true);
    expect(canRetry({ fromMe: false, status: 'failed' })).toBe(false);
    expect(canRetry({ fromMe: true, status: 'sent' })).toBe(false);
  });

  it('gives now under a minute (never "0 min ago"), minutes under an hour, hours under a day, else the date', () => {
    const now = Date.parse('2026-03-10T12:00:00.000Z');
    expect(relativeTime('2026-03-10T11:59:30.000Z', now)).toEqual({ kind: 'now' });
    expect(relativeTime('2026-03-10T12:00:05.000Z', now)).toEqual({ kind: 'now' });
    expect(relativeTime('2026-03-10T11:59:00.000Z', now)).toEqual({ kind: 'minutes', value: 1 });
    expect(relativeTime('2026-03-10T11:01:00.000Z', now)).toEqual({ kind: 'minutes', value: 59 });
    expect(relativeTime('2026-03-10T11:00:00.000Z', now)).toEqual({ kind: 'hours', value: 1 });
    expect(relativeTime('2026-03-09T12:00:01.000Z', now)).toEqual({ kind: 'hours', value: 23 });
    expect(relativeTime('2026-03-09T12:00:00.000Z', now)).toEqual({ kind: 'date', value: new Date('2026-03-09T12:00:00.000Z') });
    expect(relativeTime('not a date', now)).toBeNull();
  });

  it('gives percentages with 1 decimal, in the UI language', () => {
    expect(percent(1, 3)).toBe('33.3%');
    expect(percent(2, 3)).toBe('66.7%');
    expect(percent(5, 5)).toBe('100.0%');
    expect(percent(0, 0)).toBe('0.0%');
    // Spanish: decimal comma and a space before the sign ('91,7 %', not '91.7 %').
    expect(percent(11, 12, 'es').replace(/[\u00a0\u202f]/g, ' ')).toBe('91,7 %');
  });

  it('counts delivered messages under sent (no delivered card)', () => {
    expect(statusCounts({ statusBreakdown: { pending: 1, sent: 2, delivered: 3, read: 4, failed: 5 } })).toEqual({ pending: 1, sent: 5, read: 4, failed: 5 });
  });
});
