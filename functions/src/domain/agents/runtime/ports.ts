/**
 * What the agent runtime needs besides the model and the knowledge retriever: a way to run an
 * agent's custom tools. The HTTP adapter (adapters/http-tools/) calls the tool's endpoint through
 * the outbound guard; tests and the bench use in-memory executors.
 */
import type { BusinessLocation, MessageInteractive } from '../../../contract/whatsapp-media.js';
import type { ToolRecord } from '../ports.js';

/** The outcome of one custom tool call, as the model will read it. Never thrown: failures are outcomes. */
export interface ToolOutcome {
  /** false when the call could not be made or the endpoint answered with an error status. */
  ok: boolean;
  /** What goes back to the model: "HTTP <status>\n<body>" or a clear error text. */
  result: string;
  /** HTTP status of the response, when there was one. */
  status?: number;
}

export interface ToolCallOptions {
  /** Upper bound for this call (ms); the executor's own default applies when it is lower or absent. */
  timeoutMs?: number;
}

export interface ToolExecutor {
  /** Runs `tool` with the model's arguments (already parsed as a JSON object). Must not throw. */
  execute(tool: ToolRecord, args: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolOutcome>;
}

/**
 * What the agent's built-in WhatsApp tools (issue 31: send_file, send_location) asked to send with
 * its reply, in the order asked. The runtime only records them (it sends nothing); the WhatsApp
 * channel (whatsapp/agent-reply.ts) sends each after the reply's text, as its own message.
 */
export type ReplyOutbound =
  | { type: 'file'; fileId: string; fileName: string; mimeType: string; s3Key: string; caption?: string }
  | { type: 'location'; location: BusinessLocation };

/** The reply's text goes as reply buttons or a list (offer_choices); a tapped option comes back as the customer's message. */
export type ReplyChoices = MessageInteractive;

/** The owner's business location (Profile → Business location) as the runtime reads it for send_location. */
export interface BusinessLocationReader {
  get(userId: string): Promise<BusinessLocation | null>;
}
