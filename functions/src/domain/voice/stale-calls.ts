/**
 * The stale-call sweeper (issue 14, finding 12): a call whose final status callback never came
 * (Twilio gave up, our webhook was down) must not stay 'active' forever. Run on a schedule
 * (routes.ts `schedules`), it finds active calls through the active-calls index (a Query, never a
 * Scan: CallRepository.activeStartedBefore) and closes those past their limit + a margin through
 * the same endCall as the status callback: billed once, one summary job, and a real callback
 * arriving later finds the call finished and changes nothing.
 *
 * - Limit: the call's own maxCallDuration (our gather ends the call there); a call forwarded with
 *   <Dial> goes on with a person, up to Twilio's default <Dial timeLimit> of 4 hours.
 * - Billed: what is known — from the start to the last transcript turn (or the recording's
 *   length, if longer), capped at the limit, at least the minute reserved at the start; calls
 *   refused over the plan's minutes bill nothing.
 * - Stored as 'completed' with endReason 'stale' (its real ending is unknown).
 */
import { VOICE_LIMITS } from '../../contract/voice.js';
import { endCall, type CallEndDeps } from './call-end.js';
import type { CallRepository, StoredCall } from './ports.js';

/** How long after its limit a call without a final status is closed (Twilio's callbacks come within seconds). */
export const STALE_MARGIN_SECONDS = 15 * 60;
/** Twilio's default <Dial timeLimit>: the longest a forwarded call goes on. */
export const FORWARDED_CALL_LIMIT_SECONDS = 4 * 60 * 60;
/** Calls closed per run at most (the next run takes the rest). */
export const SWEEP_BATCH = 200;

export interface StaleCallDeps extends CallEndDeps {
  calls: Pick<CallRepository, 'finish' | 'activeStartedBefore'>;
  now?: () => number;
}

export interface SweepResult {
  /** Active calls read from the index. */
  checked: number;
  closed: number;
  /** Calls that failed to close (logged; the next run retries them). */
  failed: number;
}

/** Seconds after its start at which a call counts as stale. */
export function staleAfterSeconds(call: Pick<StoredCall, 'endReason' | 'settings'>): number {
  return limitSeconds(call) + STALE_MARGIN_SECONDS;
}

function limitSeconds(call: Pick<StoredCall, 'endReason' | 'settings'>): number {
  return call.endReason === 'forwarded' ? FORWARDED_CALL_LIMIT_SECONDS : call.settings.maxCallDuration;
}

/** What is known of a call's length, in seconds (see the header). */
export function knownSeconds(call: StoredCall): number {
  const start = Date.parse(call.createdAt);
  const lastTurn = Math.max(start, ...call.messages.map((m) => Date.parse(m.at)).filter(Number.isFinite));
  const seconds = Math.max(Math.ceil((lastTurn - start) / 1000), call.recording?.durationSec ?? 0);
  return Math.min(Math.max(0, seconds), limitSeconds(call));
}

export function createStaleCallSweeper(deps: StaleCallDeps) {
  const now = deps.now ?? Date.now;
  const onError = deps.onError ?? (() => undefined);

  return {
    async sweep(): Promise<SweepResult> {
      const at = now();
      // Only calls older than the shortest possible limit can be stale; each is then checked against its own.
      const shortest = VOICE_LIMITS.maxCallDuration[0] + STALE_MARGIN_SECONDS;
      const candidates = await deps.calls.activeStartedBefore(new Date(at - shortest * 1000).toISOString(), SWEEP_BATCH);
      const result: SweepResult = { checked: candidates.length, closed: 0, failed: 0 };
      for (const call of candidates) {
        if (call.status !== 'active' || Date.parse(call.createdAt) + staleAfterSeconds(call) * 1000 > at) continue;
        const seconds = knownSeconds(call);
        const refused = call.endReason === 'usage_limit';
        try {
          const closed = await endCall(deps, call.userId, call, {
            status: 'completed',
            endReason: 'stale',
            endedAt: new Date(at).toISOString(),
            seconds,
            billedMinutes: refused ? 0 : Math.max(1, Math.ceil(seconds / 60)),
          });
          if (closed) result.closed += 1;
        } catch (error) {
          result.failed += 1;
          onError('Voice: closing a stale call failed; the next run retries', error, { userId: call.userId, callId: call.id });
        }
      }
      return result;
    },
  };
}

export type StaleCallSweeper = ReturnType<typeof createStaleCallSweeper>;
