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
 * - media/fetch.ts (issue 31): a customer's media fetched from Meta, checked, stored in our bucket
 *   and understood (a voice note's transcript…) before the agent answers the updated message;
 * - apply-status.ts: delivery statuses, forward only.
 *
 * A message the model could not answer (issue 34) waits with a marker (agent-reply.ts,
 * conversations/waiting.ts); `answerWaiting` is the job of "Answer waiting messages": the
 * conversation's waiting messages claimed one by one and answered in order.
 */
import type { StoredConversation, StoredMessage } from '../conversations/ports.js';
import { INBOX_DEFAULTS } from '../../contract/inbox.js';
import { mediaKindOf } from '../../contract/whatsapp-media.js';
import { pickAnsweringAgent } from '../agents/ports.js';
import { RESUME_CHECK_HOP_SECONDS, resumeCheckDelay, type WaitingAnswerQueue, type WaitingReplyStore } from '../conversations/waiting.js';
import type { WhatsAppInboundJob } from './ports.js';
import { createAgentReply, type AgentReplyDeps, type AnswerOptions, type ReplyOutcome } from './agent-reply.js';
import { applyStatus, type ApplyStatusDeps } from './apply-status.js';
import { parseDelivery, type ParsedChange, type ParsedInboundMessage } from './parse-delivery.js';
import { createInboundStore, customerWroteAt, type InboundStoreDeps } from './store-inbound.js';
import { createMediaFetcher, type MediaFetchDeps } from './media/fetch.js';
import { transcriptionNames } from './media/understand.js';

export type InboundDeps = InboundStoreDeps &
  AgentReplyDeps &
  Omit<ApplyStatusDeps, 'messages'> & {
    /** The waiting messages' claims and markers (issue 34); required by answerWaiting only. */
    waiting?: Pick<WaitingReplyStore, 'claimWaiting' | 'markWaiting' | 'clearWaiting' | 'dropWaiting' | 'forgetConversation'>;
    /** Where a message written during a person's pause queues its resume check (issue 29, waiting.ts); absent = none. */
    resumeChecks?: Pick<WaitingAnswerQueue, 'resumeCheck'>;
    /** A customer's media fetched, stored and understood before the answer (issue 31); absent = left pending. */
    media?: Pick<MediaFetchDeps, 'graphMedia' | 'objects' | 'understanding' | 'onFailure'>;
  };

export type MessageOutcome = 'duplicate' | 'busy' | ReplyOutcome;

/** The queue delivery a job runs in (workers/sqs-worker.ts Delivery). */
export interface JobDelivery {
  /** The job's last try: a model failure leaves the message waiting instead of failing the job. */
  finalAttempt: boolean;
}

/** Outcomes that settle a waiting message: answered, or a reply stored as failed where the owner sees it. */
const SETTLED: ReadonlySet<ReplyOutcome> = new Set(['replied', 'send_failed', 'limit']);

export interface DeliveryOutcome {
  messages: Array<{ wamid: string; outcome: MessageOutcome; conversationId?: string }>;
  statuses: Array<{ wamid: string; result: string }>;
}

export function createInboundPipeline(deps: InboundDeps) {
  const onError = deps.onError ?? (() => undefined);
  const now = deps.now ?? Date.now;
  const leaseMs = deps.replyLeaseMs ?? 60_000;
  const store = createInboundStore(deps);
  const replies = createAgentReply(deps);
  const media = deps.media ? createMediaFetcher({ ...deps.media, messages: deps.messages, conversations: deps.conversations, onError }) : null;

  /**
   * The customer's media made ready for the answer (issue 31): fetched once, stored, understood.
   * A TransientError (Meta or storage down, a transcription that may pass) fails the job for the
   * queue's retry, which resumes here with the message as stored so far.
   */
  async function prepareMedia(
    userId: string,
    message: StoredMessage,
    delivery: JobDelivery,
    recorded: Promise<unknown>,
  ): Promise<{ message: StoredMessage; known?: NonNullable<AnswerOptions['known']> }> {
    if (!media || !mediaKindOf(message.type) || !message.media || message.media.state === 'failed') return { message };
    // The transcription's hints, read beside the download: the answering agent's language and the
    // business's names (voice notes only: its staff and services when it books). The agents and
    // the connection read here are the answer's too (AnswerOptions.known).
    const agents = mediaKindOf(message.type) === 'audio' ? deps.agents.list(userId) : undefined;
    const hints = agents?.then(async (list) => {
      const agent = pickAnsweringAgent(list);
      return agent ? { language: agent.language, names: await transcriptionNames(userId, agent, deps.bookings) } : {};
    });
    // Read by prepare (and the answer), or left: never an unhandled rejection.
    agents?.catch(() => undefined);
    hints?.catch(() => undefined);
    const whatsapp = await deps.connection(userId);
    const known = { whatsapp, ...(agents ? { agents } : {}) };
    // Not connected: nothing can be fetched; the answer's own path reports it.
    if (!whatsapp) return { message, known };
    const prepared = await media.prepare({ userId, credentials: whatsapp.credentials, message, finalAttempt: delivery.finalAttempt, ...(hints ? { hints } : {}), after: recorded });
    return { message: prepared, known };
  }

  /** `last`: nothing of the delivery comes after this message, so its counters are written beside its last writes. */
  async function handleMessage(job: WhatsAppInboundJob, change: ParsedChange, m: ParsedInboundMessage, owner: string, last: boolean, delivery: JobDelivery) {
    const stored = await store.store(job.userId, change, m, owner);
    if (stored.state !== 'claimed') return { outcome: stored.state, conversationId: stored.conversationId };
    const { message, known } = await prepareMedia(job.userId, stored.message, delivery, stored.recorded);
    const outcome = await replies.answer(job.userId, stored.conversation, message, m.customer, { finalAttempt: delivery.finalAttempt, ...(known ? { known } : {}) });
    // Left to a person: answered when their pause ends, by the button or by itself (issue 29).
    // Queued before the wamid is handled: a failure retries the job, which queues it then.
    if (outcome === 'human_answering') await queueResumeCheck(job.userId, stored.conversation, message);
    await Promise.all([
      stored.recorded,
      // A waiting message's wamid was left waiting (for the answer action), not handled.
      outcome === 'waiting' ? undefined : deps.messages.finishInbound(job.userId, m.wamid),
      last ? deps.messages.flushCounters?.() : undefined,
    ]);
    return { outcome, conversationId: stored.conversation.id };
  }

  async function queueResumeCheck(userId: string, conversation: StoredConversation, message: StoredMessage): Promise<void> {
    if (!deps.resumeChecks) return;
    const { aiResumeAfterHours } = deps.inboxSettings ? await deps.inboxSettings.get(userId) : INBOX_DEFAULTS;
    // The model was writing when a person took over (not paused then by the stored view): one hop.
    const delay = resumeCheckDelay(conversation, aiResumeAfterHours, new Date(now())) ?? RESUME_CHECK_HOP_SECONDS;
    // As the conversation's lastInboundAt has this message (store-inbound.ts).
    const wroteAt = customerWroteAt(message.timestamp, Date.parse(message.createdAt));
    await deps.resumeChecks.resumeCheck(userId, conversation.id, wroteAt, delay);
  }

  const customerOf = (c: StoredConversation) => ({ waId: c.customerWaId, phone: c.customerPhone, name: c.customerName });

  return {
    /**
     * Processes one delivery. `owner` identifies the queue message (its SQS message id): a retry of
     * the same queue message resumes a reply its crashed predecessor had claimed.
     */
    async process(job: WhatsAppInboundJob, owner: string, delivery: JobDelivery = { finalAttempt: false }): Promise<DeliveryOutcome> {
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
            const r = await handleMessage(job, change, m, owner, last, delivery);
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

    /**
     * "Answer waiting messages" for one conversation (issue 34): each waiting message, oldest first,
     * claimed (so a second job answers none twice) and answered with the conversation before it.
     * Answered (or its reply stored as failed): its marker goes. Still unanswerable (the model is
     * down again: marked anew on the last try; a person took over meanwhile): it keeps waiting.
     */
    async answerWaiting(userId: string, conversationId: string, owner: string, delivery: JobDelivery = { finalAttempt: false }): Promise<Array<{ messageId: string; outcome: MessageOutcome }>> {
      const waiting = deps.waiting;
      if (!waiting) throw new Error('answerWaiting needs the waiting store');
      const first = await deps.conversations.get(userId, conversationId);
      const ids = [...(first?.noAnswerIds ?? [])].sort();
      if (!first || ids.length === 0) {
        await waiting.forgetConversation(userId, conversationId);
        return [];
      }
      const results: Array<{ messageId: string; outcome: MessageOutcome }> = [];
      try {
        for (const id of ids) {
          const message = await deps.messages.get(userId, id);
          if (!message?.noAnswer) {
            // Deleted, or answered already (a clear cut short): nothing waits under this id.
            await waiting.dropWaiting(userId, conversationId, id);
            continue;
          }
          if (!(await waiting.claimWaiting(userId, message.waMessageId, owner, now(), leaseMs))) {
            // Another job is answering this one: it goes on to the later ones in order. Answering a
            // later message here would send it before the earlier reply (the worker retries on busy).
            results.push({ messageId: id, outcome: 'busy' });
            break;
          }
          // Read again for each message: the previous answer moved it, or a person took it over meanwhile.
          const conversation = (await deps.conversations.get(userId, conversationId)) ?? first;
          const outcome = await replies.answer(userId, conversation, message, customerOf(conversation), { finalAttempt: delivery.finalAttempt, waiting: true });
          if (SETTLED.has(outcome)) await waiting.clearWaiting(userId, message);
          // Not answered and not marked anew: back to waiting, as it was.
          else if (outcome !== 'waiting') await waiting.markWaiting(userId, message, message.noAnswer);
          results.push({ messageId: id, outcome });
        }
      } finally {
        await deps.messages.flushCounters?.();
      }
      return results;
    },
  };
}

export type InboundPipeline = ReturnType<typeof createInboundPipeline>;
