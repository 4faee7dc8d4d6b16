/**
 * The board's pure rules (SPEC §2 Conversations, §4, §9): relative times ('Just now' under a
 * minute, then minutes, hours, days ago), truncation (100 characters, 60 for an agent's
 * description), the client-side search over the loaded cards, the 24-hour window, messages
 * grouped by day, and how a changed or deleted conversation moves on the board.
 */
import {
  FREE_MESSAGE_WINDOW_MS,
  type Conversation,
  type ConversationDetailMessage,
  type ConversationOverview,
  type ConversationStatus,
} from '@agentdesk/functions/contract';

export const TRUNCATE_LENGTH = 100;
export const AGENT_DESCRIPTION_LENGTH = 60;
export const ESCALATION_REASON_MAX = 500;
export const REPLY_MAX = 4096;

/** The three board columns, in order (archived conversations are counted but not shown). */
export const BOARD_COLUMNS = ['active', 'requires_human', 'closed'] as const;
export type BoardColumn = (typeof BOARD_COLUMNS)[number];

export function truncate(text: string | null | undefined, max = TRUNCATE_LENGTH): string {
  const value = (text ?? '').trim();
  return value.length > max ? `${value.slice(0, max).trimEnd()}...` : value;
}

export type RelativeTime = { unit: 'now' } | { unit: 'minutes' | 'hours' | 'days'; count: number };

/** SPEC §9 (conversations): under 1 minute 'Just now', then m, h, d ago. A future time counts as now. */
export function relativeTime(iso: string | null | undefined, now: number): RelativeTime | null {
  if (!iso) return null;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return null;
  const seconds = Math.floor((now - at) / 1000);
  if (seconds < 60) return { unit: 'now' };
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return { unit: 'minutes', count: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: 'hours', count: hours };
  return { unit: 'days', count: Math.floor(hours / 24) };
}

/** The text of a message, whichever field carries it. */
export function messageText(message: { body?: string | null; content?: string | null } | null | undefined): string {
  return message?.body || message?.content || '';
}

/**
 * The WhatsApp profile name as a secondary line (issue 17): the card names the contact as the
 * directory does; the customer's own WhatsApp name shows only when it differs ('' otherwise).
 */
export function profileNameLine(conversation: Conversation): string {
  const profile = conversation.profileName?.trim() ?? '';
  const fold = (s: string) => s.normalize('NFC').toLocaleLowerCase().replace(/\s+/g, ' ');
  return profile && fold(profile) !== fold(conversation.contact?.name?.trim() ?? '') ? profile : '';
}

/**
 * A customer known only by a WhatsApp username (issue 17): Meta gave a business-scoped user id and
 * no phone number, so there is no number to show or to open in WhatsApp.
 */
export function usernameOnly(conversation: { contact?: { phoneNumber?: string } | null; customerWaId?: string }): boolean {
  return !conversation.contact?.phoneNumber && !/^\d+$/.test(conversation.customerWaId ?? '');
}

/** When the conversation last moved: its last message, else its creation. */
export function lastActivity(conversation: Conversation): string {
  return conversation.lastMessageAt || conversation.lastMessage?.timestamp || conversation.lastMessage?.createdAt || conversation.createdAt;
}

/** Client-side search over the loaded cards: contact name, WhatsApp profile name, phone and last message (case-insensitive). */
export function matchesSearch(conversation: Conversation, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  const haystack = [conversation.contact?.name, conversation.profileName, conversation.contact?.phoneNumber, conversation.customerWaId, messageText(conversation.lastMessage)];
  if (haystack.some((field) => field?.toLowerCase().includes(needle))) return true;
  // Digits typed with spaces, dashes or brackets still find the number.
  const digits = needle.replace(/\D/g, '');
  return digits.length >= 3 && [conversation.contact?.phoneNumber, conversation.customerWaId].some((p) => p?.replace(/\D/g, '').includes(digits));
}

/** The board's cards after the search, column by column. */
export function filterBoard(overview: ConversationOverview | undefined, search: string): Record<BoardColumn, Conversation[]> {
  const by = overview?.conversationsByStatus;
  return {
    active: (by?.active ?? []).filter((c) => matchesSearch(c, search)),
    requires_human: (by?.requires_human ?? []).filter((c) => matchesSearch(c, search)),
    closed: (by?.closed ?? []).filter((c) => matchesSearch(c, search)),
  };
}

/** Free-form replies are allowed until 24 hours after the customer's last message. */
export function windowOpen(lastInboundAt: string | null | undefined, now: number): boolean {
  if (!lastInboundAt) return false;
  const at = Date.parse(lastInboundAt);
  return !Number.isNaN(at) && now - at < FREE_MESSAGE_WINDOW_MS;
}

/** A local calendar day key (YYYY-MM-DD). */
export function dayKey(at: Date): string {
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
}

export interface MessageGroup {
  day: string;
  /** 'today', 'yesterday' or the first message's date (for the heading). */
  label: 'today' | 'yesterday' | Date;
  messages: ConversationDetailMessage[];
}

/** Messages oldest first, grouped by local day. */
export function groupByDate(messages: readonly ConversationDetailMessage[], now: number): MessageGroup[] {
  const sorted = [...messages].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  const today = dayKey(new Date(now));
  const yesterdayDate = new Date(now);
  yesterdayDate.setDate(yesterdayDate.getDate() - 1);
  const yesterday = dayKey(yesterdayDate);
  const groups: MessageGroup[] = [];
  for (const message of sorted) {
    const at = new Date(message.timestamp);
    const day = Number.isNaN(at.getTime()) ? 'unknown' : dayKey(at);
    let group = groups.at(-1);
    if (!group || group.day !== day) {
      group = { day, label: day === today ? 'today' : day === yesterday ? 'yesterday' : at, messages: [] };
      groups.push(group);
    }
    group.messages.push(message);
  }
  return groups;
}

const columnOf = (status: ConversationStatus): BoardColumn | null =>
  (BOARD_COLUMNS as readonly string[]).includes(status) ? (status as BoardColumn) : null;

/** SPEC §4: after an update the conversation leaves its column and is placed first in its new status's column. */
export function placeOnBoard(overview: ConversationOverview, conversation: Conversation): ConversationOverview {
  const by = removeFromBoard(overview, conversation._id).conversationsByStatus;
  const column = columnOf(conversation.status);
  return {
    ...overview,
    conversationsByStatus: column ? { ...by, [column]: [conversation, ...by[column]] } : by,
  };
}

/** SPEC §4: a deleted conversation is removed from the board. */
export function removeFromBoard(overview: ConversationOverview, id: string): ConversationOverview {
  const by = overview.conversationsByStatus;
  return {
    ...overview,
    conversationsByStatus: {
      active: by.active.filter((c) => c._id !== id),
      requires_human: by.requires_human.filter((c) => c._id !== id),
      closed: by.closed.filter((c) => c._id !== id),
    },
  };
}
