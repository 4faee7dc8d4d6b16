/**
 * Who answers a conversation (issue 17, a person takes over): a person's reply or an escalation
 * pauses the AI on it (`aiPaused`, from `humanAt`) until the owner returns it to the AI or
 * InboxSettings.aiResumeAfterHours pass since the person last acted. Decided where it is read
 * (the board, the inbound agent reply), so no sweeper has to end a pause; what the customer wrote
 * during one is answered at its end by a delayed resume check (waiting.ts resumeCheck, issue 29).
 */
import type { ConversationResponder, ConversationStatus } from '../../contract/whatsapp.js';

const HOUR_MS = 3600 * 1000;

/** The stored fields the rules read (StoredConversation's). */
export interface TakeoverFields {
  status: ConversationStatus;
  /** ISO: when a person last replied or escalated; absent on conversations stored before issue 17. */
  humanAt?: string | null;
  /** True while a person answers; absent on conversations stored before issue 17. */
  aiPaused?: boolean;
  escalatedAt: string | null;
}

export interface TakeoverView {
  answeredBy: ConversationResponder;
  humanSince: string | null;
  aiResumesAt: string | null;
}

/** Since when a person answers (ignoring the idle time), null when the AI does. */
export function humanSinceOf(c: TakeoverFields): string | null {
  if (c.aiPaused) return c.humanAt ?? c.escalatedAt ?? null;
  // Escalated before the pause was stored: the escalation is when the person took over.
  if (c.aiPaused === undefined && c.status === 'requires_human') return c.escalatedAt;
  return null;
}

/** When the AI takes the conversation back on its own (humanSince + the idle hours), null when no person answers. */
export function aiResumesAtOf(c: TakeoverFields, aiResumeAfterHours: number): string | null {
  const since = humanSinceOf(c);
  const at = since ? Date.parse(since) : NaN;
  return Number.isFinite(at) ? new Date(at + aiResumeAfterHours * HOUR_MS).toISOString() : null;
}

/** Whether the AI stays quiet on the conversation at `now` (a person answers and the idle time has not passed). */
export function aiPausedAt(c: TakeoverFields, aiResumeAfterHours: number, now: Date | number): boolean {
  const resumes = aiResumesAtOf(c, aiResumeAfterHours);
  return resumes !== null && (typeof now === 'number' ? now : now.getTime()) < Date.parse(resumes);
}

/** The Conversation's answeredBy / humanSince / aiResumesAt at `now`. */
export function takeoverView(c: TakeoverFields, aiResumeAfterHours: number, now: Date | number): TakeoverView {
  if (!aiPausedAt(c, aiResumeAfterHours, now)) return { answeredBy: 'ai', humanSince: null, aiResumesAt: null };
  return { answeredBy: 'human', humanSince: humanSinceOf(c), aiResumesAt: aiResumesAtOf(c, aiResumeAfterHours) };
}
