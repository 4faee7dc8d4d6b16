/** The Knowledge tab's pure rules: relative times in the UI language, percentages for the slider, the channels of a group. */
import type { UnansweredChannel, UnansweredGroup } from '@agentdesk/functions/contract';
import { localeFor } from '../../../../shared/intl';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** 'hace 3 minutos' / '3 minutes ago', 'ayer' / 'yesterday', 'ahora' / 'now' ('' for a missing or bad date). */
export function formatRelative(language: string, iso: string | null | undefined, now: number): string {
  const at = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(at)) return '';
  const seconds = Math.round((at - now) / 1000);
  const format = new Intl.RelativeTimeFormat(localeFor(language), { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** 0..1 → a whole percentage for the slider (0..100), and back. */
export const toPercent = (fraction: number) => Math.round(Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0)) * 100);
export const fromPercent = (percent: number) => Math.round(Math.min(100, Math.max(0, percent))) / 100;

const CHANNEL_ORDER: UnansweredChannel[] = ['chat', 'whatsapp', 'voice'];

/** The channels a group's questions came from, once each, in a fixed order. */
export function groupChannels(group: Pick<UnansweredGroup, 'questions'>): UnansweredChannel[] {
  const seen = new Set(group.questions.map((q) => q.channel));
  return CHANNEL_ORDER.filter((c) => seen.has(c));
}

/** Other wordings of the group's question (case- and space-insensitive distinct, without the representative), at most `max`. */
export function otherWordings(group: Pick<UnansweredGroup, 'question' | 'questions'>, max = 3): string[] {
  const key = (s: string) => s.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  const seen = new Set([key(group.question)]);
  const out: string[] = [];
  for (const q of group.questions) {
    const k = key(q.question);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(q.question.trim());
    if (out.length === max) break;
  }
  return out;
}

/** Where the newest question of the group that has a place was asked: its WhatsApp conversation or its call (null for the test chat). */
export function askedWhere(group: Pick<UnansweredGroup, 'questions'>): { kind: 'conversation' | 'call'; href: string } | null {
  for (const q of group.questions) {
    if (q.callId) return { kind: 'call', href: `/voice-conversations/${encodeURIComponent(q.callId)}` };
    if (q.conversationId) return { kind: 'conversation', href: `/conversations?open=${encodeURIComponent(q.conversationId)}` };
  }
  return null;
}
