/** In-memory stand-ins for the voice ports (call repository, AI connector) used by the summary and call-log unit tests. */
import { VOICE_DEFAULTS, type CallSummary, type CallTurn } from '../../../src/contract/voice.js';
import type { AiConnector, ChatModel, Completion, CompletionRequest } from '../../../src/domain/ai/ports.js';
import type { CallRepository, StoredCall } from '../../../src/domain/voice/ports.js';
import { newId } from '../../../src/lib/ids.js';

export function turn(role: CallTurn['role'], content: string, confidence: number | null = role === 'user' ? 0.9 : null): CallTurn {
  return { role, content, at: '2026-03-01T10:00:05.000Z', confidence };
}

export function storedCall(overrides: Partial<StoredCall> = {}): StoredCall {
  return {
    id: newId(),
    userId: 'user-1',
    callSid: `CA${'0'.repeat(32)}`,
    status: 'completed',
    phoneNumber: '+34600111222',
    internalNumber: '+14155550100',
    contact: null,
    duration: 95_000,
    createdAt: '2026-03-01T10:00:00.000Z',
    endedAt: '2026-03-01T10:01:35.000Z',
    voiceSettings: { name: 'Reception', description: 'Standard A', language: 'es-ES' },
    messages: [turn('agent', 'Hola, ¿en qué puedo ayudarle?'), turn('user', 'Quiero reservar una mesa para cuatro, soy Ana, ana@example.com')],
    summary: null,
    summaryStatus: 'pending',
    deliveries: [],
    agent: { _id: 'agent-1', name: 'Reception' },
    escalated: false,
    settings: { ...VOICE_DEFAULTS },
    silences: 0,
    endedByUs: true,
    recording: null,
    billedMinutes: 2,
    conversationMode: 'gather',
    latency: null,
    endReason: 'goodbye',
    ...overrides,
  };
}

export const validSummary: CallSummary = {
  quickSummary: 'Ana wants a table for four.',
  actionPoints: ['Confirm the booking'],
  sentiment: 'positive',
  urgency: 'medium',
  tone: 'friendly',
  contactExtracted: { name: 'Ana', phone: '', email: 'ana@example.com', web: '' },
  bookingExtracted: { from: '2026-03-02T20:00', to: '', numberOfPeople: 4, note: '' },
};

/** Only what the summary and call-log domains use; every other method throws. */
export class MemoryCallRepository implements CallRepository {
  readonly calls = new Map<string, StoredCall>();

  constructor(...calls: StoredCall[]) {
    for (const c of calls) this.calls.set(c.id, structuredClone(c));
  }

  private mine(userId: string, id: string): StoredCall | null {
    const c = this.calls.get(id);
    return c && c.userId === userId ? c : null;
  }

  async get(userId: string, id: string) {
    const c = this.mine(userId, id);
    return c ? structuredClone(c) : null;
  }
  async setSummary(userId: string, id: string, result: Parameters<CallRepository['setSummary']>[2]) {
    const c = this.mine(userId, id);
    if (c) Object.assign(c, { summaryStatus: result.summaryStatus, summary: result.summary, summaryError: result.summaryError });
  }
  /** HandoffAnalyses (issue 34): the analysis so far of a forwarded call. */
  async setHandoffSummary(userId: string, id: string, summary: StoredCall['handoffSummary']) {
    const c = this.mine(userId, id);
    if (c) c.handoffSummary = summary ?? null;
  }
  async addDelivery(userId: string, id: string, attempt: Parameters<CallRepository['addDelivery']>[2]) {
    this.mine(userId, id)?.deliveries.push(attempt);
  }
  async setContact(userId: string, id: string, contact: StoredCall['contact']) {
    const c = this.mine(userId, id);
    if (c) c.contact = contact;
  }
  async page(userId: string, input: { page: number; limit: number; search: string }) {
    const all = [...this.calls.values()]
      .filter((c) => c.userId === userId)
      .filter((c) => !input.search || c.phoneNumber.replace(/\D/g, '').includes(input.search) || c.internalNumber.replace(/\D/g, '').includes(input.search))
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    const items = all.slice((input.page - 1) * input.limit, input.page * input.limit);
    return { items: items.map((c) => ({ ...structuredClone(c), messages: [] })), total: all.length, messageCounts: items.map((c) => c.messages.length) };
  }
  create(): never {
    throw new Error('not used');
  }
  activeStartedBefore(): never {
    throw new Error('not used');
  }
  getBySid(): never {
    throw new Error('not used');
  }
  appendTurns(): never {
    throw new Error('not used');
  }
  setSilences(): never {
    throw new Error('not used');
  }
  markEndedByUs(): never {
    throw new Error('not used');
  }
  markEscalated(): never {
    throw new Error('not used');
  }
  finish(): never {
    throw new Error('not used');
  }
  setRecording(): never {
    throw new Error('not used');
  }
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
}

/** A chat model answering from a queue of replies (a string = content; an Error = thrown), recording requests. */
export class ScriptedModel implements ChatModel {
  readonly requests: CompletionRequest[] = [];
  constructor(private readonly replies: Array<string | Error | Completion>) {}
  async complete(request: CompletionRequest): Promise<Completion> {
    this.requests.push(structuredClone(request));
    const next = this.replies.shift();
    if (next === undefined) throw new Error('ScriptedModel: no reply left');
    if (next instanceof Error) throw next;
    if (typeof next === 'string') return { content: next, toolCalls: [], finishReason: 'stop' };
    return next;
  }
}

export function connector(model: ChatModel | null, settings: Partial<{ model: string; maxTokens: number; temperature: number }> = {}): AiConnector {
  return {
    async forUser() {
      if (!model) return null;
      return {
        settings: { model: 'gpt-4o-mini', maxTokens: 300, temperature: 0.7, systemPrompt: '', baseUrl: '', ...settings } as never,
        chat: model,
        embedder: { embed: async () => [] },
      };
    },
  };
}
