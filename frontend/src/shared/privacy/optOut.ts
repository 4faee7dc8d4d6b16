/** A customer's opt-out as a view carries it (issue 33), without React. */
import type { OptOutState } from '@agentdesk/functions/contract';

/** The opt-out a view (a contact) carries, read defensively: an older server sends none. */
export function optOutOf(view: unknown): OptOutState | null {
  const value = view && typeof view === 'object' ? (view as { optOut?: unknown }).optOut : undefined;
  if (!value || typeof value !== 'object') return null;
  const { at, keyword } = value as Partial<OptOutState>;
  return typeof at === 'string' && typeof keyword === 'string' ? { at, keyword } : null;
}
