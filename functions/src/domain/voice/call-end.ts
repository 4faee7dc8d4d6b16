/**
 * The end of a call, in one place (issue 7, issue 14 finding 12): the final status callback and
 * the stale-call sweeper both finish a call through `endCall`, so a call is billed once and its
 * summary queued once whoever gets there first. CallRepository.finish is conditional on the call
 * still being 'active' (the first writer wins); only the winner bills and enqueues.
 *
 * Billing: one minute was reserved when the call came in (none for calls refused over the
 * plan's minutes); the difference to the billed minutes is reserved or released here. Going over
 * the plan at the end is logged, never an error (the call happened).
 */
import type { CallStatus } from '../../contract/voice.js';
import type { ActivityCounters } from '../dashboard/ports.js';
import { LimitExceededError, PaymentRequiredError } from '../errors.js';
import { firstTokenLatencies } from './latency.js';
import type { CallRepository, CallSummaryQueue, StoredCall } from './ports.js';

export interface CallUsage {
  reserve(userId: string, action: 'minutes', amount?: number): Promise<number>;
  release(userId: string, action: 'minutes', amount?: number): Promise<void>;
}

export interface CallEndDeps {
  calls: Pick<CallRepository, 'finish'>;
  usage: CallUsage;
  queue: CallSummaryQueue;
  /** The dashboard's counters of a finished call; absent = not counted. Never throws. */
  activity?: Pick<ActivityCounters, 'callFinished'>;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
  onInfo?: (message: string, data?: Record<string, unknown>) => void;
}

export interface CallEnd {
  status: Exclude<CallStatus, 'active' | 'archived'>;
  endReason: NonNullable<StoredCall['endReason']>;
  endedAt: string;
  seconds: number;
  billedMinutes: number;
}

/** Finishes the call if it is still active: stores the end, bills, counts, queues the summary. False when it had already finished. */
export async function endCall(deps: CallEndDeps, userId: string, call: StoredCall, end: CallEnd): Promise<boolean> {
  const onError = deps.onError ?? (() => undefined);
  const onInfo = deps.onInfo ?? (() => undefined);
  const finished = await deps.calls.finish(userId, call.id, {
    status: end.status,
    endedAt: end.endedAt,
    duration: end.seconds * 1000,
    endReason: end.endReason,
    billedMinutes: end.billedMinutes,
  });
  if (!finished) return false;
  const counted = deps.activity?.callFinished(userId, {
    startedAt: finished.createdAt,
    phoneNumber: finished.phoneNumber,
    completed: finished.status === 'completed',
    seconds: end.seconds,
    turns: finished.messages.length,
    // The dashboard's median turn latency: counted once, by the winner, like the durations.
    turnLatencies: firstTokenLatencies(finished.messages),
  });

  // One minute was reserved when the call came in (not for calls refused over the limit).
  const reserved = call.endReason === 'usage_limit' ? 0 : 1;
  const extra = end.billedMinutes - reserved;
  try {
    if (extra > 0) await deps.usage.reserve(userId, 'minutes', extra);
    else if (extra < 0) await deps.usage.release(userId, 'minutes', -extra);
  } catch (error) {
    if (error instanceof LimitExceededError || error instanceof PaymentRequiredError) {
      onInfo('Voice: the call went over the plan’s minutes; recorded, not counted', { userId, callId: call.id, billed: end.billedMinutes, extra });
    } else {
      onError('Voice: counting the call’s minutes failed', error, { userId, callId: call.id });
    }
  }
  await Promise.all([deps.queue.enqueue({ userId, callId: call.id }), counted]);
  return true;
}
