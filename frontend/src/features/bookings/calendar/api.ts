/**
 * The calendar's calls (issue 30): GET /api/bookings (a range of local dates, every page), one
 * booking, create, a move / status / notes (PATCH), cancel. The range query's key starts with
 * calendarKeys.all, so every change refreshes whatever range is on screen.
 */
import type { Booking, BookingCreateInput, BookingList, BookingStatus, BookingUpdateInput } from '@agentdesk/functions/contract';
import { BOOKING_LIMITS } from '@agentdesk/functions/contract';
import { request, requestData } from '../../../api/client';

const BASE = '/api/bookings';

export interface RangeFilter {
  /** Local dates in the business's zone, inclusive. */
  from: string;
  to: string;
  staffId?: string;
  status?: BookingStatus;
}

export const calendarKeys = {
  all: ['bookings', 'list'] as const,
  range: (filter: RangeFilter) => ['bookings', 'list', 'range', filter] as const,
  page: (filter: RangeFilter) => ['bookings', 'list', 'pages', filter] as const,
  one: (id: string) => ['bookings', 'list', 'one', id] as const,
};

export function listQuery(filter: RangeFilter, cursor?: string | null, limit: number = BOOKING_LIMITS.pageSize): string {
  const q = new URLSearchParams({ from: filter.from, to: filter.to, limit: String(limit) });
  if (filter.staffId) q.set('staffId', filter.staffId);
  if (filter.status) q.set('status', filter.status);
  if (cursor) q.set('cursor', cursor);
  return q.toString();
}

/** A calendar range never needs more than this many pages (a busy month of 10 staff fits in far fewer). */
const MAX_PAGES = 50;

export const calendarApi = {
  page: (filter: RangeFilter, cursor: string | null, signal?: AbortSignal) => requestData<BookingList>(`${BASE}?${listQuery(filter, cursor)}`, { signal }),
  /** Every booking of the range (the calendar shows them all at once). */
  range: async (filter: RangeFilter, signal?: AbortSignal): Promise<Booking[]> => {
    const all: Booking[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < MAX_PAGES; i++) {
      const page: BookingList = await calendarApi.page(filter, cursor, signal);
      all.push(...page.bookings);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    return all;
  },
  get: (id: string, signal?: AbortSignal) => requestData<Booking>(`${BASE}/${encodeURIComponent(id)}`, { signal }),
  create: (input: BookingCreateInput) => request<Booking>(BASE, { method: 'POST', body: input }),
  update: (id: string, input: BookingUpdateInput) => request<Booking>(`${BASE}/${encodeURIComponent(id)}`, { method: 'PATCH', body: input }),
  cancel: (id: string) => request<Booking>(`${BASE}/${encodeURIComponent(id)}/cancel`, { method: 'POST' }),
};
