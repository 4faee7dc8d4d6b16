/**
 * The voice relay's ports (issue 16): the WebSocket connection as a place to post frames, the
 * record that maps a connection to its call, and the per-call turn state (which answer is
 * streaming, its cancel flag). Adapters: adapters/aws/relay-connections.ts,
 * adapters/dynamo/voice-relay.ts.
 */
import type { RelayOutboundFrame } from '../../../contract/voice-relay.js';

/** Posts frames to a ConversationRelay connection (API Gateway's connection-posting API). */
export interface RelayConnections {
  /** False when the caller is gone (the connection no longer exists). */
  post(connectionId: string, frame: RelayOutboundFrame): Promise<boolean>;
  /** Closes the connection (already gone is fine). */
  close(connectionId: string): Promise<void>;
}

/** What a connection belongs to, written on an accepted $connect. */
export interface RelayConnectionRecord {
  connectionId: string;
  userId: string;
  callId: string;
  /** The call's agent at $connect, so a prompt reads it beside the call instead of after it (null: none). */
  agentId?: string | null;
  /** The languages the call can be answered in (main first; issue 28), so a prompt's claim can switch before the call is read. */
  languages?: string[];
  /** ISO. */
  connectedAt: string;
}

export interface RelayConnectionStore {
  put(record: RelayConnectionRecord): Promise<void>;
  /** null when unknown or expired. */
  get(connectionId: string): Promise<RelayConnectionRecord | null>;
  delete(connectionId: string): Promise<void>;
}

/** How an interrupt found the call's latest answer. */
export type InterruptOutcome =
  /** Still streaming: its cancel flag is set, the streaming invocation stores what was heard. */
  | { slot: number; streaming: true }
  /** Already fully sent (Twilio was still speaking it): the interrupt corrects the stored turn itself. */
  | { slot: number; streaming: false }
  /** No answer was started on this call yet (the caller spoke over the welcome). */
  | null;

/** How a new answer's start found the call's turn state. */
export interface AnswerStart {
  /** false: a newer answer started first (this one must not speak). */
  started: boolean;
  /** An older answer that was still streaming: it stops, and this one posts nothing before it has (acknowledged). */
  supersedes: number | null;
}

/** Between two posts: go on, the caller interrupted (what they heard), or a newer answer took over. */
export type AnswerCheck = 'go' | { heard: string } | 'superseded';

/**
 * The per-call turn state. `slot` is the transcript index of the agent turn being answered (the
 * placeholder claimed with the caller's words). Exactly one answer streams at a time: a newer
 * answer's start supersedes an older one still streaming (issue 28), which stops at its next check
 * and acknowledges it in finish(); an interrupt is for the latest answer only.
 */
export interface RelayTurnState {
  /** The answer in `slot` starts streaming, unless a newer one did (an older slot's cancel flag no longer applies). */
  start(userId: string, callId: string, slot: number): Promise<AnswerStart>;
  /** One cheap read between posts. */
  check(userId: string, callId: string, slot: number): Promise<AnswerCheck>;
  /** An interrupt frame: sets the cancel flag of the latest answer unless it was fully sent. */
  interrupt(userId: string, callId: string, heard: string): Promise<InterruptOutcome>;
  /**
   * The streaming invocation is done with `slot`, right before its last token: marks it fully sent
   * unless it was interrupted or superseded first (exactly one of them wins), and records that it
   * posts nothing more (but that last token when 'sent'). Returns how the answer ended.
   */
  finish(userId: string, callId: string, slot: number): Promise<'sent' | { heard: string } | 'superseded'>;
  /**
   * Where the answer in `slot` is: `over` = fully sent, interrupted or superseded (the caller heard
   * it end, or spoke since); `stopped` = its invocation posts nothing more (finish() ran).
   */
  status(userId: string, callId: string, slot: number): Promise<TurnStatus>;
}

/**
 * RelayTurnState.status: `overAt` = when the answer became over (epoch ms: fully sent, or
 * interrupted), null when unknown — a repeated frame that arrived before it is the same frame
 * handled late, not the caller saying it again.
 */
export interface TurnStatus {
  over: boolean;
  stopped: boolean;
  overAt: number | null;
}
