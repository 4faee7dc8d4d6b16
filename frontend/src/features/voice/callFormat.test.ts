import { describe, expect, it } from 'vitest';
import {
  callFiltersToParams,
  callInProgress,
  confidencePercent,
  contactLink,
  formatDuration,
  hasExtractedContact,
  parseCallFilters,
} from './callFormat';

describe('formatDuration', () => {
  it('shows milliseconds as minutes:seconds', () => {
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(600_000)).toBe('10:00');
    expect(formatDuration(9_400)).toBe('0:09');
  });
  it('shows 0:00 for nothing', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(null)).toBe('0:00');
    expect(formatDuration(-5)).toBe('0:00');
  });
});

describe('confidencePercent', () => {
  it('rounds 0..1 to a percentage', () => {
    expect(confidencePercent(0.874)).toBe('87%');
    expect(confidencePercent(1)).toBe('100%');
    expect(confidencePercent(0)).toBe('0%');
    expect(confidencePercent(0.874, 'es')).toBe('87\u00a0%');
  });
  it('is null for agent turns', () => {
    expect(confidencePercent(null)).toBeNull();
  });
});

describe('call log filters', () => {
  it('round-trips page and search through the URL', () => {
    const params = callFiltersToParams({ page: 3, search: '555' });
    expect(parseCallFilters(params)).toEqual({ page: 3, search: '555' });
  });
  it('treats a bad page as the first', () => {
    expect(parseCallFilters(new URLSearchParams('page=abc'))).toEqual({ page: 1, search: '' });
    expect(callFiltersToParams({ page: 1, search: '' }).toString()).toBe('');
  });
});

describe('contactLink', () => {
  it('opens the contact when it exists', () => {
    expect(contactLink({ _id: 'c1', name: 'Ana', phoneNumber: '+34600111222' }, '+34600111222')).toBe('/contacts/c1');
  });
  it('searches the contacts by name, else by phone', () => {
    expect(contactLink({ _id: null, name: 'Ana López', phoneNumber: '+34600111222' }, '+1')).toBe('/contacts?search=Ana+L%C3%B3pez');
    expect(contactLink(null, '+34600111222')).toBe('/contacts?search=%2B34600111222');
  });
});

describe('polling and apply-contact rules', () => {
  it('polls while the call is live or the analysis pending', () => {
    expect(callInProgress({ status: 'active', summaryStatus: 'pending' })).toBe(true);
    expect(callInProgress({ status: 'completed', summaryStatus: 'pending' })).toBe(true);
    expect(callInProgress({ status: 'completed', summaryStatus: 'completed' })).toBe(false);
  });
  it('offers Apply to contact only with an extracted name, e-mail or website', () => {
    const summary = {
      quickSummary: 'x',
      actionPoints: [],
      sentiment: 'neutral' as const,
      urgency: 'low' as const,
      tone: '',
      contactExtracted: { name: '', phone: '+1', email: '', web: '' },
      bookingExtracted: { from: '', to: '', numberOfPeople: null, note: '' },
    };
    expect(hasExtractedContact({ summary })).toBe(false);
    expect(hasExtractedContact({ summary: { ...summary, contactExtracted: { ...summary.contactExtracted, email: 'a@b.co' } } })).toBe(true);
    expect(hasExtractedContact({ summary: { ...summary, contactExtracted: { ...summary.contactExtracted, web: 'clinica.example' } } })).toBe(true);
    expect(hasExtractedContact({ summary: null })).toBe(false);
  });
});
