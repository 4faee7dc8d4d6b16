/** In-memory ports of the voice relay session (issue 16), with the same conditional semantics as the Dynamo adapters. */
import { CHATGPT_DEFAULTS } from '../../../src/contract/integrations.js';
import { VOICE_DEFAULTS, type CallTurn } from '../../../src/contract/voice.js';
import type { RelayOutboundFrame } from '../../../src/contract/voice-relay.js';
import { newAgentRecord, type AgentWithChildren, type ToolRecord } from '../../../src/domain/agents/ports.js';
import type { ChatModel, ChatStreamOptions, Completion, CompletionRequest } from '../../../src/domain/ai/ports.js';
import { latencyStats } from '../../../src/domain/voice/latency.js';
import type { CallRepository, CallSettingsSnapshot, RelayClaim, RelayTurnClaim, StoredCall } from '../../../src/domain/voice/ports.js';
import type { AnswerCheck, AnswerStart, InterruptOutcome, RelayConnectionRecord, RelayConnectionStore, RelayConnections, RelayTurnState } from '../../../src/domain/voice/relay/ports.js';
import { createRelaySession, type RelaySessionDeps } from '../../../src/domain/voice/relay/session.js';
import { newId } from '../../../src/lib/ids.js';
import { MemoryCalls } from '../voice-call-loop/fakes.js';

export const USER = '0f6a3c1e-2b4d-4e5f-8a9b-1c2d3e4f5a6b';
export const RELAY_URL = 'wss://relay.example/voice';
export const TOKEN = 'auth-token-1';

// The call loop's fake stubs the relay methods; this one implements them.
const CallsBase = MemoryCalls as unknown as new () => Omit<MemoryCalls, 'bindRelaySetup' | 'claimRelayTurn' | 'setRelayAnswer' | 'setRelayHeard'>;

export class MemoryRelayCalls extends CallsBase implements CallRepository {
  private prompt: { key: string; at: number; slot: number } | null = null;
  private setup: { connectionId: string; at: number } | null = null;
  private language: string | null = null;
  /** When set, a claim waits for it (a slow conditional append). */
  claimGate: Promise<void> | null = null;
  async bindRelaySetup(_u: string, id: string, setup: { callSid: string; connectionId: string; at: number }) {
    const c = this.byId.get(id);
    if (!c || c.callSid !== setup.callSid || c.status !== 'active' || c.endedByUs) return false;
    this.setup = { connectionId: setup.connectionId, at: setup.at };
    return true;
  }
  async claimRelayTurn(_u: string, id: string, input: RelayTurnClaim): Promise<RelayClaim> {
    if (this.claimGate) await this.claimGate;
    const c = this.byId.get(id);
    // Like the adapter's condition, in the order it reports the refusals.
    if (!c) return { refused: 'missing' };
    if (c.status !== 'active' || c.endedByUs) return { refused: 'ended' };
    if (!this.setup || this.setup.connectionId !== input.connectionId || this.setup.at > input.now) return { refused: 'no-setup' };
    if (this.prompt && this.prompt.at > input.now) return { refused: 'stale' };
    const p = this.prompt;
    if (p && p.key === input.dedupKey && (input.repeatOf !== undefined ? p.at !== input.repeatOf : p.at > input.now - input.windowMs)) {
      return { repeated: { slot: p.slot, at: p.at } };
    }
    const previousLanguage = this.language;
    if (input.language) this.language = input.language;
    c.relayLanguage = this.language ?? undefined;
    const before = structuredClone(c.messages);
    c.messages.push(...structuredClone(input.turns));
    this.prompt = { key: input.dedupKey, at: input.now, slot: c.messages.length - 1 };
    return { slot: c.messages.length - 1, previousLanguage, before };
  }
  async setRelayAnswer(_u: string, id: string, slot: number, turn: CallTurn) {
    const c = this.byId.get(id)!;
    const current = c.messages[slot]!;
    if (current.interrupted) {
      if (turn.latency) current.latency = turn.latency;
    } else c.messages[slot] = structuredClone(turn);
    c.latency = latencyStats(c.messages);
  }
  async setRelayHeard(_u: string, id: string, slot: number, heard: string) {
    Object.assign(this.byId.get(id)!.messages[slot]!, { content: heard, interrupted: true });
  }
}

export class MemoryConnections implements RelayConnectionStore {
  readonly records = new Map<string, RelayConnectionRecord>();
  async put(r: RelayConnectionRecord) {
    this.records.set(r.connectionId, r);
  }
  async get(id: string) {
    return this.records.get(id) ?? null;
  }
  async delete(id: string) {
    this.records.delete(id);
  }
}

/** What the session posted, per connection, with the time of each post. */
export class RecordingPosts implements RelayConnections {
  readonly frames: Array<RelayOutboundFrame & { at: number }> = [];
  readonly closed: string[] = [];
  /** Each post takes this long (a round trip to API Gateway). */
  delayMs = 0;
  gone = false;
  onPost?: (frame: RelayOutboundFrame) => void | Promise<void>;
  async post(_id: string, frame: RelayOutboundFrame) {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.gone) return false;
    this.frames.push({ ...frame, at: Date.now() });
    await this.onPost?.(frame);
    return true;
  }
  async close(id: string) {
    this.closed.push(id);
  }
  get texts() {
    return this.frames.flatMap((f) => (f.type === 'text' ? [f] : []));
  }
  get spoken() {
    return this.texts.map((f) => f.token).join('');
  }
}

export class MemoryTurnState implements RelayTurnState {
  readonly state = new Map<string, { slot: number; sent: boolean; cancelSlot?: number; heard?: string; cancelAt?: number; doneSlot?: number; doneAt?: number }>();
  reads = 0;
  async start(_u: string, callId: string, slot: number): Promise<AnswerStart> {
    const s = this.state.get(callId);
    if (s && s.slot >= slot) return { started: false, supersedes: null };
    const streaming = s !== undefined && !s.sent && !(s.doneSlot !== undefined && s.doneSlot >= s.slot);
    this.state.set(callId, { slot, sent: false, ...(s?.doneSlot !== undefined ? { doneSlot: s.doneSlot, doneAt: s.doneAt } : {}) });
    return { started: true, supersedes: streaming ? s.slot : null };
  }
  async check(_u: string, callId: string, slot: number): Promise<AnswerCheck> {
    this.reads++;
    const s = this.state.get(callId);
    if (s?.cancelSlot === slot) return { heard: s.heard ?? '' };
    return s && s.slot > slot ? 'superseded' : 'go';
  }
  async interrupt(_u: string, callId: string, heard: string): Promise<InterruptOutcome> {
    const s = this.state.get(callId);
    if (!s) return null;
    if (s.sent) return { slot: s.slot, streaming: false };
    Object.assign(s, { cancelSlot: s.slot, heard, cancelAt: Date.now() });
    return { slot: s.slot, streaming: true };
  }
  async finish(_u: string, callId: string, slot: number) {
    const s = this.state.get(callId);
    if (s?.slot === slot && s.cancelSlot !== slot) {
      s.sent = true;
      s.doneSlot = slot;
      s.doneAt = Date.now();
      return 'sent' as const;
    }
    if (s && (s.doneSlot === undefined || s.doneSlot < slot)) Object.assign(s, { doneSlot: slot, doneAt: Date.now() });
    return s?.cancelSlot === slot ? { heard: s.heard ?? '' } : ('superseded' as const);
  }
  async status(_u: string, callId: string, slot: number) {
    const s = this.state.get(callId);
    if (!s) return { over: false, stopped: true, overAt: null };
    const stopped = s.doneSlot !== undefined && s.doneSlot >= slot;
    const over = stopped || s.cancelSlot === slot || s.slot > slot || (s.slot === slot && s.sent);
    const at = s.cancelSlot === slot ? s.cancelAt : s.doneSlot === slot ? s.doneAt : undefined;
    return { over, stopped, overAt: over && at !== undefined ? at : null };
  }
}

/** A step of a scripted streamed completion: text, a pause, a wait for the test, tool calls, or a failure. */
export type StreamStep = string | { wait: number } | { gate: Promise<void> } | { tools: Completion['toolCalls'] } | { fail: Error };

/** A ChatModel whose stream() plays one script per model call, checking the abort signal like the fetch adapter. */
export function scriptedModel(rounds: StreamStep[][]) {
  const requests: CompletionRequest[] = [];
  let round = 0;
  const model: ChatModel = {
    complete: async () => {
      throw new Error('the relay streams');
    },
    async stream(request: CompletionRequest, options: ChatStreamOptions) {
      requests.push(structuredClone(request));
      const steps = rounds[Math.min(round++, rounds.length - 1)]!;
      let content = '';
      let toolCalls: Completion['toolCalls'] = [];
      for (const step of steps) {
        if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
        if (typeof step === 'string') {
          content += step;
          await options.onText(step);
        } else if ('wait' in step) await new Promise((r) => setTimeout(r, step.wait));
        else if ('gate' in step) await step.gate;
        else if ('tools' in step) toolCalls = step.tools;
        else throw step.fail;
      }
      if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
      return { content, toolCalls, finishReason: toolCalls.length ? 'tool_calls' : 'stop' };
    },
  };
  return { model, requests };
}

export function gate() {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

export interface RelaySetup {
  model?: ChatModel;
  settings?: Partial<CallSettingsSnapshot>;
  agentTools?: ToolRecord[];
  agent?: boolean;
  ai?: boolean;
  tool?: () => Promise<{ ok: boolean; result: string }>;
  createdAt?: string;
  turnMs?: number;
  /** The agent has a knowledge entry (so a turn without a supporting passage is unanswered). */
  knowledge?: boolean;
  recordUnanswered?: RelaySessionDeps['recordUnanswered'];
  limits?: RelaySessionDeps['limits'];
}

export function relaySetup(options: RelaySetup = {}) {
  const calls = new MemoryRelayCalls();
  const connections = new MemoryConnections();
  const posts = new RecordingPosts();
  const turns = new MemoryTurnState();
  const infos: string[] = [];
  const errors: string[] = [];
  const agent: AgentWithChildren = {
    ...newAgentRecord(newId(), 'Receptionist', '2026-01-01T00:00:00.000Z'),
    entries: [],
    files: [],
    urls: [],
    tools: options.agentTools ?? [],
  };
  if (options.knowledge) agent.entries.push({ _id: 'e1', agentId: agent._id, question: '¿Hay parking?', answer: 'Sí.', createdAt: '', updatedAt: '' });
  const callId = newId();
  const call: StoredCall = {
    id: callId,
    userId: USER,
    callSid: 'CA0123456789abcdef0123456789abcdef',
    status: 'active',
    phoneNumber: '+34600000001',
    internalNumber: '+34910000000',
    contact: null,
    duration: 0,
    createdAt: options.createdAt ?? new Date().toISOString(),
    endedAt: null,
    voiceSettings: { name: 'Receptionist', description: '', language: 'es-ES' },
    messages: [{ role: 'agent', content: VOICE_DEFAULTS.messageWelcome, at: new Date().toISOString(), confidence: null }],
    summary: null,
    summaryStatus: 'pending',
    deliveries: [],
    agent: { _id: agent._id, name: agent.name },
    escalated: false,
    settings: { ...VOICE_DEFAULTS, ...options.settings },
    silences: 0,
    endedByUs: false,
    recording: null,
    billedMinutes: 0,
    conversationMode: 'streaming',
    latency: null,
  };
  calls.byId.set(callId, structuredClone(call));
  const toolCalls: string[] = [];
  const deps: RelaySessionDeps = {
    calls,
    connections,
    posts,
    turns,
    handshake: { verify: async (userId, url, signature) => userId === USER && signature === `signed:${url}` },
    agents: { get: async () => (options.agent === false ? null : agent), list: async () => [agent] },
    ai: {
      forUser: async () =>
        options.ai === false ? null : { settings: { ...CHATGPT_DEFAULTS, baseUrl: '' }, chat: options.model ?? scriptedModel([['Hola.']]).model, embedder: { embed: async () => [] } },
    },
    retriever: { search: async () => [] } as unknown as RelaySessionDeps['retriever'],
    tools: {
      execute: async (tool) => {
        toolCalls.push(tool.name);
        return options.tool ? options.tool() : { ok: true, result: 'done' };
      },
    },
    relayUrl: () => RELAY_URL,
    ...(options.recordUnanswered ? { recordUnanswered: options.recordUnanswered } : {}),
    ...(options.turnMs ? { turnMs: options.turnMs } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    onError: (m) => void errors.push(m),
    onInfo: (m) => void infos.push(m),
  };
  const session = createRelaySession(deps);
  const connectionId = 'conn-1=';
  let messages = 0;
  const send = (frame: Record<string, unknown>, arrivedAt = Date.now()) => session.frame(connectionId, JSON.stringify(frame), { arrivedAt, messageId: `m${++messages}` });
  /** Connects (signed) and, as Twilio does first, sends the setup frame (unless `setup: false`). */
  const open = async ({ setup = true }: { setup?: boolean } = {}) => {
    const url = `${RELAY_URL}?user=${USER}&call=${callId}`;
    const ok = await session.connect({ connectionId, user: USER, call: callId, signature: `signed:${url}` });
    if (!ok) throw new Error('handshake refused');
    if (setup) await send({ type: 'setup', sessionId: 'VX1', callSid: call.callSid, accountSid: 'AC1' }, Date.now() - 1);
  };
  const stored = () => calls.byId.get(callId)!;
  return { session, calls, connections, posts, turns, callId, call, connectionId, open, send, stored, infos, errors, toolCalls, agent };
}
