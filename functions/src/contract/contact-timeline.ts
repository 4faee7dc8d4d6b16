/**
 * A contact's calls and WhatsApp conversations (issue 17: the contact page's "Conversations &
 * Calls" card): GET /api/contacts/{id}/timeline?limit=n, newest first. `limit` grows with the
 * card's "Show more" (capped): `hasMore` says whether older items exist beyond it.
 * Browser-safe: no Node imports.
 */
import * as z from 'zod/mini';
import './zod-locale.js';

export const CONTACT_TIMELINE_DEFAULT_LIMIT = 10;
export const CONTACT_TIMELINE_MAX_LIMIT = 100;

export const contactTimelineMessages = {
  limitInvalid: `Limit must be a whole number from 1 to ${CONTACT_TIMELINE_MAX_LIMIT}`,
} as const;

export type ContactTimelineKind = 'call' | 'conversation';

export interface ContactTimelineItem {
  kind: ContactTimelineKind;
  /** The call's id (→ /voice-conversations/{id}) or the conversation's (→ /conversations?open={id}). */
  id: string;
  /** ISO: when the call started, or the conversation's latest message. */
  at: string;
  /** The call's quick summary, or the conversation's last message ('' when none). */
  summary: string;
  /** The call's status (active, completed, …) or the conversation's (active, closed, requires_human, archived). */
  status: string;
  /** Calls: seconds; conversations: messages. */
  duration?: number;
  messageCount?: number;
}

export interface ContactTimeline {
  items: ContactTimelineItem[];
  hasMore: boolean;
}

/** GET /api/contacts/{id}/timeline query string. */
export const contactTimelineQuery = z.object({
  limit: z.pipe(
    z._default(
      z.string().check(
        z.trim(),
        z.refine((v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= CONTACT_TIMELINE_MAX_LIMIT, contactTimelineMessages.limitInvalid),
      ),
      String(CONTACT_TIMELINE_DEFAULT_LIMIT),
    ),
    z.transform((v) => Number(v)),
  ),
});
export type ContactTimelineQuery = z.output<typeof contactTimelineQuery>;
