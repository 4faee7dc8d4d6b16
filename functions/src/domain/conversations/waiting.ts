/**
 * Customers' messages that got no answer (issue 34 item 3: nothing dropped silently).
 *
 * While the model's failures may pass, the inbound job is retried on the queue's schedule and
 * nothing visible changes. When they do not (the job's last try, or a LastingError such as a
 * refused key), the channel calls `unanswered()`: the message keeps a "no answer sent" marker
 * with a reason key (NoAnswerReason: 'unavailable' or the LastingError's reason), its conversation
 * lists it as waiting, the account lists the conversation, and the owner is told once per
 * incident — an incident is one provider failing for one account, from its first unanswered
 * message until the provider answers again (`answered()`): twenty messages failing in one outage
 * raise one notification (keyed by the incident's start).
 *
 * "Answer waiting messages" (createWaitingAnswers): one conversation's, or every waiting
 * conversation's, queued as one whatsapp-inbound job per conversation; the job claims each
 * waiting message (its wamid: waiting → replying, so a second call or job answers nothing twice)
 * and the agent answers it with the conversation before it as context; an answered message loses
 * its marker. Refused while a person answers the conversation (the AI stays quiet then), once the
 * 24-hour window has closed, or when the conversation is closed.
 *
 * Storage (the store port; adapters/dynamo/waiting-replies.ts, ACCESS-PATTERNS.md): the marker on
 * the message, `noAnswerIds` (a set) on the conversation, the account's waiting conversations,
 * the incident per account and provider.
 */
import { INBOX_DEFAULTS } from '../../contract/inbox.js';
import { noAnswerMessages, type AnswerWaitingResult, type NoAnswerMarker, type NoAnswerReason } from '../../contract/no-answer.js';
import { whatsappMessages } from '../../contract/whatsapp-messages.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { EscalationAlerts } from '../notifications/ports.js';
import type { LastingReason } from '../retry.js';
import type { ConversationRepository, InboxSettingsRepository, MessageRepository, StoredConversation, StoredMessage } from './ports.js';
import { insideWindow } from './service.js';
import { humanSinceOf, takeoverView } from './takeover.js';

/** Every LastingError reason is a NoAnswerReason (the marker keeps the queue core's reason as it is). */
type Compatible<A extends B, B> = A;
export type LastingNoAnswerReason = Compatible<LastingReason, NoAnswerReason>;

export interface WaitingReplyStore {
  /**
   * The message got no answer: its marker, its wamid `waiting` (the reply claim given up: only the
   * answer action takes it again), its id on the conversation's waiting list with the reason, and
   * the conversation on the account's list. Idempotent; nothing when the conversation is gone.
   */
  markWaiting(userId: string, message: StoredMessage, marker: NoAnswerMarker): Promise<void>;
  /**
   * markWaiting for a message a person left unanswered (issue 29), only while its wamid is
   * `handled`: false when it already waits or is being answered (a second "Return to AI"), so it
   * is handed to the agent once. False too when the message or its conversation is gone.
   */
  markLeft(userId: string, message: StoredMessage, marker: NoAnswerMarker): Promise<boolean>;
  /** Takes the answer of a waiting message: its wamid from waiting (or this owner's, or an expired claim) to replying. */
  claimWaiting(userId: string, waMessageId: string, owner: string, now: number, leaseMs: number): Promise<boolean>;
  /**
   * The waiting message is dealt with (answered, or its reply stored as failed where the owner sees
   * it): marker removed, wamid handled, off the conversation's list — and the conversation off the
   * account's list when it has no other.
   */
  clearWaiting(userId: string, message: StoredMessage): Promise<void>;
  /** A listed id whose message is gone (deleted) or no longer waits: off the conversation's list (and the conversation off the account's when it has no other). */
  dropWaiting(userId: string, conversationId: string, messageId: string): Promise<void>;
  /** The account's conversations with waiting messages (may name some that no longer have any: see forgetConversation). */
  waitingConversations(userId: string): Promise<string[]>;
  /** Takes the conversation off the account's list, unless it has waiting messages (again). */
  forgetConversation(userId: string, conversationId: string): Promise<void>;
}

export interface ProviderIncidentStore {
  /** Opens the account's incident with the provider unless one is open; answers when the open one began. */
  open(userId: string, provider: string, reason: NoAnswerReason, at: string): Promise<{ openedAt: string }>;
  /** The provider answered again: the incident is over (the next failure opens a new one). */
  close(userId: string, provider: string): Promise<void>;
}

/** Where "answer waiting messages" goes: one whatsapp-inbound job per conversation (composition/). */
export interface WaitingAnswerQueue {
  answerWaiting(userId: string, conversationIds: readonly string[]): Promise<void>;
  /** The resume check of a conversation (issue 29), held back `delaySeconds` (at most RESUME_CHECK_HOP_SECONDS). */
  resumeCheck(userId: string, conversationId: string, wroteAt: string, delaySeconds: number): Promise<void>;
}

/**
 * The pause ending by itself (issue 29). The pause is decided where it is read (takeover.ts), so
 * nothing happens when the idle hours pass. When the customer writes during a pause, the inbound
 * worker queues a resume check on the whatsapp-inbound queue, held back until the pause ends: SQS
 * holds a message back 15 minutes at most, so the check puts itself back in hops of that until
 * then (a person acting again moves the end). Chosen over a schedule: no new rule, no index of
 * paused conversations to sweep, nothing runs for a pause the customer did not write in, and the
 * AI answers within the hop's precision of the pause's end; a newer message of the customer's
 * supersedes its check (it has its own), so one check per conversation keeps going.
 */
export const RESUME_CHECK_HOP_SECONDS = 900;

/** Seconds until the resume check should look again: the pause's end, at most one hop away (null: no pause now). */
export function resumeCheckDelay(c: StoredConversation, aiResumeAfterHours: number, at: Date): number | null {
  const resumesAt = takeoverView(c, aiResumeAfterHours, at).aiResumesAt;
  if (!resumesAt) return null;
  return Math.min(RESUME_CHECK_HOP_SECONDS, Math.max(1, Math.ceil((Date.parse(resumesAt) - at.getTime()) / 1000)));
}

/** What a resume check did: superseded (a newer message has its own) or gone, later (still paused: queued again), returned by the owner (the button handed over), or handed over. */
export type ResumeCheckOutcome = 'gone' | 'superseded' | 'later' | 'returned' | 'answering' | 'nothing_left';

/** What the owner's notification names the provider (the product they connected). */
const PROVIDER_NAMES: Readonly<Record<string, string>> = { openai: 'ChatGPT', whatsapp: 'WhatsApp' };

/** Containers remember a closed incident this long, so a reply does not delete it every time (one write per user per minute at most). */
export const CLOSED_INCIDENT_MEMORY_MS = 60_000;
const MEMORY_CAP = 10_000;

export interface NoAnswerDeps {
  store: Pick<WaitingReplyStore, 'markWaiting'>;
  incidents: ProviderIncidentStore;
  /** The owner's notification (in-app, and the e-mail when their settings allow). Never throws. */
  alerts?: EscalationAlerts;
  now?: () => number;
  onError?: (message: string, error: unknown) => void;
}

export function createNoAnswer(deps: NoAnswerDeps) {
  const now = deps.now ?? Date.now;
  const onError = deps.onError ?? (() => undefined);
  /** `${userId} ${provider}` → the incident closed at (epoch ms) by this container. */
  const closed = new Map<string, number>();

  return {
    /**
     * `message` got no answer because `provider` failed (`reason`): marked and listed as waiting
     * (throws when that fails: the job is retried), then the owner told once per incident (a
     * failure there is logged: the marker stands).
     */
    async unanswered(userId: string, message: StoredMessage, provider: string, reason: NoAnswerReason): Promise<void> {
      const at = new Date(now()).toISOString();
      await deps.store.markWaiting(userId, message, { reason, at });
      closed.delete(`${userId} ${provider}`);
      try {
        const { openedAt } = await deps.incidents.open(userId, provider, reason, at);
        await deps.alerts?.escalated(userId, {
          kind: 'messages_waiting',
          subjectId: provider,
          contactName: PROVIDER_NAMES[provider] ?? provider,
          reason,
          // One notification per incident: every message of the outage names the same start.
          occurrence: openedAt,
        });
      } catch (error) {
        onError('The owner could not be told about unanswered messages; the messages are marked', error);
      }
    },

    /** `provider` answered for the account: its incident (if one is open) is over. Never throws. */
    async answered(userId: string, provider: string): Promise<void> {
      const key = `${userId} ${provider}`;
      const at = closed.get(key);
      if (at !== undefined && now() - at < CLOSED_INCIDENT_MEMORY_MS) return;
      try {
        await deps.incidents.close(userId, provider);
        if (closed.size >= MEMORY_CAP) closed.clear();
        closed.set(key, now());
      } catch (error) {
        onError('The provider incident could not be closed', error);
      }
    },
  };
}

export type NoAnswer = ReturnType<typeof createNoAnswer>;

// ---------------------------------------------------------------------------------------------
// "Answer waiting messages"

export interface WaitingAnswersDeps {
  conversations: Pick<ConversationRepository, 'get' | 'getMany'>;
  /** The conversation's last messages (what a person left unanswered, issue 29). */
  messages: Pick<MessageRepository, 'recent'>;
  store: Pick<WaitingReplyStore, 'waitingConversations' | 'forgetConversation' | 'markLeft'>;
  queue: WaitingAnswerQueue;
  /** The idle hours after which the AI takes a conversation back (issue 17); INBOX_DEFAULTS when absent. */
  inboxSettings?: Pick<InboxSettingsRepository, 'get'>;
  now?: () => Date;
}

export interface AnswerWaitingOutcome {
  message: string;
  data: AnswerWaitingResult;
}

const waitingCount = (c: StoredConversation) => c.noAnswerIds?.size ?? 0;

/** How far back "Return to AI" looks for the customer's unanswered messages. */
export const LEFT_LOOKBACK = 50;

/**
 * The customer's messages after the last reply (issue 29), oldest first: what nobody answered. A
 * failed send is no reply (the customer never got it); a reaction is not a message to answer.
 */
export function leftUnansweredOf(messages: readonly StoredMessage[]): StoredMessage[] {
  let from = messages.length;
  while (from > 0 && !(messages[from - 1]!.fromMe && messages[from - 1]!.status !== 'failed')) from--;
  return messages.slice(from).filter((m) => !m.fromMe && m.type !== 'reaction');
}

/** What "Return to AI" found left unanswered (ResumeAiResult's fields). */
export interface LeftUnanswered {
  leftUnanswered: number;
  answering: boolean;
}

export function createWaitingAnswers(deps: WaitingAnswersDeps) {
  const now = deps.now ?? (() => new Date());

  /** Why the AI may not answer the conversation now (null: it may). */
  function refusal(c: StoredConversation, aiResumeAfterHours: number, at: Date): string | null {
    if (c.status === 'closed' || c.status === 'archived') return noAnswerMessages.notOpen;
    if (takeoverView(c, aiResumeAfterHours, at).answeredBy === 'human') return noAnswerMessages.takenOver;
    if (!insideWindow(c.lastInboundAt, at)) return whatsappMessages.windowClosed;
    return null;
  }

  const hours = async (userId: string) => (deps.inboxSettings ? await deps.inboxSettings.get(userId) : INBOX_DEFAULTS).aiResumeAfterHours;

  /** The account's conversations that really wait (the list's stale entries are dropped from it). */
  async function waitingOf(userId: string): Promise<StoredConversation[]> {
    const ids = await deps.store.waitingConversations(userId);
    if (ids.length === 0) return [];
    const found = await deps.conversations.getMany(userId, ids);
    const waiting = found.filter((c) => waitingCount(c) > 0);
    const stale = ids.filter((id) => !waiting.some((c) => c.id === id));
    await Promise.all(stale.map((id) => deps.store.forgetConversation(userId, id)));
    return waiting;
  }

  /**
   * "Return to AI" (issue 29): the customer's messages a person left unanswered during the pause
   * are handed to the agent through the whatsapp-inbound queue, as "Answer waiting messages"
   * does: the last one is marked waiting ('taken_over'; the agent reads the ones before it as
   * the conversation, so one answer covers them) and the job answers it. Once: the mark only
   * holds on a handled message, so a second press (or a second job) hands nothing over, and a
   * message the agent cannot answer then keeps its marker in front of the owner. Not handed
   * over when the conversation is closed or its 24-hour window has closed: only counted.
   */
  async function answerLeft(userId: string, conversation: StoredConversation): Promise<LeftUnanswered> {
    const left = leftUnansweredOf(await deps.messages.recent(userId, conversation.id, LEFT_LOOKBACK));
    const last = left.at(-1);
    if (!last) return { leftUnanswered: 0, answering: false };
    const at = now();
    const open = conversation.status !== 'closed' && conversation.status !== 'archived' && insideWindow(conversation.lastInboundAt, at);
    const answering = open && last.waMessageId !== '' && (await deps.store.markLeft(userId, last, { reason: 'taken_over', at: at.toISOString() }));
    if (answering) await deps.queue.answerWaiting(userId, [conversation.id]);
    return { leftUnanswered: left.length, answering };
  }

  return {
    /** One conversation's waiting messages answered (404 for an id not the caller's; 409 when the AI may not answer it). */
    async answerConversation(userId: string, id: string): Promise<AnswerWaitingOutcome> {
      const conversation = await deps.conversations.get(userId, id);
      if (!conversation) throw new NotFoundError(whatsappMessages.conversationNotFound);
      const messages = waitingCount(conversation);
      if (messages === 0) return { message: noAnswerMessages.nothingWaiting, data: { queued: 0, messages: 0, skipped: 0 } };
      const refused = refusal(conversation, await hours(userId), now());
      if (refused) throw new ConflictError(refused);
      await deps.queue.answerWaiting(userId, [conversation.id]);
      return { message: noAnswerMessages.answering, data: { queued: 1, messages, skipped: 0 } };
    },

    /** Every waiting conversation the AI may answer now; the others are counted as skipped. */
    async answerAll(userId: string): Promise<AnswerWaitingOutcome> {
      const [waiting, aiResumeAfterHours] = await Promise.all([waitingOf(userId), hours(userId)]);
      const at = now();
      const ready = waiting.filter((c) => refusal(c, aiResumeAfterHours, at) === null);
      if (ready.length > 0) await deps.queue.answerWaiting(userId, ready.map((c) => c.id));
      const messages = ready.reduce((n, c) => n + waitingCount(c), 0);
      return {
        message: ready.length > 0 ? noAnswerMessages.answering : noAnswerMessages.nothingWaiting,
        data: { queued: ready.length, messages, skipped: waiting.length - ready.length },
      };
    },

    answerLeft,

    /**
     * The resume check (issue 29, RESUME_CHECK_HOP_SECONDS): once the pause has ended by itself
     * (or by "Return to AI"), what the customer left is handed over as the button does (answerLeft:
     * once, only inside the 24-hour window); still paused, the check is queued again.
     */
    async resumeCheck(userId: string, conversationId: string, wroteAt: string): Promise<ResumeCheckOutcome> {
      const conversation = await deps.conversations.get(userId, conversationId);
      if (!conversation) return 'gone';
      if ((conversation.lastInboundAt ?? '') > wroteAt) return 'superseded';
      const delay = resumeCheckDelay(conversation, await hours(userId), now());
      if (delay !== null) {
        await deps.queue.resumeCheck(userId, conversationId, wroteAt, delay);
        return 'later';
      }
      // Returned by the owner: "Return to AI" handed over what was left (and says so to the owner).
      if (!humanSinceOf(conversation)) return 'returned';
      return (await answerLeft(userId, conversation)).answering ? 'answering' : 'nothing_left';
    },

    /** How many conversations wait (the board's banner). */
    async count(userId: string): Promise<number> {
      return (await waitingOf(userId)).length;
    },
  };
}

export type WaitingAnswers = ReturnType<typeof createWaitingAnswers>;
