/**
 * A customer's message the agent could not answer (issue 34: nothing dropped silently). When the
 * model is still unavailable after the last retry, or refuses for good (a LastingError: a rejected
 * key…), the message is kept with a "no answer sent" marker, its conversation shows it, the owner
 * is told once per outage, and POST /api/conversations/{id}/answer-waiting (or
 * /api/conversations/answer-waiting for all of them) answers the waiting messages once the model
 * is back. Zod-free, browser-safe.
 */

/**
 * Why no answer was sent, as a key the UI says in the user's language: 'unavailable' (the model
 * failed on every try: an outage, rate limits, timeouts), the reason of the LastingError the
 * model's failure was (domain/retry.ts LastingReason: the same keys), or 'whatsapp_unavailable'
 * (the agent wrote its reply but WhatsApp refused to take it on every try: the reply is kept as
 * failed, and the answer action sends it), or 'taken_over' (issue 29: the customer wrote while a
 * person answered and nobody replied; "Return to AI" hands it to the agent, and it keeps this
 * marker if the agent cannot answer it then).
 */
export const NO_ANSWER_REASONS = ['unavailable', 'credentials', 'permission', 'not_found', 'invalid_request', 'whatsapp_unavailable', 'taken_over'] as const;
export type NoAnswerReason = (typeof NO_ANSWER_REASONS)[number];

export const isNoAnswerReason = (value: unknown): value is NoAnswerReason => typeof value === 'string' && (NO_ANSWER_REASONS as readonly string[]).includes(value);

/** On a customer's message that got no answer (ConversationMessage.noAnswer). */
export interface NoAnswerMarker {
  reason: NoAnswerReason;
  /** ISO: when the answer was given up. */
  at: string;
}

/** On a conversation with messages waiting for an answer (Conversation.noAnswer). */
export interface ConversationNoAnswer extends NoAnswerMarker {
  /** How many of its messages wait. */
  count: number;
}

/** POST /api/conversations/{id}/answer-waiting and /api/conversations/answer-waiting data. */
export interface AnswerWaitingResult {
  /** Conversations whose waiting messages are being answered now. */
  queued: number;
  /** Waiting messages in them. */
  messages: number;
  /** Conversations left waiting (answer-waiting for all): a person answers them, the 24-hour window closed, or they are closed. */
  skipped: number;
}

/** The answer action's texts (English; the UI translates them: the conversations' es-server.json). */
export const noAnswerMessages = {
  answering: 'The waiting messages are being answered',
  nothingWaiting: 'No message is waiting for an answer',
  takenOver: 'A person is answering this conversation, so the AI stays quiet: return it to the AI first',
  notOpen: 'This conversation is closed: reopen it to answer its waiting messages',
} as const;
