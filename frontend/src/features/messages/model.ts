/**
 * The Message Hub's rules without React (SPEC §4 statuses, types and time filters, §9 relative
 * time, page size 20, default lastWeek, percentages to 1 decimal): the filters and their query,
 * the shown status, the type's icon kind, the relative time and the breakdown percentages.
 */
import {
  MESSAGE_STATUSES,
  MESSAGES_PAGE_SIZE,
  TIME_FILTERS,
  type Message,
  type MessageStats,
  type MessageStatus,
  type TimeFilter,
} from '@agentdesk/functions/contract';
import { formatNumber } from '../../shared/intl';

export { MESSAGES_PAGE_SIZE, TIME_FILTERS };
export const SEARCH_DEBOUNCE_MS = 500;
export const DEFAULT_TIME_FILTER: TimeFilter = 'lastWeek';

/** SPEC §4: the delivery filter's options, in order; 'read' is shown but disabled. */
export const STATUS_FILTER_OPTIONS = ['sent', 'read', 'failed', 'pending'] as const;
export const DISABLED_STATUS_OPTIONS: ReadonlySet<string> = new Set(['read']);

export const DIRECTION_OPTIONS = ['outgoing', 'incoming'] as const;
export type Direction = '' | (typeof DIRECTION_OPTIONS)[number];

export interface MessageFilters {
  search: string;
  status: '' | (typeof STATUS_FILTER_OPTIONS)[number];
  direction: Direction;
  timeFilter: TimeFilter;
  page: number;
}

export const DEFAULT_MESSAGE_FILTERS: MessageFilters = { search: '', status: '', direction: '', timeFilter: DEFAULT_TIME_FILTER, page: 1 };

/** Changing a filter (search included) starts again at page 1. */
export function withFilter(filters: MessageFilters, change: Partial<Omit<MessageFilters, 'page'>>): MessageFilters {
  return { ...filters, ...change, page: 1 };
}

/** A search, status or direction filter, or a time other than the default, is active. */
export function hasActiveFilter(filters: MessageFilters): boolean {
  return filters.search !== '' || filters.status !== '' || filters.direction !== '' || filters.timeFilter !== DEFAULT_TIME_FILTER;
}

/** The query of GET /api/messages (page, limit=20, search, status, fromMe, timeFilter). */
export function listQuery(filters: MessageFilters): string {
  const params = new URLSearchParams({ page: String(filters.page), limit: String(MESSAGES_PAGE_SIZE) });
  const search = filters.search.trim();
  if (search) params.set('search', search);
  if (filters.status) params.set('status', filters.status);
  if (filters.direction) params.set('fromMe', filters.direction === 'outgoing' ? 'true' : 'false');
  // Always sent: the server's default is lastWeek, so 'all' must be explicit.
  params.set('timeFilter', filters.timeFilter);
  return params.toString();
}

/** SPEC §4: an unknown status is shown as pending. */
export function shownStatus(status: string | undefined): MessageStatus {
  return (MESSAGE_STATUSES as readonly string[]).includes(status ?? '') ? (status as MessageStatus) : 'pending';
}

export type TypeIconKind = 'chat' | 'image' | 'video' | 'audio' | 'document' | 'sticker' | 'location' | 'contacts' | 'interactive' | 'media';

/** SPEC §4: ptt is shown like audio; any other media type gets the generic media icon. */
export function typeIconKind(type: string | undefined): TypeIconKind {
  switch (type) {
    case 'chat':
    case 'text':
    case undefined:
    case '':
      return 'chat';
    case 'ptt':
    case 'audio':
      return 'audio';
    case 'image':
    case 'video':
    case 'document':
    case 'sticker':
    case 'location':
    case 'contacts':
    case 'interactive':
      return type;
    default:
      return 'media';
  }
}

/**
 * A message shown with more than its text (issue 31): media (a player, a photo, a document…), a
 * location, contact cards, the options offered or the option tapped.
 */
export function hasRichContent(message: Pick<Message, 'hasMedia' | 'media' | 'location' | 'contactCards' | 'interactive' | 'interactiveReply'>): boolean {
  return Boolean(message.hasMedia || message.media || message.location || message.contactCards?.length || message.interactive || message.interactiveReply);
}

/** Only a failed outgoing message can be retried. */
export function canRetry(message: { fromMe: boolean; status: string }): boolean {
  return message.fromMe && message.status === 'failed';
}

export type RelativeTime = { kind: 'now' } | { kind: 'minutes'; value: number } | { kind: 'hours'; value: number } | { kind: 'date'; value: Date };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * SPEC §9 (messages): under 1 minute 'Just now' (as the conversations board; never '0m ago'),
 * under 1 hour 'Nm ago', under 24 hours 'Nh ago', else the local date and time.
 */
export function relativeTime(iso: string, now: number): RelativeTime | null {
  const at = new Date(iso);
  const time = at.getTime();
  if (!Number.isFinite(time)) return null;
  const elapsed = Math.max(0, now - time);
  if (elapsed < MINUTE) return { kind: 'now' };
  if (elapsed < HOUR) return { kind: 'minutes', value: Math.floor(elapsed / MINUTE) };
  if (elapsed < 24 * HOUR) return { kind: 'hours', value: Math.floor(elapsed / HOUR) };
  return { kind: 'date', value: at };
}

/** A share of the total as a percentage with 1 decimal in the UI language: '91.7%' / '91,7 %' ('0.0%' when there is nothing). */
export function percent(count: number, total: number, language = 'en'): string {
  const share = total > 0 && Number.isFinite(count) ? count / total : 0;
  return formatNumber(language, share, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

export const STATUS_CARDS = ['pending', 'sent', 'read', 'failed'] as const;
export const TYPE_CARDS = ['chat', 'image', 'video', 'audio', 'document', 'sticker'] as const;

/**
 * The delivery status cards (SPEC §2: pending, sent, read, failed; delivered is not a separate
 * card): a delivered message was sent, so it counts under sent.
 */
export function statusCounts(stats: Pick<MessageStats, 'statusBreakdown'>): Record<(typeof STATUS_CARDS)[number], number> {
  const b = stats.statusBreakdown;
  return { pending: b.pending ?? 0, sent: (b.sent ?? 0) + (b.delivered ?? 0), read: b.read ?? 0, failed: b.failed ?? 0 };
}
