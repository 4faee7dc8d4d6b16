/** The conversations service's pure rules: board date filters, the 24-hour window, status filter. */
import { describe, expect, it } from 'vitest';
import { dateFilterStart, insideWindow, statusFilter } from '../../../src/domain/conversations/service.js';

describe('dateFilterStart', () => {
  // Wednesday 18 March 2026, 12:00 UTC.
  const now = new Date('2026-03-18T12:00:00.000Z');
  it.each([
    ['today', '2026-03-18T00:00:00.000Z'],
    ['this_week', '2026-03-16T00:00:00.000Z'],
    ['this_month', '2026-03-01T00:00:00.000Z'],
  ] as const)('%s starts at %s', (filter, start) => {
    expect(dateFilterStart(filter, now).toISOString()).toBe(start);
  });

  it('a Sunday belongs to the week that began on the Monday before', () => {
    expect(dateFilterStart('this_week', new Date('2026-03-22T23:59:00.000Z')).toISOString()).toBe('2026-03-16T00:00:00.000Z');
  });
});

describe('insideWindow (24 hours from the customer’s last message)', () => {
  const now = new Date('2026-03-18T12:00:00.000Z');
  it.each([
    ['2026-03-18T11:59:00.000Z', true],
    ['2026-03-17T12:00:01.000Z', true],
    ['2026-03-17T12:00:00.000Z', false],
    ['2026-03-10T12:00:00.000Z', false],
    [null, false],
    ['not a date', false],
  ])('last inbound %s → %s', (lastInboundAt, expected) => {
    expect(insideWindow(lastInboundAt, now)).toBe(expected);
  });
});

describe('statusFilter', () => {
  it.each([
    ['', ''],
    ['sent', 'sent'],
    ['failed', 'failed'],
    ['read', 'read'],
    ['bogus', 'pending'],
  ])('%j → %j', (raw, expected) => {
    expect(statusFilter(raw)).toBe(expected);
  });
});
