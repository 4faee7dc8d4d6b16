/**
 * The dashboard's pure rules (SPEC §2 Dashboard, §9): durations as 'Nm Ns' or seconds only,
 * recent activity times ('Just now' under 1 hour, 'Nh ago' under 24 hours, else a date), and the
 * 30-day chart's axes (at most 15 X ticks, the newest day always labelled; Y in whole steps).
 */
import { formatDate, formatNumber } from '../../shared/intl';
import type { DashboardData } from '@agentdesk/functions/contract';

/**
 * Seconds → '1m 5s' from a minute on, else '45s' (rounded; missing, negative or invalid → '0s');
 * in Spanish with the units Spanish writes, '1 min 5 s' / '45 s' (issue 29).
 */
export function formatCallDuration(seconds: number | null | undefined, language = 'en'): string {
  const total = typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0;
  const minutes = formatNumber(language, Math.floor(total / 60));
  if (language.startsWith('es')) return total < 60 ? `${total} s` : `${minutes} min ${total % 60} s`;
  if (total < 60) return `${total}s`;
  return `${minutes}m ${total % 60}s`;
}

export type ActivityTime = { unit: 'now' } | { unit: 'hours'; count: number } | { unit: 'date'; date: Date };

const HOUR_MS = 3_600_000;

/** SPEC §9 (recent activity): under 1 hour 'Just now', under 24 hours 'Nh ago', else a date. A future time counts as now. */
export function activityTime(iso: string | null | undefined, now: number): ActivityTime | null {
  if (!iso) return null;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return null;
  const elapsed = now - at;
  if (elapsed < HOUR_MS) return { unit: 'now' };
  if (elapsed < 24 * HOUR_MS) return { unit: 'hours', count: Math.floor(elapsed / HOUR_MS) };
  return { unit: 'date', date: new Date(at) };
}

export const MAX_X_TICKS = 15;

/** Every how many days the X axis carries a label so that at most `max` show. */
export function tickStep(count: number, max = MAX_X_TICKS): number {
  return count <= max ? 1 : Math.ceil(count / max);
}

/** Whether day `index` of `count` is labelled: counted back from the newest day, every tickStep days. */
export function showTick(index: number, count: number, max = MAX_X_TICKS): boolean {
  return (count - 1 - index) % tickStep(count, max) === 0;
}

/** The Y axis top: the busiest day, at least 1 (an empty month still draws a 0–1 axis in whole steps). */
export function yAxisMax(values: readonly number[]): number {
  return Math.max(1, ...values.filter((v) => Number.isFinite(v)));
}

/** A chart day (yyyy-mm-dd, already in the user's time zone) as a short label, e.g. 'Jan 5' / '5 ene'. */
export function dayLabel(date: string, locale: string): string {
  return formatDate(locale, `${date}T00:00:00Z`, 'dayMonth', 'UTC') ?? date;
}

/** A date for a recent activity older than a day, in the dashboard's time zone (falls back to the browser's). */
export function activityDate(date: Date, locale: string, timeZone: string | undefined): string {
  return formatDate(locale, date, 'date', timeZone) ?? '';
}

/** Average transcript turns per call, to one decimal ('3', '2.5'). */
export function formatAverage(value: number, locale: string): string {
  return formatNumber(locale, value, { maximumFractionDigits: 1 });
}

/** The WhatsApp figures the dashboard shows, in order (labels: dashboard.whatsapp.<id>), and whether there is anything to show. */
export function whatsappFigures(data: Pick<DashboardData, 'whatsappAnalytics' | 'messageAnalytics'>) {
  const { whatsappAnalytics: wa, messageAnalytics: messages } = data;
  const cards = [
    { id: 'received', value: messages.received },
    { id: 'sent', value: messages.sent },
    { id: 'failed', value: messages.failed },
    { id: 'newConversations', value: wa.newConversations },
    { id: 'escalations', value: wa.escalations },
  ] as const;
  const onBoard = Object.values(wa.byStatus).reduce((sum, n) => sum + n, 0);
  return {
    cards,
    hasDailyMessages: messages.perDay.some((d) => d.received + d.sent > 0),
    /** No message in the period and no conversation at all: the empty state. */
    empty: messages.totalMessages === 0 && cards.every((c) => c.value === 0) && onBoard === 0,
  };
}

/**
 * Issue 30: a booking value (cents) as money in the UI language, grouped from the thousands as an
 * amount of money is read ('1.234,50 €' in Spanish, whose numbers otherwise group from 10.000;
 * '€1,234.50'); whole amounts without decimals ('45 €'), like the plans' prices.
 */
export function formatBookingValue(cents: number, currency: string, language: string): string {
  const amount = Number.isFinite(cents) ? Math.round(cents) / 100 : 0;
  const digits = Number.isInteger(amount) ? 0 : 2;
  const code = (currency || 'EUR').toUpperCase();
  try {
    return formatNumber(language, amount, { style: 'currency', currency: code, minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: 'always' });
  } catch {
    return `${formatNumber(language, amount, { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${code}`;
  }
}

/** The agent's bookings card (issue 30): nothing made or cancelled in the period = the empty state; a value only when a booked service has a price. */
export function agentBookingFigures(bookings: DashboardData['agentBookings']) {
  return {
    empty: bookings.count === 0 && bookings.cancelled === 0,
    hasValue: bookings.valueCents > 0,
    channels: bookings.byChannel,
  };
}
