/**
 * A delivery status from Meta applied to our sent message (the whatsapp-inbound pipeline,
 * inbound.ts): forward only (the repository's statusCanMove), failed with Meta's error text. A
 * status can overtake the send it reports on (Meta answers the send, then reports, while we are
 * still recording the wamid): an unknown wamid is tried again after short waits.
 *
 * A wamid still unknown then, with our reference (biz_opaque_callback_data: our message's id, sent
 * with every message), is a send whose answer we lost (issue 34: a timeout after the request went
 * out; that message was stored as failed, "not confirmed", and never sent again): Meta did take
 * it, so the message takes this wamid and the status applies.
 */
import type { MessageRepository, StatusUpdateResult } from '../conversations/ports.js';
import type { ParsedStatus } from './parse-delivery.js';

export interface ApplyStatusDeps {
  /** Without adoptSend, a reference is not looked up. */
  messages: Pick<MessageRepository, 'updateStatusByWamid'> & Partial<Pick<MessageRepository, 'adoptSend'>>;
  /** Waits before giving up on a status whose wamid is not indexed yet (the send is still being recorded). */
  statusRetryDelaysMs?: readonly number[];
}

export async function applyStatus(deps: ApplyStatusDeps, userId: string, s: ParsedStatus): Promise<StatusUpdateResult> {
  const delays = deps.statusRetryDelaysMs ?? [200, 800];
  for (let i = 0; ; i++) {
    const result = await deps.messages.updateStatusByWamid(userId, s.wamid, s.status, s.error);
    if (result !== 'unknown') return result;
    if (i >= delays.length) {
      // The reference is looked up under the delivery's own user only: it can name no one else's message.
      if (!s.reference || !(await deps.messages.adoptSend?.(userId, s.reference, s.wamid))) return result;
      return s.status === 'sent' ? 'updated' : deps.messages.updateStatusByWamid(userId, s.wamid, s.status, s.error);
    }
    await new Promise((r) => setTimeout(r, delays[i]));
  }
}
