/**
 * Twilio ConversationRelay's WebSocket messages (issue 16; issue 28: as Twilio really sends them):
 * what Twilio sends the voice-relay function (setup, prompt, interrupt, dtmf, info, error) and what
 * it sends back (text tokens, language switches, end).
 *
 * Inbound frames are read leniently: unknown fields are ignored (Twilio adds some over time, e.g.
 * setup's parentCallSid, forwardedFrom, callerName, callStatus), fields we do not use are not
 * checked, and interrupt.durationUntilInterruptMs is accepted as a number or as the string
 * Twilio's published samples show ("460"). A frame of another type, or without what we act on
 * (setup.callSid, prompt.voicePrompt, dtmf.digit), fails the schema and is logged and ignored,
 * never answered with an error (Twilio would read it as an invalid message, error 64107).
 */
import * as z from 'zod/mini';

const text = (max: number) => z.string().check(z.maxLength(max));
/** A field we show or log but do not act on: any string, cut to `max`; anything else is dropped. */
const loose = (max: number) => z.catch(z.optional(z.pipe(z.string(), z.transform((s) => s.slice(0, max)))), undefined);

export const relaySetupFrame = z.object({
  type: z.literal('setup'),
  callSid: text(64),
  sessionId: loose(100),
  accountSid: loose(64),
  from: loose(200),
  to: loose(200),
});

/**
 * The caller's words; `last: false` frames are partial transcripts (only with partialPrompts),
 * acted on only when last. `lang` is the language they were transcribed in (BCP-47; with automatic
 * detection only the primary tag, e.g. "en").
 */
export const relayPromptFrame = z.object({
  type: z.literal('prompt'),
  voicePrompt: text(4000),
  lang: loose(35),
  // Partial prompts are off (no partialPrompts attribute): a missing or odd `last` is a final one.
  last: z.catch(z._default(z.pipe(z.union([z.boolean(), z.enum(['true', 'false'])]), z.transform((v) => v === true || v === 'true')), true), true),
});

/** Milliseconds as a number or a numeric string; anything else is dropped (the frame still counts). */
const milliseconds = z.catch(
  z.optional(
    z.pipe(
      z.union([z.number(), z.string()]),
      z.transform((v) => {
        const n = typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v);
        return Number.isFinite(n) && n >= 0 ? n : undefined;
      }),
    ),
  ),
  undefined,
);

/** The caller spoke over our answer: what they heard of it until then. */
export const relayInterruptFrame = z.object({
  type: z.literal('interrupt'),
  utteranceUntilInterrupt: z.catch(z._default(text(4000), ''), ''),
  durationUntilInterruptMs: milliseconds,
});

export const relayDtmfFrame = z.object({
  type: z.literal('dtmf'),
  digit: z.string().check(z.regex(/^[0-9*#A-D]$/)),
});

/** Twilio's informational messages (debug): logged only. */
export const relayInfoFrame = z.object({
  type: z.literal('info'),
  description: z.catch(z._default(text(2000), ''), ''),
});

export const relayErrorFrame = z.object({
  type: z.literal('error'),
  description: z.catch(z._default(text(2000), ''), ''),
});

export const relayInboundFrame = z.discriminatedUnion('type', [relaySetupFrame, relayPromptFrame, relayInterruptFrame, relayDtmfFrame, relayInfoFrame, relayErrorFrame]);
export type RelayInboundFrame = z.infer<typeof relayInboundFrame>;

/**
 * A piece of the answer to speak; `last: true` closes the answer (the talk cycle). Both flags are
 * always set (issue 28): `interruptible` = the caller's speech may cut it (answers), or not (the
 * hand-off message and tool fillers: noise must not cut them half-word); `preemptible` = the
 * tokens of a newer answer may cut it.
 */
export interface RelayTextFrame {
  type: 'text';
  token: string;
  last: boolean;
  interruptible: boolean;
  preemptible: boolean;
}

/**
 * Switches the session's voice (ttsLanguage) and speech recognition (transcriptionLanguage) to a
 * language the <ConversationRelay> declared with a <Language> element (issue 28); a
 * transcriptionLanguage of "multi" (DETECT_LANGUAGE) keeps automatic detection on.
 */
export interface RelayLanguageFrame {
  type: 'language';
  ttsLanguage: string;
  transcriptionLanguage: string;
}

/**
 * Ends the session: Twilio posts the <Connect action> URL (with handoffData as HandoffData).
 * handoffData = JSON {"reason", "callId"} for a hand-over to a human, absent for a goodbye.
 */
export interface RelayEndFrame {
  type: 'end';
  handoffData?: string;
}

export type RelayOutboundFrame = RelayTextFrame | RelayLanguageFrame | RelayEndFrame;

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
