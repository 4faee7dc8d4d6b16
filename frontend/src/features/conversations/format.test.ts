import { describe, expect, it } from 'vitest';
import type { Conversation, ConversationMessage, ConversationOverview } from '@agentdesk/functions/contract';
import { filterBoard, groupByDate, matchesSearch, placeOnBoard, profileNameLine, relativeTime, removeFromBoard, truncate, windowOpen } from './format';

const NOW = Date.parse('2025-03-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;

function conversation(overrides: Partial<Conversation> & { _id: string }): Conversation {
  return {
    status: 'active',
    notes: '',
    escalationReason: '',
    contact: { _id: '', name: '', phoneNumber: '' },
    customerWaId: '',
    profileName: '',
    answeredBy: 'ai',
    humanSince: null,
    aiResumesAt: null,
    assignee: null,
    unreadCount: 0,
    lastMessage: null,
    lastAgent: null,
    createdAt: ago(HOUR),
    lastMessageAt: ago(HOUR),
    lastInboundAt: null,
    closedAt: null,
    escalatedAt: null,
    messageCount: 0,
    ...overrides,
  };
}

function message(id: string, timestamp: string): ConversationMessage {
  return { _id: id, fromMe: false, type: 'chat', body: id, content: id, timestamp, status: 'read', hasMedia: false };
}

const board = (active: Conversation[], requiresHuman: Conversation[], closed: Conversation[]): ConversationOverview => ({
  conversationsByStatus: { active, requires_human: requiresHuman, closed },
  stats: { total: 0, active: 0, requiresHuman: 0, closed: 0, archived: 0 },
});

describe('conversation relative time (SPEC §9)', () => {
  it("is 'Just now' under a minute, then minutes, hours and days", () => {
    expect(relativeTime(ago(59_999), NOW)).toEqual({ unit: 'now' });
    expect(relativeTime(ago(MIN), NOW)).toEqual({ unit: 'minutes', count: 1 });
    expect(relativeTime(ago(59 * MIN + 59_000), NOW)).toEqual({ unit: 'minutes', count: 59 });
    expect(relativeTime(ago(HOUR), NOW)).toEqual({ unit: 'hours', count: 1 });
    expect(relativeTime(ago(23 * HOUR + 59 * MIN), NOW)).toEqual({ unit: 'hours', count: 23 });
    expect(relativeTime(ago(24 * HOUR), NOW)).toEqual({ unit: 'days', count: 1 });
    expect(relativeTime(ago(9 * 24 * HOUR), NOW)).toEqual({ unit: 'days', count: 9 });
  });

  it('treats a clock a little ahead as now, and an unknown time as nothing', () => {
    expect(relativeTime(new Date(NOW + 5000).toISOString(), NOW)).toEqual({ unit: 'now' });
    expect(relativeTime(null, NOW)).toBeNull();
    expect(relativeTime('not a date', NOW)).toBeNull();
  });
});

describe('truncation (SPEC §9: 100, agent description 60)', () => {
  it('keeps text up to the limit and cuts longer text with an ellipsis', () => {
    expect(truncate('a'.repeat(100))).toBe('a'.repeat(100));
    expect(truncate('a'.repeat(101))).toBe(`${'a'.repeat(100)}...`);
    expect(truncate('b'.repeat(61), 60)).toBe(`${'b'.repeat(60)}...`);
    expect(truncate(undefined)).toBe('');
  });
});

describe('board search', () => {
  const ana = conversation({
    _id: '1',
    contact: { _id: 'c1', name: 'Ana Ruiz', phoneNumber: '+34 612 345 678' },
    lastMessage: { type: 'text', fromMe: false, content: '', body: 'Do you open on Sunday?', timestamp: ago(MIN), createdAt: ago(MIN) },
  });

  it('matches the contact name, the phone (with or without formatting) and the last message', () => {
    expect(matchesSearch(ana, 'ana')).toBe(true);
    expect(matchesSearch(ana, '612345')).toBe(true);
    expect(matchesSearch(ana, '612 345')).toBe(true);
    expect(matchesSearch(ana, 'SUNDAY')).toBe(true);
    expect(matchesSearch(ana, 'monday')).toBe(false);
    expect(matchesSearch(ana, '  ')).toBe(true);
  });

  it('filters every column', () => {
    const bob = conversation({ _id: '2', status: 'closed', contact: { _id: '', name: 'Bob', phoneNumber: '+15550001111' } });
    expect(filterBoard(board([ana], [], [bob]), 'bob')).toEqual({ active: [], requires_human: [], closed: [bob] });
    expect(filterBoard(undefined, '')).toEqual({ active: [], requires_human: [], closed: [] });
  });
});

describe('the 24-hour window', () => {
  it('is open until 24 hours after the customer last wrote', () => {
    expect(windowOpen(ago(23 * HOUR), NOW)).toBe(true);
    expect(windowOpen(ago(24 * HOUR), NOW)).toBe(false);
    expect(windowOpen(null, NOW)).toBe(false);
  });
});

describe('messages grouped by date', () => {
  it('sorts oldest first and starts a group per local day, naming today and yesterday', () => {
    const today = new Date(NOW);
    const at = (daysBack: number, hour: number) => new Date(today.getFullYear(), today.getMonth(), today.getDate() - daysBack, hour).toISOString();
    const groups = groupByDate([message('t2', at(0, 11)), message('y1', at(1, 9)), message('old', at(5, 8)), message('t1', at(0, 1))], NOW);
    expect(groups.map((g) => g.messages.map((m) => m._id))).toEqual([['old'], ['y1'], ['t1', 't2']]);
    expect(groups[1]?.label).toBe('yesterday');
    expect(groups[2]?.label).toBe('today');
    expect(groups[0]?.label).toBeInstanceOf(Date);
  });
});

describe('moving cards (SPEC §4)', () => {
  const a = conversation({ _id: 'a' });
  const b = conversation({ _id: 'b' });
  const c = conversation({ _id: 'c', status: 'requires_human' });

  it('places an updated conversation first in the column of its new status', () => {
    const moved = placeOnBoard(board([a, b], [c], []), { ...b, status: 'requires_human' });
    expect(moved.conversationsByStatus.active.map((x) => x._id)).toEqual(['a']);
    expect(moved.conversationsByStatus.requires_human.map((x) => x._id)).toEqual(['b', 'c']);
  });

  it('puts an updated conversation first in its column even when its status did not change', () => {
    const moved = placeOnBoard(board([a, b], [], []), { ...b, notes: 'vip' });
    expect(moved.conversationsByStatus.active.map((x) => [x._id, x.notes])).toEqual([
      ['b', 'vip'],
      ['a', ''],
    ]);
  });

  it('takes an archived conversation off the board and removes a deleted one', () => {
    expect(placeOnBoard(board([a], [], []), { ...a, status: 'archived' }).conversationsByStatus.active).toEqual([]);
    expect(removeFromBoard(board([a], [c], []), 'c').conversationsByStatus).toEqual({ active: [a], requires_human: [], closed: [] });
  });
});

describe('profileNameLine (issue 17: the directory name first, the WhatsApp name as a secondary line)', () => {
  const named = (name: string, profileName: string) => conversation({ _id: 'c1', contact: { _id: 'k1', name, phoneNumber: '+34612345678' }, profileName });

  it('shows the WhatsApp profile name when it differs from the directory name', () => {
    expect(profileNameLine(named('Josefina Núñez', 'Pepe 🍕'))).toBe('Pepe 🍕');
  });

  it('hides it when it is the directory name (case and spaces aside) or empty', () => {
    expect(profileNameLine(named('José Martínez', 'josé  martínez'))).toBe('');
    expect(profileNameLine(named('José Martínez', ''))).toBe('');
  });

  it('lets the board search find a card by the WhatsApp name too', () => {
    expect(matchesSearch(named('Josefina Núñez', 'Pepe 🍕'), 'pepe')).toBe(true);
  });
});
