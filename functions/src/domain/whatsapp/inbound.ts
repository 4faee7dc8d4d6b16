/**
 * The whatsapp-inbound pipeline (SPEC §2 Conversations/Messages, §5 escalation, §9): one verified
 * Meta webhook delivery in, its messages stored and answered, its delivery statuses applied.
 * Pure over ports: storage (conversations/messages), contacts, agents + the runtime, the ChatGPT
 * connection, plan usage, the Graph API. Its steps, each in its own module:
 *
 * - parse-delivery.ts: the delivery's changes, messages and statuses (malformed parts skipped);
 * - store-inbound.ts: per message, the contact, the customer's conversation, the message stored
 *   once per wamid with its reply claimed (only one worker answers a wamid);
 * - agent-reply.ts: the agent's answer when one is due, sent through the Graph API and stored,
 *   with the plan's usage and escalation;
 * - apply-status.ts: delivery statuses, forward only.
 */
import type { WhatsAppInboundJob } from './ports.js';
import { createAgentReply, type AgentReplyDeps, type ReplyOutcome } from './agent-reply.js';
import { applyStatus, type ApplyStatusDeps } from './apply-status.js';
import { parseDelivery, type ParsedChange, type ParsedInboundMessage } from './parse-delivery.js';
import { createInboundStore, type InboundStoreDeps } from './store-inbound.js';

export type InboundDeps = InboundStoreDeps & AgentReplyDeps & Omit<ApplyStatusDeps, 'messages'>;

export type MessageOutcome = 'duplicate' | 'busy' | ReplyOutcome;

export interface DeliveryOutcome {
  messages: Array<{ wamid: string; outcome: MessageOutcome; conversationId?: string }>;
  statuses: Array<{ wamid: string; result: string }>;
}

export function createInboundPipeline(deps: InboundDeps) {
  const onError = deps.onError ?? (() => undefined);
  const store = createInboundStore(deps);
  const replies = createAgentReply(deps);

  /** `last`: nothing of the delivery comes after this message, so its counters are written beside its last writes. */
  async function handleMessage(job: WhatsAppInboundJob, change: ParsedChange, m: ParsedInboundMessage, owner: string, last: boolean) {
    const stored = await store.store(job.userId, change, m, owner);
    if (stored.state !== 'claimed') return { outcome: stored.state, conversationId: stored.conversationId };
    const outcome = await replies.answer(job.userId, stored.conversation, stored.message, m.customer);
    await Promise.all([stored.recorded, deps.messages.finishInbound(job.userId, m.wamid), last ? deps.messages.flushCounters?.() : undefined]);
    return { outcome, conversationId: stored.conversation.id };
  }

  return {
    /**
     * Processes one delivery. `owner` identifies the queue message (its SQS message id): a retry of
     * the same queue message resumes a reply its crashed predecessor had claimed.
     */
    async process(job: WhatsAppInboundJob, owner: string): Promise<DeliveryOutcome> {
      const changes = parseDelivery(job.body, job.receivedAt);
      const outcome: DeliveryOutcome = { messages: [], statuses: [] };
      if (!changes) {
        onError('whatsapp-inbound: the delivery is not JSON; dropped', new Error('malformed body'));
        return outcome;
      }
      try {
        for (const change of changes) {
          // Messages of one delivery in order (a customer's burst is answered in the order written).
          for (const m of change.messages) {
            const last = change === changes.at(-1) && m === change.messages.at(-1) && change.statuses.length === 0;
            const r = await handleMessage(job, change, m, owner, last);
            outcome.messages.push({ wamid: m.wamid, ...r });
          }
          for (const s of change.statuses) outcome.statuses.push({ wamid: s.wamid, result: await applyStatus(deps, job.userId, s) });
        }
      } finally {
        // Whatever is still queued (statuses, an early return, a failure).
        await deps.messages.flushCounters?.();
      }
      return outcome;
    },
  };
}

export type InboundPipeline = ReturnType<typeof createInboundPipeline>;
