/**
 * The Test Agent chat (POST /api/agents/{id}/chat and /api/agents/chat): finds the agent (a named
 * one, or the one that answers for the user), the user's ChatGPT connection, and runs one agent
 * turn. Model failures become messages the user can act on (integrationMessages.model*). A turn
 * without a supporting passage is recorded as unanswered (channel 'chat'), best effort; an answered
 * turn marks the agent as tested (the dashboard's getting-started checklist).
 *
 * The booking tools (issue 30) act for a test customer: the owner, by the phone of their profile
 * (Settings). Without a profile phone the agent can still find free times but books nothing, and
 * says so.
 *
 * The WhatsApp tools (issue 31) run here as on WhatsApp and send nothing: the reply shows what
 * would be sent (a file, the business location, the options under the reply).
 */
import type { ChatInput, ChatReply } from '../../../contract/agents.js';
import { agentMessages } from '../../../contract/agents.js';
import { integrationMessages } from '../../../contract/integrations.js';
import { withModelErrors } from '../../ai/model-errors.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { AiConnector } from '../../ai/ports.js';
import type { Bookings } from '../../bookings/ports.js';
import type { KnowledgeRetriever } from '../../knowledge/ports.js';
import type { RecordUnanswered } from '../../knowledge/unanswered.js';
import { pickAnsweringAgent, type AgentReader } from '../ports.js';
import type { BusinessLocationReader, ToolExecutor } from './ports.js';
import type { WhatsAppToolsRuntime } from './whatsapp-tools.js';
import { answerAs } from './answer.js';
import { customerE164 } from './booking-tools.js';

export interface AgentChatDeps {
  agents: AgentReader;
  ai: AiConnector;
  retriever: KnowledgeRetriever;
  tools: ToolExecutor;
  /** The bookings core for the agent's built-in booking tools (issue 30); absent = not offered. */
  bookings?: Bookings;
  /** The owner's business location, for the send_location tool (issue 31); absent = not offered. */
  businessLocations?: BusinessLocationReader;
  /** The WhatsApp tools (whatsappToolsRuntime), shown as what would be sent; absent = not offered. */
  whatsappTools?: WhatsAppToolsRuntime;
  /** The owner's profile (name, phone): the test chat's customer for the booking tools. */
  users?: { get(userId: string): Promise<{ name: string; phoneNumber: string } | null> };
  /** Records a question the knowledge could not answer (never throws). */
  recordUnanswered?: RecordUnanswered;
  /** The getting-started checklist's "test" step: marks the agent once it answered a turn (at most one write per agent). */
  markTested?: (userId: string, agentId: string) => Promise<void>;
  /** How long a reply may take in total (API Gateway stops waiting at 30 s). */
  replyBudgetMs?: number;
  now?: () => number;
  onError?: (message: string, error: unknown) => void;
}

export const DEFAULT_REPLY_BUDGET_MS = 25_000;

export function createAgentChat(deps: AgentChatDeps) {
  const now = deps.now ?? Date.now;

  /** The test chat's customer: the owner by their profile phone (null without one: nothing is booked). */
  async function testCustomer(userId: string) {
    if (!deps.bookings || !deps.users) return undefined;
    const owner = await deps.users.get(userId);
    return { customerPhone: customerE164(owner?.phoneNumber), customerName: owner?.name ?? null };
  }

  return {
    /** `agentId` null: the user's answering agent (highest priority enabled, ties → oldest). */
    async chat(userId: string, agentId: string | null, input: ChatInput): Promise<ChatReply> {
      const started = now();
      let agent;
      if (agentId === null) {
        agent = pickAnsweringAgent(await deps.agents.list(userId));
        if (!agent) throw new ValidationError(agentMessages.noEnabledAgent);
      } else {
        agent = await deps.agents.get(userId, agentId);
        if (!agent) throw new NotFoundError(agentMessages.notFound);
      }
      const [connection, customer] = await Promise.all([deps.ai.forUser(userId), agent.bookingsEnabled ? testCustomer(userId) : undefined]);
      if (!connection) throw new ValidationError(integrationMessages.chatgptNotConnected);

      const reply = await withModelErrors(
        () =>
          answerAs('chat', deps, {
            userId,
            agent,
            connection,
            history: input.messages,
            message: input.message,
            deadline: started + (deps.replyBudgetMs ?? DEFAULT_REPLY_BUDGET_MS),
            now,
            onError: deps.onError,
            ...(customer ? { customer } : {}),
          }),
        (error) => {
          // The user's own key, model or quota are theirs to fix; the rest may be ours or the provider's.
          if (error.kind === 'bad_request' || error.kind === 'unavailable' || error.kind === 'timeout') {
            deps.onError?.(`Model call failed (${error.kind})`, error);
          }
        },
      );
      const { unanswered, outbound, ...shown } = reply;
      await deps.recordUnanswered?.(userId, agent._id, unanswered, { channel: 'chat' });
      // Best effort: a lost marker only leaves a checklist step unticked until the next turn.
      await deps.markTested?.(userId, agent._id).catch((error: unknown) => deps.onError?.('Marking the agent tested failed', error));
      return {
        ...shown,
        // What WhatsApp would send, without the stored object's key (never shown to the browser).
        ...(outbound ? { outbound: outbound.map((o) => (o.type === 'file' ? { type: 'file' as const, fileId: o.fileId, fileName: o.fileName, mimeType: o.mimeType, ...(o.caption ? { caption: o.caption } : {}) } : o)) } : {}),
        agent: { _id: agent._id, name: agent.name },
        timestamp: new Date(now()).toISOString(),
      };
    },
  };
}

export type AgentChat = ReturnType<typeof createAgentChat>;
