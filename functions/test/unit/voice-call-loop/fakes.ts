/** In-memory ports of the call loop (calls, settings, agents, a model, minutes, the summary queue, the relay's warmer and hand-over claim). */
import { CHATGPT_DEFAULTS } from '../../../src/contract/integrations.js';
import { VOICE_DEFAULTS, type CallTurn } from '../../../src/contract/voice.js';
import { newAgentRecord, type AgentWithChildren } from '../../../src/domain/agents/ports.js';
import type { ChatModel, Completion } from '../../../src/domain/ai/ports.js';
import { LimitExceededError } from '../../../src/domain/errors.js';
import { createCallLoop, type CallLoopDeps } from '../../../src/domain/voice/call-loop.js';
import type { CallRepository, CallSummaryJob, StoredCall, StoredVoiceSettings } from '../../../src/domain/voice/ports.js';
import { newId } from '../../../src/lib/ids.js';

export const USER = 'user-1';

export class MemoryCalls implements CallRepository {
  readonly byId = new Map<string, StoredCall>();
  async create(call: StoredCall) {
    const existing = [...this.byId.values()].find((c) => c.callSid === call.callSid);
    if (existing) return { created: false, call: structuredClone(existing) };
    this.byId.set(call.id, structuredClone(call));
    return { created: true, call };
  }
  async get(_u: string, id: string) {
    const c = this.byId.get(id);
    return c ? structuredClone(c) : null;
  }
  async getBySid(_u: string, sid: string) {
    const c = [...this.byId.values()].find((x) => x.callSid === sid);
    return c ? structuredClone(c) : null;
  }
  async appendTurns(_u: string, id: string, expected: number, turns: CallTurn[], silences: number) {
    const c = this.byId.get(id)!;
    if (c.messages.length !== expected) return false;
    c.messages.push(...turns);
    c.silences = silences;
    return true;
  }
  async setSilences(_u: string, id: string, expected: number, silences: number) {
    const c = this.byId.get(id)!;
    if (c.silences !== expected) return false;
    c.silences = silences;
    return true;
  }
  async markEndedByUs(_u: string, id: string, endReason: NonNullable<StoredCall['endReason']>, escalation?: { reason: string }) {
    const c = this.byId.get(id)!;
    Object.assign(c, { endedByUs: true, endReason }, escalation ? { escalated: true, escalationReason: escalation.reason } : {});
  }
  async markEscalated(_u: string, id: string, reason: string) {
    Object.assign(this.byId.get(id)!, { escalated: true, escalationReason: reason });
  }
  async finish(_u: string, id: string, end: Parameters<CallRepository['finish']>[2]) {
    const c = this.byId.get(id)!;
    if (c.status !== 'active') return null;
    Object.assign(c, end);
    return structuredClone(c);
  }
  async setRecording(_u: string, id: string, recording: NonNullable<StoredCall['recording']>) {
    this.byId.get(id)!.recording = recording;
  }
  async activeStartedBefore(before: string, limit: number) {
    return [...this.byId.values()].filter((c) => c.status === 'active' && c.createdAt < before).slice(0, limit).map((c) => structuredClone(c));
  }
  async setSummary() {}
  async addDelivery() {}
  async setContact() {}
  // The relay's turn methods (issue 16): the call loop never uses them.
  bindRelaySetup(): never {
    throw new Error('not used');
  }
  claimRelayTurn(): never {
    throw new Error('not used');
  }
  setRelayAnswer(): never {
    throw new Error('not used');
  }
  setRelayHeard(): never {
    throw new Error('not used');
  }
  async page() {
    return { items: [], total: 0, messageCounts: [] };
  }
}

export const reply = (content: string, toolCalls: Completion['toolCalls'] = []): Completion => ({ content, toolCalls, finishReason: 'stop' });

export const RELAY_URL = 'wss://relay.example/prod';
export const VOICE_BASE = 'https://app.example/api/webhooks/twilio/user-1/voice';

export interface SetupOptions {
  model?: ChatModel;
  settings?: Partial<StoredVoiceSettings>;
  minutesLeft?: number;
  agent?: boolean;
  turnMs?: number;
  /** The relay's URL ('' = not deployed); absent = no relay deps at all. */
  relayUrl?: string;
  /** The warm-up: what each call waits for (default: resolves at once). */
  warmUp?: () => Promise<void>;
  /** The agent has a knowledge entry (so a turn without a supporting passage is unanswered). */
  knowledge?: boolean;
  recordUnanswered?: CallLoopDeps['recordUnanswered'];
  /** The account's AI and recording notices (issue 33); absent = none. */
  notices?: CallLoopDeps['notices'];
  /** Erased calls and their late recordings' deletion (issue 33); absent = none. */
  erasedCalls?: CallLoopDeps['erasedCalls'];
}

/** The hand-over claim as DynamoCallHandoffs does it: once per call, only while active. */
function memoryHandoffs(calls: MemoryCalls) {
  const claimed = new Set<string>();
  return {
    async claim(_u: string, id: string, reason: string) {
      const c = calls.byId.get(id);
      if (!c || c.status !== 'active' || claimed.has(id)) return false;
      claimed.add(id);
      Object.assign(c, { endedByUs: true, endReason: 'forwarded', escalated: true, escalationReason: reason });
      return true;
    },
  };
}

export function setup(options: SetupOptions = {}) {
  const calls = new MemoryCalls();
  let warmUps = 0;
  const jobs: CallSummaryJob[] = [];
  let minutesUsed = 0;
  const limit = options.minutesLeft ?? 100;
  // An answering agent: new agents start disabled until they have instructions (issue 19).
  const agent: AgentWithChildren = {
    ...newAgentRecord(newId(), 'Receptionist', '2026-01-01T00:00:00.000Z'),
    description: 'Front desk',
    instructions: 'Answer briefly.',
    enabled: true,
    files: [],
    urls: [],
    tools: [],
    entries: [],
  };
  if (options.knowledge) agent.entries.push({ _id: 'e1', agentId: agent._id, question: '¿Hay parking?', answer: 'Sí.', createdAt: '', updatedAt: '' });
  const model: ChatModel = options.model ?? { complete: async (r) => reply(`**Sure**: ${String(r.messages.at(-1)?.content)}`) };
  let clock = Date.parse('2026-03-01T10:00:00.000Z');
  const deps: CallLoopDeps = {
    calls,
    settings: { get: async () => (options.settings ? ({ ...VOICE_DEFAULTS, ...options.settings } as StoredVoiceSettings) : null) },
    agents: { get: async () => (options.agent === false ? null : agent), list: async () => (options.agent === false ? [] : [agent]) },
    ai: { forUser: async () => ({ settings: { ...CHATGPT_DEFAULTS, baseUrl: '' }, chat: model, embedder: { embed: async () => [] } }) },
    retriever: { search: async () => [] } as unknown as CallLoopDeps['retriever'],
    tools: { execute: async () => ({ ok: true, result: '' }) },
    usage: {
      reserve: async (_u, _a, n = 1) => {
        if (minutesUsed + n > limit) throw new LimitExceededError('minutes');
        minutesUsed += n;
        return minutesUsed;
      },
      release: async (_u, _a, n = 1) => {
        minutesUsed -= n;
      },
    },
    contacts: { findByPhone: async (_u, phone) => (phone === '+34600000001' ? { _id: 'c1', name: 'Ana', phoneNumber: phone } : null) },
    queue: { enqueue: async (job) => void jobs.push(job) },
    urls: () => ({ gather: 'https://app.example/api/webhooks/twilio/user-1/voice/gather', recording: 'https://app.example/api/webhooks/twilio/user-1/voice/recording' }),
    newId: (now) => newId(now),
    now: () => clock,
    ...(options.turnMs ? { turnMs: options.turnMs } : {}),
    ...(options.relayUrl !== undefined
      ? {
          relay: {
            url: () => options.relayUrl!,
            actionUrl: () => `${VOICE_BASE}/relay-action`,
            warmer: {
              warmUp: () => {
                warmUps++;
                return options.warmUp ? options.warmUp() : Promise.resolve();
              },
            },
          },
        }
      : {}),
    handoffs: memoryHandoffs(calls),
    ...(options.recordUnanswered ? { recordUnanswered: options.recordUnanswered } : {}),
    ...(options.notices ? { notices: options.notices } : {}),
    ...(options.erasedCalls ? { erasedCalls: options.erasedCalls } : {}),
  };
  return { loop: createCallLoop(deps), calls, jobs, minutes: () => minutesUsed, advance: (ms: number) => (clock += ms), warmUps: () => warmUps };
}

export const incomingParams = { CallSid: 'CA1', AccountSid: 'AC1', From: '+34600000001', To: '+34910000000', CallStatus: 'ringing' };
export const said = (script: { steps: Array<{ kind: string; text?: string | null }> }) => script.steps.flatMap((s) => (s.kind === 'say' || s.kind === 'gather' ? [s.text] : []));
