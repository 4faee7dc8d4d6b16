/**
 * Twilio ConversationRelay's WebSocket messages (issue 16): what Twilio sends the voice-relay
 * function (setup, prompt, interrupt, dtmf, error) and what it sends back (text tokens, end).
 * Unknown fields are ignored (Twilio adds some over time); a frame of another type or with a
 * missing field fails the schema and is logged and ignored, never answered with an error.
 */
import * as z from 'zod/mini';

const text = (max: number) => z.string().check(z.maxLength(max));

export const relaySetupFrame = z.object({
  type: z.literal('setup'),
  sessionId: text(100),
  callSid: text(64),
  accountSid: z.optional(text(64)),
  from: z.optional(text(64)),
  to: z.optional(text(64)),
  customParameters: z.optional(z.record(z.string(), z.unknown())),
});

/** The caller's words; `last: false` frames are partial transcripts (only with partialPrompts), acted on only when last. */
export const relayPromptFrame = z.object({
  type: z.literal('prompt'),
  voicePrompt: text(4000),
  lang: z.optional(text(20)),
  last: z._default(z.boolean(), true),
});

/** The caller spoke over our answer: what they heard of it until then. */
export const relayInterruptFrame = z.object({
  type: z.literal('interrupt'),
  utteranceUntilInterrupt: z._default(text(4000), ''),
  durationUntilInterruptMs: z.optional(z.number()),
});

export const relayDtmfFrame = z.object({
  type: z.literal('dtmf'),
  digit: z.string().check(z.regex(/^[0-9*#A-D]$/)),
});

export const relayErrorFrame = z.object({
  type: z.literal('error'),
  description: z._default(text(2000), ''),
});

export const relayInboundFrame = z.discriminatedUnion('type', [relaySetupFrame, relayPromptFrame, relayInterruptFrame, relayDtmfFrame, relayErrorFrame]);
export type RelayInboundFrame = z.infer<typeof relayInboundFrame>;

/** A piece of the answer to speak; `last: true` closes the answer. */
export interface RelayTextFrame {
  type: 'text';
  token: string;
  last: boolean;
}

/**
 * Ends the session: Twilio posts the <Connect action> URL (with handoffData as HandoffData).
 * handoffData = JSON {"reason", "callId"} for a hand-over to a human, absent for a goodbye.
 */
export interface RelayEndFrame {
  type: 'end';
  handoffData?: string;
}

export type RelayOutboundFrame = RelayTextFrame | RelayEndFrame;

/** The frame parsed from a WebSocket message body; null when it is not one we handle. */
export function parseRelayFrame(body: string | null | undefined): RelayInboundFrame | null {
  if (!body || body.length > 64 * 1024) return null;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const parsed = relayInboundFrame.safeParse(json);
  return parsed.success ? parsed.data : null;
}
