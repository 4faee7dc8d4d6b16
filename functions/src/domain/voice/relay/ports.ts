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

/**
 * The per-call turn state. `slot` is the transcript index of the agent turn being answered (the
 * placeholder claimed with the caller's words); an interrupt is for the latest slot only.
 */
export interface RelayTurnState {
  /** The answer in `slot` starts streaming (an older slot's cancel flag no longer applies). */
  start(userId: string, callId: string, slot: number): Promise<void>;
  /** One cheap read between posts: the heard text when `slot` was interrupted, else null. */
  cancelled(userId: string, callId: string, slot: number): Promise<{ heard: string } | null>;
  /** An interrupt frame: sets the cancel flag of the latest answer unless it was fully sent. */
  interrupt(userId: string, callId: string, heard: string): Promise<InterruptOutcome>;
  /**
   * The streaming invocation is done with `slot`: marks it fully sent unless it was interrupted
   * first (exactly one of the two wins); returns the heard text when it was interrupted.
   */
  finish(userId: string, callId: string, slot: number): Promise<{ heard: string } | null>;
}
