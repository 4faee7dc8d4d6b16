/**
 * The agent's built-in WhatsApp tools (issue 31), each switched per agent (Agent.whatsappTools):
 * send_file (a file of the agent the owner marked "can be sent to customers"), send_location (the
 * business location of the owner's profile) and offer_choices (reply buttons, or a list, under
 * the reply). Offered on WhatsApp and in the Test Agent chat (which shows what would be sent),
 * never on a call: the channel passes a WhatsAppToolsTurn, the voice channels do not.
 *
 * The tools send nothing: they record what goes with the reply (AgentReply.outbound / .choices)
 * and tell the model it will be sent; the WhatsApp channel sends it after the reply's text.
 * Results are short English texts for the model (it answers in the customer's language).
 */
import { MEDIA_LIMITS, type AgentWhatsAppTools, type BusinessLocation, type InteractiveOption } from '../../../contract/whatsapp-media.js';
import type { ModelToolSpec } from '../../ai/ports.js';
import type { AgentWithChildren, FileRecord } from '../ports.js';
import type { ReplyChoices, ReplyOutbound } from './ports.js';
import type { Channel } from './prompt.js';

export const SEND_FILE = 'send_file';
export const SEND_LOCATION = 'send_location';
export const OFFER_CHOICES = 'offer_choices';
export const WHATSAPP_TOOLS: ReadonlySet<string> = /* @__PURE__ */ new Set([SEND_FILE, SEND_LOCATION, OFFER_CHOICES]);

export const WHATSAPP_TOOL_LIMITS = {
  /** Files named in send_file's description (the most recent ones beyond it are not offered). */
  listedFiles: 20,
  /** Files and locations one reply may carry: each is a message of its own. */
  outboundPerReply: 3,
  minChoices: 2,
  maxChoices: MEDIA_LIMITS.list.maxRows,
} as const;

/** The channel's side of a turn with the WhatsApp tools (RunAgentInput.whatsapp). */
export interface WhatsAppToolsTurn {
  /** These tools (whatsappToolsRuntime): handed in, so the call bundles, which never offer them, leave them out. */
  runtime: WhatsAppToolsRuntime;
  /** The owner's business location (Profile); absent = send_location is not offered on this channel. */
  businessLocation?: () => Promise<BusinessLocation | null>;
}

/** What the tools of one turn work with (loadWhatsAppTools), and what they recorded. */
export interface WhatsAppToolsContext {
  /** The switches that are on and usable this turn. */
  offered: AgentWhatsAppTools;
  /** The agent's files that may be sent: shareable and read (completed). */
  files: FileRecord[];
  location: BusinessLocation | null;
  /** The reply's language ('es' → "Ver opciones"). */
  language: string;
  outbound: ReplyOutbound[];
  choices: ReplyChoices | null;
}

export interface WhatsAppToolOutcome {
  ok: boolean;
  text: string;
}

/** The files send_file may send: marked shareable by the owner and completed (a pending or failed upload is not sent). */
export const sendableFiles = (agent: Pick<AgentWithChildren, 'files'>): FileRecord[] =>
  agent.files.filter((f) => f.shareable && f.status === 'completed').slice(-WHATSAPP_TOOL_LIMITS.listedFiles);

/**
 * The turn's WhatsApp tools, or null when none is offered: not a WhatsApp-like channel (voice, or no
 * turn given), or every switch off. send_file needs a sendable file; send_location needs the
 * channel's location reader (a location that cannot be read is "not set", logged).
 */
export async function loadWhatsAppTools(input: {
  agent: AgentWithChildren;
  channel: Channel;
  turn: WhatsAppToolsTurn | undefined;
  language: string;
  onError?: (message: string, error: unknown) => void;
}): Promise<WhatsAppToolsContext | null> {
  const { agent, channel, turn } = input;
  if (!turn || channel === 'voice') return null;
  const switches = agent.whatsappTools;
  const files = switches.sendFiles ? sendableFiles(agent) : [];
  const offered: AgentWhatsAppTools = {
    sendFiles: switches.sendFiles && files.length > 0,
    sendLocation: switches.sendLocation && turn.businessLocation !== undefined,
    offerChoices: switches.offerChoices,
  };
  if (!offered.sendFiles && !offered.sendLocation && !offered.offerChoices) return null;
  let location: BusinessLocation | null = null;
  if (offered.sendLocation) {
    try {
      location = (await turn.businessLocation!()) ?? null;
    } catch (error) {
      input.onError?.('The business location could not be read; send_location answers that it is not set', error);
    }
  }
  return { offered, files, location, language: input.language, outbound: [], choices: null };
}

const str = (description: string) => ({ type: 'string', description });
const schema = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });
const fileLine = (f: FileRecord) => `- ${f.originalName} [file_id=${f._id}]`;

/** The tool definitions offered this turn. */
export function whatsappToolSpecs(ctx: WhatsAppToolsContext): ModelToolSpec[] {
  const specs: ModelToolSpec[] = [];
  if (ctx.offered.sendFiles) {
    specs.push({
      name: SEND_FILE,
      description:
        `Send the customer one of the business's files (it is sent after your reply, as a document). Only these files can be sent:\n${ctx.files.map(fileLine).join('\n')}`,
      parameters: schema(
        {
          file_id: { type: 'string', description: 'The file, by its file_id from the list', enum: ctx.files.map((f) => f._id) },
          caption: str('A short caption shown with the file (optional)'),
        },
        ['file_id'],
      ),
    });
  }
  if (ctx.offered.sendLocation) {
    specs.push({
      name: SEND_LOCATION,
      description: "Send the customer the business's location as a map pin (after your reply), when they ask where the business is or how to get there.",
      parameters: schema({}, []),
    });
  }
  if (ctx.offered.offerChoices) {
    specs.push({
      name: OFFER_CHOICES,
      description:
        `Show the customer ${WHATSAPP_TOOL_LIMITS.minChoices} to ${WHATSAPP_TOOL_LIMITS.maxChoices} options to tap under your reply (up to ${MEDIA_LIMITS.buttons.max} as buttons, more as a list). ` +
        "The option they tap comes back as their next message. Your reply's text is the question above the options.",
      parameters: schema(
        {
          options: {
            type: 'array',
            description: `The options, in order (${WHATSAPP_TOOL_LIMITS.minChoices} to ${WHATSAPP_TOOL_LIMITS.maxChoices}); short titles (${MEDIA_LIMITS.buttons.titleChars} characters for buttons, ${MEDIA_LIMITS.list.titleChars} in a list)`,
            items: {
              type: 'object',
              properties: { title: str('What the option says'), description: str('A few more words, shown in a list only (optional)') },
              required: ['title'],
              additionalProperties: false,
            },
          },
          button_label: str('The text of the button that opens a list (optional, e.g. "See options")'),
        },
        ['options'],
      ),
    });
  }
  return specs;
}

/** The system prompt's section: when to use each tool offered. */
export function whatsappPrompt(ctx: WhatsAppToolsContext): string {
  const parts: string[] = [];
  if (ctx.offered.sendFiles) {
    parts.push(
      `You can send the customer a file with ${SEND_FILE} when they ask for it or it clearly answers them (a price list, a menu, a brochure). ` +
        `The files you may send:\n${ctx.files.map(fileLine).join('\n')}\nSay in your reply that you are sending it; never read out the codes in square brackets.`,
    );
  }
  if (ctx.offered.sendLocation) {
    parts.push(
      ctx.location
        ? `When the customer asks where the business is or how to get there, call ${SEND_LOCATION}: the business's location (${ctx.location.name}, ${ctx.location.address}) is sent as a map pin after your reply.`
        : `The business has not set its location, so ${SEND_LOCATION} cannot send it: if the customer asks where the business is, give the address in words if your instructions or knowledge say it.`,
    );
  }
  if (ctx.offered.offerChoices) {
    parts.push(
      `When you ask the customer to choose between a few clear options (services, days, times, yes or no), call ${OFFER_CHOICES} with them: they appear under your reply to tap. ` +
        'Then keep your reply to a short question and do not list the options in it again.',
    );
  }
  return parts.join('\n');
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
/** At most `max` characters; cut on a word when one ends late enough, with an ellipsis. */
function cut(value: string, max: number): string {
  const t = value.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const head = t.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${(space >= max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

const fileNames = (ctx: WhatsAppToolsContext) => ctx.files.map(fileLine).join('\n');

/** Runs one WhatsApp tool call: records what goes with the reply. Never throws. */
export function runWhatsAppTool(ctx: WhatsAppToolsContext, name: string, args: Record<string, unknown>): WhatsAppToolOutcome {
  if (name === SEND_FILE && ctx.offered.sendFiles) return sendFile(ctx, args);
  if (name === SEND_LOCATION && ctx.offered.sendLocation) return sendLocation(ctx);
  if (name === OFFER_CHOICES && ctx.offered.offerChoices) return offerChoices(ctx, args);
  return { ok: false, text: `Unknown tool ${name}. Use only the tools you were given.` };
}

function roomForOutbound(ctx: WhatsAppToolsContext): WhatsAppToolOutcome | null {
  if (ctx.outbound.length < WHATSAPP_TOOL_LIMITS.outboundPerReply) return null;
  return { ok: false, text: `Not sent: one reply can carry at most ${WHATSAPP_TOOL_LIMITS.outboundPerReply} files or locations.` };
}

function sendFile(ctx: WhatsAppToolsContext, args: Record<string, unknown>): WhatsAppToolOutcome {
  const id = text(args.file_id);
  if (!id) return { ok: false, text: 'Missing required parameter: file_id.' };
  // Only the files listed: another agent's file, one not marked shareable or not read yet is refused alike.
  const file = ctx.files.find((f) => f._id === id);
  if (!file) return { ok: false, text: `No file with file_id=${id} can be sent. Only these can:\n${fileNames(ctx)}` };
  if (ctx.outbound.some((o) => o.type === 'file' && o.fileId === file._id)) return { ok: true, text: `${file.originalName} is already going with your reply.` };
  const full = roomForOutbound(ctx);
  if (full) return full;
  const caption = cut(text(args.caption), MEDIA_LIMITS.captionChars);
  ctx.outbound.push({ type: 'file', fileId: file._id, fileName: file.originalName, mimeType: file.mimeType, s3Key: file.s3Key, ...(caption ? { caption } : {}) });
  return { ok: true, text: `${file.originalName} will be sent with your reply. Tell the customer you are sending it.` };
}

function sendLocation(ctx: WhatsAppToolsContext): WhatsAppToolOutcome {
  const location = ctx.location;
  if (!location) {
    return { ok: false, text: 'Not sent: the business has not set its location. Give the address in words if your instructions or knowledge say it; otherwise say you cannot send it now.' };
  }
  if (ctx.outbound.some((o) => o.type === 'location')) return { ok: true, text: 'The location is already going with your reply.' };
  const full = roomForOutbound(ctx);
  if (full) return full;
  ctx.outbound.push({ type: 'location', location });
  return { ok: true, text: `The location (${location.name}, ${location.address}) will be sent with your reply as a map pin. You may mention the address in your reply.` };
}

/** An option as the model wrote it: a title (a string, or an object with title and description). */
function optionOf(value: unknown): { title: string; description: string } | null {
  if (typeof value === 'string' || typeof value === 'number') return text(value) ? { title: text(value), description: '' } : null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  const title = text(o.title) || text(o.label) || text(o.text);
  return title ? { title, description: text(o.description) } : null;
}

function offerChoices(ctx: WhatsAppToolsContext, args: Record<string, unknown>): WhatsAppToolOutcome {
  if (!Array.isArray(args.options)) return { ok: false, text: 'Missing required parameter: options (a list of 2 to 10 options, each with a title).' };
  const given = args.options.map(optionOf).filter((o): o is { title: string; description: string } => o !== null);
  if (given.length > WHATSAPP_TOOL_LIMITS.maxChoices) {
    return { ok: false, text: `Not shown: at most ${WHATSAPP_TOOL_LIMITS.maxChoices} options. Offer fewer, or ask an open question.` };
  }
  const kind = given.length <= MEDIA_LIMITS.buttons.max ? 'buttons' : 'list';
  const titleChars = kind === 'buttons' ? MEDIA_LIMITS.buttons.titleChars : MEDIA_LIMITS.list.titleChars;
  // Titles cut to Meta's limits and unique (Meta refuses two buttons with one title); ids by position, stable.
  const seen = new Set<string>();
  const options: InteractiveOption[] = [];
  for (const o of given) {
    const title = cut(o.title, titleChars);
    const key = title.toLocaleLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const description = kind === 'list' ? cut(o.description, MEDIA_LIMITS.list.descriptionChars) : '';
    options.push({ id: `opt_${options.length + 1}`, title, ...(description ? { description } : {}) });
  }
  if (options.length < WHATSAPP_TOOL_LIMITS.minChoices) {
    return { ok: false, text: `Not shown: give ${WHATSAPP_TOOL_LIMITS.minChoices} to ${WHATSAPP_TOOL_LIMITS.maxChoices} different options, each with a title.` };
  }
  const fallbackLabel = ctx.language.toLowerCase().startsWith('es') ? 'Ver opciones' : 'See options';
  const buttonLabel = kind === 'list' ? cut(text(args.button_label) || fallbackLabel, MEDIA_LIMITS.list.buttonChars) : undefined;
  const replaced = ctx.choices !== null;
  ctx.choices = { kind, options, ...(buttonLabel ? { buttonLabel } : {}) };
  return {
    ok: true,
    text:
      `${replaced ? 'These options replace the earlier ones. ' : ''}The options will be shown under your reply as ${kind === 'buttons' ? 'buttons' : 'a list'}: ${options.map((o) => o.title).join(' | ')}. ` +
      `Keep your reply a short question (under ${MEDIA_LIMITS.interactiveBodyChars} characters) and do not list the options in it.`,
  };
}

/** What runAgent calls (it imports this module's types only; the channels that offer the tools hand it in). */
export const whatsappToolsRuntime = {
  names: WHATSAPP_TOOLS,
  load: loadWhatsAppTools,
  specs: whatsappToolSpecs,
  prompt: whatsappPrompt,
  run: runWhatsAppTool,
};
export type WhatsAppToolsRuntime = typeof whatsappToolsRuntime;
