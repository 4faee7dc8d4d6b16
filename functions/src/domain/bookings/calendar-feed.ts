/**
 * The private iCalendar feed of the business and of each staff member (issue 30): a URL with a
 * long random token that Google Calendar, Apple Calendar and Outlook subscribe to.
 *
 * A feed URL is a credential, kept like an API key: only the token's SHA-256 is stored (with its
 * last 4 characters to recognise it), so it is shown whole once — in the answer that creates or
 * rotates it — and masked after. Rotating makes a new token and drops the old one in one write;
 * revoking drops it: both answer 404 at once. A token is looked up by its hash and the stored
 * hash is compared in constant time; a feed only ever reads its own account's bookings.
 *
 * Cancelled bookings are left out rather than sent as STATUS:CANCELLED: a subscription is a whole
 * snapshot on every poll, so an event that is gone disappears in every client, while Google
 * Calendar keeps showing a subscribed event marked cancelled as if it were on.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { bookingMessages, BOOKING_LIMITS, type Booking, type CalendarFeed } from '../../contract/bookings.js';
import { NotFoundError } from '../errors.js';
import type { Bookings } from './ports.js';

export interface StoredCalendarFeed {
  userId: string;
  /** null: the whole business. */
  staffId: string | null;
  /** SHA-256 (hex) of the token. */
  tokenHash: string;
  /** The token's last 4 characters (the masked URL). */
  hint: string;
  createdAt: string;
}

export interface CalendarFeedRepository {
  list(userId: string): Promise<StoredCalendarFeed[]>;
  /** Creates or replaces the feed of (userId, staffId): the previous token stops working in the same write. */
  put(feed: StoredCalendarFeed): Promise<void>;
  /** False when there was none. */
  remove(userId: string, staffId: string | null): Promise<boolean>;
  byHash(tokenHash: string): Promise<StoredCalendarFeed | null>;
}

/** One event of the feed (a booking), times as instants. */
export interface FeedEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  created: Date;
  updated: Date;
}

/** Port: the iCalendar text (adapters/ical). */
export interface FeedRenderer {
  render(feed: { name: string; timeZone: string; events: FeedEvent[] }): string;
}

export interface CalendarFeedDeps {
  feeds: CalendarFeedRepository;
  bookings: Pick<Bookings, 'settings' | 'listStaff' | 'getStaff' | 'list'>;
  renderer: FeedRenderer;
  /** A new token: 32 random bytes, base64url (43 characters). */
  newToken: () => string;
  /** Public origin the feed URLs start with (APP_URL: CloudFront serves /api/*). */
  appUrl: string;
  now?: () => Date;
}

export const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const FEED_PATH = '/api/calendar-feeds/';
/** Days of past bookings a feed keeps (the owner looks back a month). */
const PAST_DAYS = 31;
/** Events a feed holds at most (a bounded answer for a calendar client's poll). */
const MAX_EVENTS = 5000;
const DAY = 86_400_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function createCalendarFeeds(deps: CalendarFeedDeps) {
  const now = deps.now ?? (() => new Date());
  const origin = deps.appUrl.replace(/\/+$/, '');
  const fullUrl = (token: string) => `${origin}${FEED_PATH}${token}`;
  const maskedUrl = (hint: string) => `${origin}${FEED_PATH}••••${hint}`;

  async function staffName(userId: string, staffId: string | null): Promise<string | null> {
    if (staffId === null) return null;
    return (await deps.bookings.getStaff(userId, staffId)).name;
  }

  /** Every booking of the window (paged, in the core's 93-day ranges), cancelled ones left out. */
  async function bookingsOf(userId: string, staffId: string | null, maxAdvanceDays: number): Promise<Booking[]> {
    const start = now().getTime() - PAST_DAYS * DAY;
    const end = now().getTime() + (maxAdvanceDays + 1) * DAY;
    const found: Booking[] = [];
    for (let from = start; from <= end && found.length < MAX_EVENTS; from += BOOKING_LIMITS.listDays * DAY) {
      const to = Math.min(from + (BOOKING_LIMITS.listDays - 1) * DAY, end);
      let cursor: string | undefined;
      do {
        const page = await deps.bookings.list(userId, {
          from: isoDay(from),
          to: isoDay(to),
          ...(staffId ? { staffId } : {}),
          ...(cursor ? { cursor } : {}),
          limit: BOOKING_LIMITS.pageSize,
        });
        found.push(...page.bookings.filter((b) => b.status !== 'cancelled'));
        cursor = page.nextCursor ?? undefined;
      } while (cursor && found.length < MAX_EVENTS);
    }
    // Ranges meet at a day boundary: a booking is listed once, by id.
    return [...new Map(found.map((b) => [b._id, b])).values()].slice(0, MAX_EVENTS);
  }

  const toEvent = (b: Booking, withStaff: boolean): FeedEvent => ({
    uid: `${b._id}@agentdesk`,
    start: new Date(b.start),
    end: new Date(b.end),
    summary: [b.customer.name, b.serviceName, ...(withStaff ? [b.staffName] : [])].join(' · '),
    description: [b.serviceName, b.staffName, b.customer.phone, b.notes].filter(Boolean).join('\n'),
    created: new Date(b.createdAt),
    updated: new Date(b.updatedAt),
  });

  return {
    /** GET /api/bookings/calendar-feed: the business's feed, then each staff member's (masked URLs). */
    async list(userId: string): Promise<CalendarFeed[]> {
      const [stored, staff] = await Promise.all([deps.feeds.list(userId), deps.bookings.listStaff(userId)]);
      const byStaff = new Map(stored.map((f) => [f.staffId, f]));
      const view = (staffId: string | null, name: string | null): CalendarFeed => {
        const feed = byStaff.get(staffId);
        return { url: feed ? maskedUrl(feed.hint) : null, masked: true, staffId, staffName: name, createdAt: feed?.createdAt ?? null };
      };
      return [view(null, null), ...staff.map((s) => view(s._id, s.name))];
    },

    /** POST: a new token for the business (null) or a staff member; the old one (if any) stops at once. The only answer with the whole URL. */
    async create(userId: string, staffId: string | null): Promise<CalendarFeed> {
      const name = await staffName(userId, staffId);
      const token = deps.newToken();
      const createdAt = now().toISOString();
      await deps.feeds.put({ userId, staffId, tokenHash: sha256(token), hint: token.slice(-4), createdAt });
      return { url: fullUrl(token), masked: false, staffId, staffName: name, createdAt };
    },

    /** DELETE: the feed stops answering (idempotent). */
    async revoke(userId: string, staffId: string | null): Promise<void> {
      await deps.feeds.remove(userId, staffId);
    },

    /** GET /api/calendar-feeds/{token}: the iCalendar text; NotFoundError for a malformed, unknown or revoked token. */
    async render(token: string): Promise<string> {
      const notFound = () => new NotFoundError(bookingMessages.feedNotFound);
      if (!FEED_TOKEN.test(token)) throw notFound();
      const hash = sha256(token);
      const feed = await deps.feeds.byHash(hash);
      if (!feed || !timingSafeEqual(Buffer.from(feed.tokenHash, 'hex'), Buffer.from(hash, 'hex'))) throw notFound();
      const settings = await deps.bookings.settings(feed.userId);
      let name: string | null;
      try {
        name = await staffName(feed.userId, feed.staffId);
      } catch (error) {
        // The staff member was deleted: their feed went with them.
        if (error instanceof NotFoundError) throw notFound();
        throw error;
      }
      const bookings = await bookingsOf(feed.userId, feed.staffId, settings.maxAdvanceDays);
      return deps.renderer.render({
        name: name ? `${name} · AgentDesk` : 'AgentDesk',
        timeZone: settings.timeZone,
        events: bookings.map((b) => toEvent(b, feed.staffId === null)),
      });
    },
  };
}

export type CalendarFeeds = ReturnType<typeof createCalendarFeeds>;
