/** The takeover rules (issue 17): who answers a conversation at a given time, and when the AI resumes on its own. */
import { describe, expect, it } from 'vitest';
import { aiPausedAt, aiResumesAtOf, humanSinceOf, takeoverView, type TakeoverFields } from '../../../src/domain/conversations/takeover.js';
import { alertNumberE164 } from '../../../src/domain/conversations/inbox-settings.js';

const T0 = '2026-03-18T10:00:00.000Z';
const at = (iso: string) => new Date(iso);
const conv = (over: Partial<TakeoverFields> = {}): TakeoverFields => ({ status: 'active', humanAt: null, aiPaused: false, escalatedAt: null, ...over });

describe('takeover rules', () => {
  it('the AI answers a conversation nobody took over', () => {
    expect(takeoverView(conv(), 12, at(T0))).toEqual({ answeredBy: 'ai', humanSince: null, aiResumesAt: null });
    expect(aiPausedAt(conv(), 12, at(T0))).toBe(false);
  });

  it('a person answers from humanAt until humanAt + the idle hours, then the AI again', () => {
    const taken = conv({ humanAt: T0, aiPaused: true });
    expect(aiResumesAtOf(taken, 12)).toBe('2026-03-18T22:00:00.000Z');
    expect(takeoverView(taken, 12, at('2026-03-18T21:59:59.999Z'))).toEqual({
      answeredBy: 'human',
      humanSince: T0,
      aiResumesAt: '2026-03-18T22:00:00.000Z',
    });
    expect(aiPausedAt(taken, 12, Date.parse('2026-03-18T22:00:00.000Z'))).toBe(false);
    expect(takeoverView(taken, 12, at('2026-03-18T22:00:00.000Z')).answeredBy).toBe('ai');
    // The idle hours are the user's setting.
    expect(aiPausedAt(taken, 1, at('2026-03-18T11:00:01.000Z'))).toBe(false);
    expect(aiPausedAt(taken, 168, at('2026-03-25T09:59:59.000Z'))).toBe(true);
  });

  it('"Return to AI" (aiPaused false) ends the pause whatever humanAt says', () => {
    expect(aiPausedAt(conv({ humanAt: T0, aiPaused: false }), 12, at(T0))).toBe(false);
    expect(humanSinceOf(conv({ humanAt: T0, aiPaused: false }))).toBeNull();
  });

  it('an escalation stored before the takeover attributes counts from escalatedAt', () => {
    const legacy: TakeoverFields = { status: 'requires_human', escalatedAt: T0 };
    expect(humanSinceOf(legacy)).toBe(T0);
    expect(aiPausedAt(legacy, 12, at('2026-03-18T12:00:00.000Z'))).toBe(true);
    expect(aiPausedAt(legacy, 12, at('2026-03-19T12:00:00.000Z'))).toBe(false);
    // Active legacy items were never taken over.
    expect(humanSinceOf({ status: 'active', escalatedAt: null })).toBeNull();
  });
});

describe('alert number normalisation', () => {
  it('Spanish numbers without +34 are read in the business number’s country, or as digits with their country code', () => {
    expect(alertNumberE164('612 345 678', ['US', 'ES'])).toBe('+34612345678');
    expect(alertNumberE164('34612345678', ['US'])).toBe('+34612345678');
    expect(alertNumberE164('34612345678', ['US', 'ES'])).toBe('+34612345678');
    expect(alertNumberE164('+34 612-345-678', ['US'])).toBe('+34612345678');
    expect(alertNumberE164('0034 612 345 678', ['US'])).toBe('+34612345678');
    expect(alertNumberE164('(415) 555-0123', ['US', 'ES'])).toBe('+14155550123');
  });

  it('what is not a phone number is refused', () => {
    expect(alertNumberE164('12', ['US', 'ES'])).toBeNull();
    expect(alertNumberE164('612 345', ['US', 'ES'])).toBeNull();
    expect(alertNumberE164('', ['US'])).toBeNull();
  });
});
