import { describe, expect, it } from 'vitest';
import {
  activityDate,
  activityTime,
  agentBookingFigures,
  dayLabel,
  formatAverage,
  formatBookingValue,
  formatCallDuration,
  MAX_X_TICKS,
  showTick,
  tickStep,
  whatsappFigures,
  yAxisMax,
} from './format';

describe('formatCallDuration (SPEC §9: "Nm Ns" or seconds only)', () => {
  it('shows seconds only under a minute', () => {
    expect(formatCallDuration(0)).toBe('0s');
    expect(formatCallDuration(45)).toBe('45s');
    expect(formatCallDuration(59.4)).toBe('59s');
  });

  it('shows minutes and seconds from a minute on', () => {
    expect(formatCallDuration(60)).toBe('1m 0s');
    expect(formatCallDuration(80)).toBe('1m 20s');
    expect(formatCallDuration(59.6)).toBe('1m 0s');
    expect(formatCallDuration(60_000)).toBe('1,000m 0s');
  });

  it('writes the units Spanish uses (issue 29)', () => {
    expect(formatCallDuration(45, 'es')).toBe('45 s');
    expect(formatCallDuration(80, 'es')).toBe('1 min 20 s');
    expect(formatCallDuration(undefined, 'es')).toBe('0 s');
    expect(formatCallDuration(6_000_000, 'es')).toBe('100.000 min 0 s');
    expect(formatCallDuration(3725)).toBe('62m 5s');
  });

  it('treats missing, negative and invalid values as 0s', () => {
    expect(formatCallDuration(undefined)).toBe('0s');
    expect(formatCallDuration(null)).toBe('0s');
    expect(formatCallDuration(-5)).toBe('0s');
    expect(formatCallDuration(Number.NaN)).toBe('0s');
  });
});

describe('activityTime (SPEC §9 recent activity)', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it("is 'Just now' under one hour (and for a clock slightly ahead)", () => {
    expect(activityTime(ago(0), now)).toEqual({ unit: 'now' });
    expect(activityTime(ago(59 * 60_000 + 59_000), now)).toEqual({ unit: 'now' });
    expect(activityTime(new Date(now + 30_000).toISOString(), now)).toEqual({ unit: 'now' });
  });

  it('counts whole hours under 24 hours', () => {
    expect(activityTime(ago(3_600_000), now)).toEqual({ unit: 'hours', count: 1 });
    expect(activityTime(ago(5.5 * 3_600_000), now)).toEqual({ unit: 'hours', count: 5 });
    expect(activityTime(ago(24 * 3_600_000 - 1), now)).toEqual({ unit: 'hours', count: 23 });
  });

  it('is a date from 24 hours on', () => {
    const when = activityTime(ago(24 * 3_600_000), now);
    expect(when).toEqual({ unit: 'date', date: new Date(now - 24 * 3_600_000) });
    expect(activityDate((when as { date: Date }).date, 'en-US', 'UTC')).toBe('Mar 9, 2026');
  });

  it('ignores a missing or unreadable time', () => {
    expect(activityTime(undefined, now)).toBeNull();
    expect(activityTime('not a date', now)).toBeNull();
  });

  it('shows the date in the dashboard time zone', () => {
    const lateEvening = new Date('2026-03-09T23:30:00Z');
    expect(activityDate(lateEvening, 'en-US', 'UTC')).toBe('Mar 9, 2026');
    expect(activityDate(lateEvening, 'en-US', 'Europe/Madrid')).toBe('Mar 10, 2026');
  });
});

describe('chart axes (SPEC §9: at most 15 X ticks, Y step 1)', () => {
  const labelled = (count: number) => Array.from({ length: count }, (_, i) => i).filter((i) => showTick(i, count));

  it('labels at most 15 of the 30 days, the newest day always', () => {
    const ticks = labelled(30);
    expect(ticks.length).toBeLessThanOrEqual(MAX_X_TICKS);
    expect(ticks.length).toBe(15);
    expect(ticks.at(-1)).toBe(29);
    expect(tickStep(30)).toBe(2);
  });

  it('labels every day when there are 15 or fewer', () => {
    expect(labelled(7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(labelled(15)).toHaveLength(15);
  });

  it('stays within 15 for any length', () => {
    for (let count = 1; count <= 120; count++) expect(labelled(count).length, String(count)).toBeLessThanOrEqual(MAX_X_TICKS);
  });

  it('draws the Y axis to the busiest day, at least 1', () => {
    expect(yAxisMax([0, 0, 0])).toBe(1);
    expect(yAxisMax([])).toBe(1);
    expect(yAxisMax([0, 3, 7, 2])).toBe(7);
  });

  it('labels a day as it is, whatever the browser zone', () => {
    expect(dayLabel('2026-01-05', 'en-US')).toBe('Jan 5');
    expect(dayLabel('2026-12-31', 'en-US')).toBe('Dec 31');
    expect(dayLabel('bad', 'en-US')).toBe('bad');
  });
});

describe('formatAverage', () => {
  it('keeps one decimal', () => {
    expect(formatAverage(3, 'en')).toBe('3');
    expect(formatAverage(2.46, 'en')).toBe('2.5');
    expect(formatAverage(2.5, 'es')).toBe('2,5');
  });
});

describe('whatsappFigures (issue 19: the API returned them, the page showed none)', () => {
  const data = (over: { received?: number; sent?: number; failed?: number; newConversations?: number; escalations?: number; active?: number } = {}) => ({
    whatsappAnalytics: {
      newConversations: over.newConversations ?? 0,
      byStatus: { active: over.active ?? 0, closed: 0, requires_human: 0, archived: 0 },
      escalations: over.escalations ?? 0,
    },
    messageAnalytics: {
      totalMessages: (over.received ?? 0) + (over.sent ?? 0),
      received: over.received ?? 0,
      sent: over.sent ?? 0,
      failed: over.failed ?? 0,
      perDay: [
        { date: '2026-11-25', received: 0, sent: 0 },
        { date: '2026-11-26', received: over.received ?? 0, sent: over.sent ?? 0 },
      ],
    },
  });

  it('shows received, sent, failed, new conversations and escalations, in that order', () => {
    const figures = whatsappFigures(data({ received: 3, sent: 2, failed: 1, newConversations: 1, escalations: 1, active: 1 }));
    expect(figures.cards).toEqual([
      { id: 'received', value: 3 },
      { id: 'sent', value: 2 },
      { id: 'failed', value: 1 },
      { id: 'newConversations', value: 1 },
      { id: 'escalations', value: 1 },
    ]);
    expect([figures.empty, figures.hasDailyMessages]).toEqual([false, true]);
  });

  it('is empty with nothing in the period and no conversation; a board with conversations is not', () => {
    expect(whatsappFigures(data()).empty).toBe(true);
    expect(whatsappFigures(data()).hasDailyMessages).toBe(false);
    expect(whatsappFigures(data({ active: 2 })).empty).toBe(false);
  });
});

describe('formatBookingValue (issue 30: the value of the bookings the agent made)', () => {
  // Intl separates the amount from "€" with a no-break space.
  const plain = (text: string) => text.replace(/\u00a0|\u202f/g, ' ');

  it('writes euros as Spain does, grouped from the thousands', () => {
    expect(plain(formatBookingValue(123_450, 'eur', 'es'))).toBe('1.234,50 €');
    expect(plain(formatBookingValue(4550, 'EUR', 'es'))).toBe('45,50 €');
    expect(plain(formatBookingValue(1_000_000, 'eur', 'es'))).toBe('10.000 €');
    expect(plain(formatBookingValue(0, 'eur', 'es'))).toBe('0 €');
  });

  it('in English, and in dollars', () => {
    expect(formatBookingValue(123_450, 'eur', 'en')).toBe('€1,234.50');
    expect(formatBookingValue(7000, 'usd', 'en')).toBe('$70');
  });

  it('never throws on an unknown currency or a bad amount', () => {
    expect(formatBookingValue(150, 'not-a-currency', 'en')).toBe('1.50 NOT-A-CURRENCY');
    expect(plain(formatBookingValue(Number.NaN, 'eur', 'es'))).toBe('0 €');
  });
});

describe('agentBookingFigures', () => {
  const channels = [
    { channel: 'whatsapp' as const, count: 0, cancelled: 0, valueCents: 0 },
    { channel: 'voice' as const, count: 0, cancelled: 0, valueCents: 0 },
    { channel: 'chat' as const, count: 0, cancelled: 0, valueCents: 0 },
  ];
  it('is empty with nothing made or cancelled, and shows a value only when there is one', () => {
    expect(agentBookingFigures({ count: 0, cancelled: 0, valueCents: 0, currency: 'EUR', byChannel: channels })).toMatchObject({ empty: true, hasValue: false });
    expect(agentBookingFigures({ count: 0, cancelled: 1, valueCents: 0, currency: 'EUR', byChannel: channels })).toMatchObject({ empty: false, hasValue: false });
    expect(agentBookingFigures({ count: 2, cancelled: 0, valueCents: 4550, currency: 'EUR', byChannel: channels })).toMatchObject({ empty: false, hasValue: true });
  });
});
