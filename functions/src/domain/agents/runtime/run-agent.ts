/**
 * The agent runtime: one customer message in, the agent's reply out, with what it used (tool
 * calls, knowledge sources, a hand-off to a human). The Test Agent chat calls it today; the
 * WhatsApp and voice channels will call the same function. Pure over ports: it knows nothing
 * about HTTP, DynamoDB or OpenAI.
 *
 * A turn: retrieve the knowledge excerpts closest to the message (the search query rewritten from
 * the recent conversation; embedding it, keyword-only when embeddings fail) → system prompt → model with the custom tools and the built-ins → run the
 * tools it asks for and give it the results → … at most MAX_TOOL_ROUNDS times → one last call
 * without tools if it still wants more. Model errors (ModelError) propagate to the caller.
 *
 * Honest refusal (issue 18): only passages whose absolute relevance reaches the agent's
 * minRelevance support an answer. When none does, the prompt carries no excerpts but the
 * NO_SUPPORT instruction (say you do not know; on WhatsApp offer a person), search_knowledge
 * answers NO_SUPPORT_SEARCH, and the reply's `unanswered` holds the question for the owner's list
 * when it is a real question (not "hola" or "gracias") and no custom tool answered it.
 *
 * The model's own "I don't know" (issue 28): the gate only refuses when retrieval found nothing
 * related; an agent with knowledge is told to answer only from it and to begin a reply that says
 * it does not know with UNANSWERED_MARKER. The marker is removed from the reply (and from a
 * streamed reply as it is written, marker.ts) and the question is recorded as unanswered too.
 *
 * Streamed turns (voice over ConversationRelay, `input.stream`): every model call hands its text
 * to onText while the model writes it, onToolStart lets the caller speak a filler before tools
 * run, and an aborted signal (the caller barged in) ends the turn with TurnCancelledError.
 */
import { AGENT_LIMITS } from '../../../contract/agent-limits.js';
import type { ChatSource, ChatToolCall } from '../../../contract/agents.js';
import type { ChatGptSettings } from '../../../contract/integrations.js';
import { ModelError, type ChatModel, type Completion, type CompletionRequest, type Embedder, type ModelMessage, type ModelToolCall, type ModelToolSpec } from '../../ai/ports.js';
import { bestPassage } from '../../knowledge/passage.js';
import type { AgentKnowledgeRef, KnowledgeRetriever, RetrievedChunk } from '../../knowledge/ports.js';
import { searchQueryFor } from '../../knowledge/query.js';
import type { AgentWithChildren, ToolRecord } from '../ports.js';
import type { ReplyChoices, ReplyOutbound, ToolExecutor } from './ports.js';
import { MarkerFilter, stripMarker } from './marker.js';
import { NO_SUPPORT_SEARCH, UNANSWERED_MARKER, buildSystemPrompt, formatExcerpts, type Channel } from './prompt.js';
import { isRealQuestion } from './question.js';
import { ESCALATE_TO_HUMAN, SEARCH_KNOWLEDGE, parseToolArguments, toolSpecs } from './tools.js';
import { BOOKING_TOOLS, bookingPrompt, bookingToolSpecs, loadBookingContext, runBookingTool, type BookingContext, type BookingTurn } from './booking-tools.js';
// Types only: the WhatsApp tools come in with the turn (RunAgentInput.whatsapp.runtime), so the call bundles leave them out.
import type { WhatsAppToolsContext, WhatsAppToolsTurn } from './whatsapp-tools.js';

export const RUNTIME_LIMITS = {
  /** Model rounds that may call tools per reply; then one last call without tools. */
  toolRounds: 5,
  /** Excerpts put in the prompt before the first model call. */
  promptExcerpts: 4,
  /** Excerpts one search_knowledge call returns. */
  searchExcerpts: 4,
  /** Tool calls honoured in one model round (the rest get an error text). */
  callsPerRound: 8,
  /** ChatToolCall.result is capped to this many characters in the reply (the model got the full text). */
  shownResultChars: 4000,
  /** ChatSource.excerpt length (the best-matching passage of the chunk). */
  sourceExcerptChars: 300,
  /** Longest wait for the query's embedding (less when a deadline is near) before keyword-only retrieval. */
  embeddingMs: 5_000,
} as const;

export const DEFAULT_REPLIES = {
  handoff: 'I am passing this conversation to a member of our team. Someone will get back to you shortly.',
  empty: 'Sorry, I could not put an answer together. Could you rephrase your question?',
} as const;

/** A streamed turn's callbacks (RunAgentInput.stream). */
export interface AgentStream {
  /**
   * Text as the model writes it, in order, awaited piece by piece: every round's text (also the
   * words written before a round's tool calls) and, when the reply falls back to a default text
   * (DEFAULT_REPLIES), that text. With a model without stream(), each completion's text in one piece.
   */
  onText(piece: string): void | Promise<void>;
  /** A round's tool calls are known (names in the model's order); called before they run, awaited before the next round. */
  onToolStart?(names: string[]): void | Promise<void>;
  /** Aborted (a barge-in): the model stops, and runAgent rejects with TurnCancelledError. */
  signal?: AbortSignal;
  /** After escalate_to_human: no hand-off completion and no default text; the reply is ''. */
  skipHandoffReply?: boolean;
}

/** The turn's stream signal was aborted: nothing more was sent, and there is no reply. */
export class TurnCancelledError extends Error {
  constructor() {
    super('The turn was cancelled');
    this.name = 'TurnCancelledError';
  }
}

export interface HistoryMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface RunAgentInput {
  /** The agent's owner (tenant of the knowledge). */
  userId: string;
  agent: AgentWithChildren;
  settings: ChatGptSettings;
  model: ChatModel;
  /** null when embeddings are unavailable: retrieval ranks by keywords only. */
  embedder: Embedder | null;
  retriever: KnowledgeRetriever;
  tools: ToolExecutor;
  /** The conversation before `message`, oldest first (only the last AGENT_LIMITS.chatHistory are used). */
  history: readonly HistoryMessage[];
  message: string;
  /** Issue 31: the customer's photo (a data: URL) sent with `message` as an image input; only the message answered carries one. */
  image?: string;
  channel: Channel;
  /** Epoch ms by which the reply must be ready (voice turns, the API Gateway limit): bounds model and tool calls. */
  deadline?: number;
  now?: () => number;
  /** Failures the turn survives (embedding, retrieval): reported here so the caller can log them. */
  onError?: (message: string, error: unknown) => void;
  /** Stream the turn (see AgentStream); without it the turn is computed whole, as for chat and WhatsApp. */
  stream?: AgentStream;
  /** The language the reply must be in (BCP-47; a voice call answered in the caller's language, issue 28). */
  replyLanguage?: string;
  /**
   * The channel's customer for the built-in booking tools (issue 30), offered when the agent's
   * Bookings switch is on and this is present: the phone comes from the channel, never the model.
   */
  booking?: BookingTurn;
  /**
   * The channel's side of the built-in WhatsApp tools (issue 31: send_file, send_location,
   * offer_choices), offered per the agent's switches when present and the channel is not voice
   * (WhatsApp, and the Test Agent chat, which shows what would be sent).
   */
  whatsapp?: WhatsAppToolsTurn;
}

export interface AgentReply {
  reply: string;
  toolCalls: ChatToolCall[];
  sources: ChatSource[];
  escalation: { reason: string } | null;
  /**
   * The customer's question when the turn found no supporting passage (the agent has knowledge,
   * nothing reached minRelevance, no custom tool answered) or the model marked its reply as not
   * knowing (UNANSWERED_MARKER), and it is a real question: the channel records it for the
   * owner's unanswered list. null otherwise.
   */
  unanswered: { question: string } | null;
  /** Issue 31 (WhatsApp only): files and the location the tools asked to send after the reply, in order. */
  outbound?: ReplyOutbound[];
  /** Issue 31 (WhatsApp only): the reply goes as reply buttons or a list (offer_choices). */
  choices?: ReplyChoices;
}

interface TurnState {
  input: RunAgentInput;
  ref: AgentKnowledgeRef;
  specs: ModelToolSpec[];
  now: () => number;
  sources: Map<string, ChatSource>;
  toolCalls: ChatToolCall[];
  escalation: { reason: string } | null;
  /** Excerpts numbered so far (search results continue the numbering of the prompt's). */
  excerptCount: number;
  /** Text handed to onText by the current model call (a failed hand-off keeps what was already said). */
  streamed: string;
  /** The prompt's retrieval query (the message, or its rewrite from the conversation). */
  query: string;
  /** A retrieval found a passage at or above minRelevance. */
  supported: boolean;
  /** A retrieval failed (not a refusal: nothing is recorded). */
  retrievalFailed: boolean;
  /** A custom tool answered without error (the answer may come from it). */
  toolAnswered: boolean;
  /** The model marked a reply as not knowing the answer (UNANSWERED_MARKER). */
  modelUnanswered: boolean;
  /** The booking tools' context when they are offered this turn. */
  booking: BookingContext | null;
  /** The WhatsApp tools' context (and what they recorded) when any is offered this turn. */
  whatsapp: WhatsAppToolsContext | null;
}

const cap = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export async function runAgent(input: RunAgentInput): Promise<AgentReply> {
  const now = input.now ?? Date.now;
  const state: TurnState = {
    input,
    ref: { userId: input.userId, agentId: input.agent._id, knowledgeVersion: input.agent.knowledgeVersion, language: input.agent.language },
    specs: toolSpecs(input.agent.tools),
    now,
    sources: new Map(),
    toolCalls: [],
    escalation: null,
    excerptCount: 0,
    streamed: '',
    query: searchQueryFor(input.message, input.history.slice(-AGENT_LIMITS.chatHistory), input.agent.language),
    supported: false,
    retrievalFailed: false,
    toolAnswered: false,
    modelUnanswered: false,
    booking: null,
    whatsapp: null,
  };

  throwIfCancelled(state);
  const knowledge = hasKnowledge(input.agent);
  // The booking context (the business's zone, services, the customer's bookings) is read beside the knowledge.
  const bookingRead = bookingContext(state);
  const whatsappRead = input.whatsapp
    ? input.whatsapp.runtime.load({ agent: input.agent, channel: input.channel, turn: input.whatsapp, language: input.replyLanguage ?? input.agent.language, onError: input.onError })
    : Promise.resolve(null);
  const excerpts = knowledge ? await untilCancelled(state, retrieve(state, state.query, RUNTIME_LIMITS.promptExcerpts)) : [];
  state.booking = await untilCancelled(state, bookingRead);
  state.whatsapp = await untilCancelled(state, whatsappRead);
  if (state.booking || state.whatsapp) {
    state.specs = toolSpecs(input.agent.tools, [...(state.booking ? bookingToolSpecs : []), ...(state.whatsapp ? input.whatsapp!.runtime.specs(state.whatsapp) : [])]);
  }
  state.excerptCount = excerpts.length;
  const unsupported = knowledge && excerpts.length === 0 && !state.retrievalFailed;

  const messages: ModelMessage[] = [
    {
      role: 'system',
      content: buildSystemPrompt({
        settings: input.settings,
        agent: input.agent,
        channel: input.channel,
        excerpts,
        knowledge,
        unsupported,
        replyLanguage: input.replyLanguage,
        ...(state.booking ? { bookings: bookingPrompt(state.booking) } : {}),
        ...(state.whatsapp ? { whatsappTools: input.whatsapp!.runtime.prompt(state.whatsapp) } : {}),
      }),
    },
    ...input.history.slice(-AGENT_LIMITS.chatHistory).map((m): ModelMessage => ({ role: m.role, content: m.content })),
    {
      role: 'user',
      content: input.image
        ? [
            { type: 'text', text: input.message },
            { type: 'image', dataUrl: input.image },
          ]
        : input.message,
    },
  ];

  for (let round = 0; round < RUNTIME_LIMITS.toolRounds; round++) {
    const completion = await complete(state, messages, true);
    if (completion.toolCalls.length === 0) return finish(state, completion.content);
    messages.push({ role: 'assistant', content: completion.content, toolCalls: completion.toolCalls });
    // Started before the tools (its synchronous part runs first), awaited once they are done.
    const toolStart = input.stream?.onToolStart ? (async () => input.stream!.onToolStart!(completion.toolCalls.map((c) => c.name)))() : undefined;
    toolStart?.catch(() => undefined);
    // In parallel; recorded and answered in the model's order.
    const results = await untilCancelled(state, Promise.all(completion.toolCalls.map((call, i) => runToolCall(state, call, i))));
    await toolStart;
    throwIfCancelled(state);
    completion.toolCalls.forEach((call, i) => {
      const { shown, text } = results[i]!;
      state.toolCalls.push(shown);
      messages.push({ role: 'tool', toolCallId: call.id, content: text });
    });
    if (state.escalation) {
      if (input.stream?.skipHandoffReply) return { ...(await finish(state, null)), reply: '' };
      messages.push({
        role: 'system',
        content: 'The conversation has been handed to a human team member. Write one or two short sentences telling the customer that a person will follow up.',
      });
      // The hand-off is what matters: if this last call fails, the default text goes out with it.
      const handoff = await complete(state, messages, false).catch((error: unknown) => {
        if (error instanceof TurnCancelledError) throw error;
        input.onError?.('The hand-off reply failed; the default text is used', error);
        return null;
      });
      // Streamed: what was already said of a failed hand-off reply stands (no default after it).
      return finish(state, handoff?.content ?? (state.streamed || null));
    }
  }
  messages.push({ role: 'system', content: 'You cannot call tools any more for this message. Answer the customer now with what you have.' });
  return finish(state, (await complete(state, messages, false)).content);
}

async function complete(state: TurnState, messages: ModelMessage[], withTools: boolean): Promise<Completion> {
  const { input } = state;
  throwIfCancelled(state);
  const remaining = input.deadline === undefined ? undefined : input.deadline - state.now();
  if (remaining !== undefined && remaining <= 0) throw new ModelError('timeout', 'The reply deadline passed before the model was called');
  const request: CompletionRequest = {
    model: input.settings.model,
    messages,
    ...(withTools ? { tools: state.specs } : {}),
    maxTokens: input.settings.maxTokens,
    temperature: input.settings.temperature,
    ...(remaining !== undefined ? { timeoutMs: remaining } : {}),
  };
  const stream = input.stream;
  if (!stream) return unmarked(state, await input.model.complete(request));

  state.streamed = '';
  const filter = new MarkerFilter(UNANSWERED_MARKER);
  const emit = (piece: string) => {
    throwIfCancelled(state);
    state.streamed += piece;
    return stream.onText(piece);
  };
  const onText = (piece: string) => {
    const text = filter.push(piece);
    return text === '' ? undefined : emit(text);
  };
  try {
    let completion: Completion;
    if (input.model.stream) completion = await input.model.stream(request, { onText, ...(stream.signal ? { signal: stream.signal } : {}) });
    else {
      completion = await untilCancelled(state, input.model.complete(request));
      if (completion.content) await onText(completion.content);
    }
    // The end of the reply that looked like the start of a marker and was not one.
    const rest = filter.flush();
    if (rest !== '') await emit(rest);
    return unmarked(state, completion);
  } catch (error) {
    // Whatever the model or onText threw once the caller barged in, the turn was cancelled.
    if (stream.signal?.aborted) throw new TurnCancelledError();
    throw error;
  }
}

/** The completion without the marker; a marked reply makes the question unanswered. */
function unmarked(state: TurnState, completion: Completion): Completion {
  if (!completion.content) return completion;
  const { text, found } = stripMarker(completion.content, UNANSWERED_MARKER);
  if (!found) return completion;
  state.modelUnanswered = true;
  return { ...completion, content: text };
}

function throwIfCancelled(state: TurnState): void {
  if (state.input.stream?.signal?.aborted) throw new TurnCancelledError();
}

/** `work`, or TurnCancelledError as soon as the stream's signal aborts (the work is left to finish unheard). */
function untilCancelled<T>(state: TurnState, work: Promise<T>): Promise<T> {
  const signal = state.input.stream?.signal;
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new TurnCancelledError());
  }
  let onAbort: (() => void) | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    onAbort = () => reject(new TurnCancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  work.catch(() => undefined);
  return Promise.race([work, cancelled]).finally(() => signal.removeEventListener('abort', onAbort!));
}

/** The turn's booking context when the agent's Bookings switch is on and the channel gave the customer; null when it cannot be read (logged: no booking tools this turn). */
async function bookingContext(state: TurnState): Promise<BookingContext | null> {
  const { input } = state;
  if (!input.agent.bookingsEnabled || !input.booking) return null;
  try {
    return await loadBookingContext({
      turn: input.booking,
      userId: input.userId,
      agentId: input.agent._id,
      channel: input.channel,
      language: input.replyLanguage ?? input.agent.language,
      now: state.now(),
    });
  } catch (error) {
    input.onError?.('The booking context could not be read; no booking tools this turn', error);
    return null;
  }
}

/** Only agents with files, web pages or knowledge entries have chunks to search. */
const hasKnowledge = (agent: AgentWithChildren) => agent.files.length > 0 || agent.urls.length > 0 || agent.entries.length > 0;

/** The question to record when nothing supported an answer, or the model said it does not know (see AgentReply.unanswered). */
function unansweredOf(state: TurnState): { question: string } | null {
  const { input } = state;
  if (!hasKnowledge(input.agent) || (state.supported && !state.modelUnanswered) || state.retrievalFailed || state.toolAnswered) return null;
  const question = input.message.trim().replace(/\s+/g, ' ');
  if (!isRealQuestion(question, input.agent.language)) return null;
  return { question: cap(question, AGENT_LIMITS.entryQuestion) };
}

async function finish(state: TurnState, content: string | null): Promise<AgentReply> {
  const text = content?.trim() ?? '';
  const fallback = state.escalation ? DEFAULT_REPLIES.handoff : DEFAULT_REPLIES.empty;
  // A streamed caller hears the default text too (unless the hand-off reply is the caller's own).
  if (text === '' && state.input.stream && !(state.escalation && state.input.stream.skipHandoffReply)) {
    throwIfCancelled(state);
    await state.input.stream.onText(fallback);
  }
  return {
    reply: text !== '' ? text : fallback,
    toolCalls: state.toolCalls,
    sources: [...state.sources.values()],
    escalation: state.escalation,
    unanswered: unansweredOf(state),
    ...(state.whatsapp && state.whatsapp.outbound.length > 0 ? { outbound: [...state.whatsapp.outbound] } : {}),
    ...(state.whatsapp?.choices ? { choices: state.whatsapp.choices } : {}),
  };
}

/**
 * Hybrid retrieval of `query`, keeping only the passages that reach the agent's minRelevance (the
 * rest support nothing and are not shown as sources); keyword-only when the embedding fails,
 * nothing when retrieval itself fails.
 */
async function retrieve(state: TurnState, query: string, limit: number): Promise<RetrievedChunk[]> {
  const { embedder, retriever, onError } = state.input;
  let vector: Float32Array | null = null;
  if (embedder) {
    // Bounded: a slow embedding must not eat the reply's time; keyword-only ranking is the fallback.
    const remaining = state.input.deadline === undefined ? Infinity : state.input.deadline - state.now();
    const budget = Math.max(0, Math.min(RUNTIME_LIMITS.embeddingMs, remaining / 4));
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Embedding took longer than ${Math.round(budget)} ms`)), budget);
      });
      vector = (await Promise.race([embedder.embed([query]), late]))[0] ?? null;
    } catch (error) {
      onError?.('Embedding the message failed; keyword retrieval only', error);
    } finally {
      clearTimeout(timer);
    }
  }
  let found: RetrievedChunk[];
  try {
    found = await retriever.search(state.ref, query, vector, limit);
  } catch (error) {
    onError?.('Knowledge retrieval failed', error);
    state.retrievalFailed = true;
    return [];
  }
  const supporting = found.filter((r) => r.relevance >= state.input.agent.minRelevance);
  if (supporting.length > 0) state.supported = true;
  const language = state.input.agent.language;
  for (const r of supporting) {
    const key = `${r.chunk.sourceKind}:${r.chunk.sourceId}:${r.chunk.index}`;
    const score = Math.round(r.relevance * 1000) / 1000;
    const known = state.sources.get(key);
    if (known && known.score >= score) continue;
    const passage = bestPassage(r.chunk.text, query, language, RUNTIME_LIMITS.sourceExcerptChars);
    const section = r.chunk.headings.join(' › ');
    state.sources.set(key, {
      name: r.chunk.sourceName,
      kind: r.chunk.sourceKind,
      sourceId: r.chunk.sourceId,
      score,
      excerpt: passage.excerpt,
      highlights: passage.highlights,
      ...(r.chunk.page !== null ? { page: r.chunk.page } : {}),
      ...(section !== '' ? { section } : {}),
    });
  }
  return supporting;
}

/** Runs one tool call of the model: what goes back to it, and what the reply shows. Never throws. */
async function runToolCall(state: TurnState, call: ModelToolCall, indexInRound: number): Promise<{ text: string; shown: ChatToolCall }> {
  const started = state.now();
  const done = (args: Record<string, unknown>, text: string, ok: boolean, status?: number) => ({
    text,
    shown: {
      name: call.name,
      arguments: args,
      result: cap(text, RUNTIME_LIMITS.shownResultChars),
      ok,
      ...(status !== undefined ? { status } : {}),
      durationMs: Math.max(0, state.now() - started),
    },
  });

  if (indexInRound >= RUNTIME_LIMITS.callsPerRound) {
    return done({}, `Not run: at most ${RUNTIME_LIMITS.callsPerRound} tool calls are allowed at once.`, false);
  }
  const parsed = parseToolArguments(call.arguments);
  if (!parsed.ok) return done({}, parsed.error, false);
  const args = parsed.args;

  if (call.name === SEARCH_KNOWLEDGE) {
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (query === '') return done(args, 'Missing required parameter: query.', false);
    const found = await retrieve(state, query, RUNTIME_LIMITS.searchExcerpts);
    if (found.length === 0) return done(args, NO_SUPPORT_SEARCH, true);
    const first = state.excerptCount + 1;
    state.excerptCount += found.length;
    return done(args, formatExcerpts(found, first), true);
  }

  if (call.name === ESCALATE_TO_HUMAN) {
    const reason = typeof args.reason === 'string' ? args.reason.trim() : '';
    if (reason === '') return done(args, 'Missing required parameter: reason.', false);
    state.escalation ??= { reason };
    return done(args, 'The conversation has been handed to a human team member, who will follow up with the customer.', true);
  }

  if (state.booking && BOOKING_TOOLS.has(call.name)) {
    const remaining = state.input.deadline === undefined ? undefined : state.input.deadline - state.now();
    if (remaining !== undefined && remaining <= 0) return done(args, 'The tool was not called: there is no time left for this reply.', false);
    const outcome = await runBookingTool(state.booking, call.name, args);
    if (outcome.ok) state.toolAnswered = true;
    return done(args, outcome.text, outcome.ok);
  }

  const whatsapp = state.input.whatsapp?.runtime;
  if (state.whatsapp && whatsapp?.names.has(call.name)) {
    const outcome = whatsapp.run(state.whatsapp, call.name, args);
    return done(args, outcome.text, outcome.ok);
  }

  const tool: ToolRecord | undefined = state.input.agent.tools.find((t) => t.name === call.name);
  if (!tool) return done(args, `Unknown tool ${call.name}. Use only the tools you were given.`, false);
  const remaining = state.input.deadline === undefined ? undefined : state.input.deadline - state.now();
  if (remaining !== undefined && remaining <= 0) return done(args, 'The tool was not called: there is no time left for this reply.', false);
  try {
    const outcome = await state.input.tools.execute(tool, args, remaining !== undefined ? { timeoutMs: remaining } : undefined);
    if (outcome.ok) state.toolAnswered = true;
    return done(args, outcome.result, outcome.ok, outcome.status);
  } catch (error) {
    // The executor's contract is to never throw; a bug there must not lose the reply.
    state.input.onError?.('Tool executor threw', error);
    return done(args, 'The tool could not be called because of an internal error.', false);
  }
}
