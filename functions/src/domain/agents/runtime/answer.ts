/**
 * One agent turn for a channel (test chat, WhatsApp, voice): the user's AI connection and the
 * channel's knowledge search and tools put into runAgent's input the same way everywhere. Each
 * channel keeps its own deadline, history and error handling.
 */
import type { AiConnection } from '../../ai/ports.js';
import type { Bookings } from '../../bookings/ports.js';
import type { KnowledgeRetriever } from '../../knowledge/ports.js';
import type { BookingTurn } from './booking-tools.js';
import type { BusinessLocationReader, ToolExecutor } from './ports.js';
import type { Channel } from './prompt.js';
import { runAgent, type AgentReply, type RunAgentInput } from './run-agent.js';
import type { WhatsAppToolsRuntime } from './whatsapp-tools.js';

/** What a channel answers with (its deps carry both). */
export interface AnswerDeps {
  retriever: KnowledgeRetriever;
  tools: ToolExecutor;
  /** The bookings core, for the built-in booking tools (issue 30); absent = never offered. */
  bookings?: Bookings;
  /** The owner's business location, for the send_location tool (issue 31); absent = never offered. */
  businessLocations?: BusinessLocationReader;
  /**
   * The WhatsApp tools (whatsapp-tools.ts whatsappToolsRuntime); absent = not offered. Handed in
   * rather than imported, so the call bundles (first-contact budget) leave them out: the channels
   * that offer them take answerAs from index.ts (answer-whatsapp.ts), which fills it in.
   */
  whatsappTools?: WhatsAppToolsRuntime;
}

/** The turn's own part of RunAgentInput; the model, its settings and the embedder come from `connection`. */
export type AnswerTurn = Omit<RunAgentInput, 'settings' | 'model' | 'embedder' | 'retriever' | 'tools' | 'channel' | 'booking' | 'whatsapp'> & {
  connection: AiConnection;
  /** The channel's customer (the booking tools act for this phone only); absent = no booking tools. */
  customer?: Omit<BookingTurn, 'bookings'>;
};

export function answerAs(channel: Channel, deps: AnswerDeps, turn: AnswerTurn): Promise<AgentReply> {
  const { connection, customer, ...rest } = turn;
  const locations = deps.businessLocations;
  const whatsappTools = deps.whatsappTools;
  return runAgent({
    ...rest,
    ...(deps.bookings && customer ? { booking: { ...customer, bookings: deps.bookings } } : {}),
    // The WhatsApp tools (issue 31) on WhatsApp and in the test chat (which shows what would be sent); never on a call.
    ...(channel !== 'voice' && whatsappTools
      ? { whatsapp: { runtime: whatsappTools, ...(locations ? { businessLocation: () => locations.get(turn.userId) } : {}) } }
      : {}),
    settings: connection.settings,
    model: connection.chat,
    embedder: connection.embedder,
    retriever: deps.retriever,
    tools: deps.tools,
    channel,
  });
}
