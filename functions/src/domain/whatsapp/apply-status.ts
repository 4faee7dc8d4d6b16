/**
 * A delivery status from Meta applied to our sent message (the whatsapp-inbound pipeline,
 * inbound.ts): forward only (the repository's statusCanMove), failed with Meta's error text. A
 * status can overtake the send it reports on (Meta answers the send, then reports, while we are
 * still recording the wamid): an unknown wamid is tried again after short waits.
 */
import type { MessageRepository, StatusUpdateResult } from '../conversations/ports.js';
import type { ParsedStatus } from './parse-delivery.js';

export interface ApplyStatusDeps {
  messages: Pick<MessageRepository, 'updateStatusByWamid'>;
  /** Waits before giving up on a status whose wamid is not indexed yet (the send is still being recorded). */
  statusRetryDelaysMs?: readonly number[];
}

export async function applyStatus(deps: ApplyStatusDeps, userId: string, s: ParsedStatus): Promise<StatusUpdateResult> {
  const delays = deps.statusRetryDelaysMs ?? [200, 800];
  for (let i = 0; ; i++) {
    const result = await deps.messages.updateStatusByWamid(userId, s.wamid, s.status, s.error);
    if (result !== 'unknown' || i >= delays.length) return result;
    await new Promise((r) => setTimeout(r, delays[i]));
  }
}
