/** The conversations service's pure rules: board date filters, the 24-hour window, status filter, Graph failures. */
import { describe, expect, it } from 'vitest';
import { whatsappMessages } from '../../../src/contract/whatsapp.js';
import { dateFilterStart, graphFailure, insideWindow, statusFilter } from '../../../src/domain/conversations/service.js';
import { GraphError } from '../../../src/domain/whatsapp/ports.js';

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

describe('graphFailure', () => {
  it.each([
    [new GraphError('auth', 'Invalid OAuth access token', 190), 400, whatsappMessages.graphAuthFailed],
    [new GraphError('not_found', 'Object does not exist', 100), 400, whatsappMessages.graphPhoneNotFound],
    [new GraphError('bad_request', 'Re-engagement message', 131047), 400, whatsappMessages.windowClosed],
    [new GraphError('bad_request', 'Recipient phone number not in allowed list', 131030), 400, 'Recipient phone number not in allowed list'],
    [new GraphError('rate_limit', 'Too many messages', 130429), 429, 'Too many messages'],
    [new GraphError('unavailable', 'Something went wrong', 131000), 502, whatsappMessages.graphUnavailable],
  ])('%s → %i', (error, status, message) => {
    const failure = graphFailure(error);
    expect(failure.status).toBe(status);
    expect(failure.message).toBe(message);
  });
});
