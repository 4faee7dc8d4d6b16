/**
 * The WhatsApp contract's texts and text limits (re-exported by contract/whatsapp.ts). Plain
 * constants, no zod: functions that only answer with a WhatsApp text (the contacts' import from
 * WhatsApp) do not bundle the conversation and setup schemas.
 */

/** Text limits the API enforces and the screens' inputs stop at (one constant each). */
export const WHATSAPP_TEXT_LIMITS = { search: 100, notes: 2000 } as const;

export const whatsappMessages = {
  bearerTokenRequired: 'Bearer token is required',
  bearerTokenInvalid: 'Bearer token may only contain letters, digits and symbols, without spaces',
  businessIdRequired: 'Business ID is required',
  phoneIdRequired: 'Phone ID is required',
  phoneNumberRequired: 'Phone number is required',
  phoneNumberInvalid: 'Please enter a valid phone number',
  appSecretRequired: 'App secret is required',
  setupSuccess: 'WhatsApp Business integration configured successfully',
  testSuccess: 'Connection successful',
  /** /test and sends when Meta refuses the token. */
  graphAuthFailed: 'WhatsApp rejected the access token. Check the token in Integrations.',
  graphPhoneNotFound: 'WhatsApp could not find this phone number ID for the token.',
  graphUnavailable: 'WhatsApp could not be reached. Please try again later.',
  /** Issue 34: a person's send (a reply, a template, a retry) Meta refused for now (5xx, throttled): answered 503, and the failed message's reason. */
  graphTemporarilyUnavailable: 'WhatsApp is temporarily unavailable, so the message was not sent. Try again in a moment.',
  /** Issue 34: a send whose answer was lost (a timeout): Meta may have it, so it is never sent again by itself (answered 504 to a person). */
  deliveryUnknown:
    'WhatsApp did not confirm this message in time: it may have reached the customer, so it was not sent again (it could arrive twice). Its status changes if WhatsApp reports it; if not, send it again.',
  /** Issue 34: the agent's reply WhatsApp refused on every try of the retry schedule (the customer's message waits for "Answer waiting messages"). */
  replyNotSentUnavailable: "WhatsApp was unavailable on every try, so the agent's reply was not sent. Answer the waiting messages from Conversations to send it when WhatsApp is back.",
  notConnected: 'Connect the WhatsApp Business integration first',
  // Conversations (SPEC §8 and beyond)
  conversationNotFound: 'Conversation not found',
  messageNotFound: 'Message not found',
  escalationReasonRequired: 'Escalation reason is required',
  escalationReasonTooLong: 'Escalation reason must be 500 characters or less',
  notesTooLong: `Notes must be ${WHATSAPP_TEXT_LIMITS.notes} characters or less`,
  statusInvalid: 'Status must be one of active, closed, requires_human, archived',
  conversationUpdated: 'Conversation updated successfully',
  conversationEscalated: 'Conversation escalated to a human',
  conversationDeleted: 'Conversation deleted successfully',
  replyRequired: 'Message is required',
  replyTooLong: 'Message must be 4096 characters or less',
  /** A human reply outside the 24-hour customer service window. */
  windowClosed: 'The last customer message is more than 24 hours old: WhatsApp only allows a template message now.',
  replySent: 'Message sent',
  /** Issue 17: takeover and assignment. */
  aiResumed: 'The AI answers this conversation again',
  /** Issue 32: any active member of the account, or null. */
  assigneeInvalid: 'A conversation can only be assigned to an active member of this account, or unassigned (null)',
  assigneeFilterInvalid: 'assignee must be me, none or all',
  // Messages (SPEC §8)
  retryStarted: 'Message retry initiated',
  retryNotFailed: 'Only failed outgoing messages can be retried',
  messageDeleted: 'Message deleted successfully',
  /** Stored on an outgoing message the plan did not allow. */
  usageLimitReached: 'Monthly message limit of your plan reached: the reply was not sent.',
  importDone: (n: number) => (n === 1 ? '1 contact imported from WhatsApp' : `${n} contacts imported from WhatsApp`),
  pageInvalid: 'Page must be a positive whole number',
  limitInvalid: 'Limit must be between 1 and 100',
} as const;
