/**
 * The fake OpenAI's default chat "brain": deterministic replies from the conversation, so tests
 * and the offline local runtime can exercise tool calls, knowledge and AI-improve without a real
 * model. The rules, first match wins (also in README.md):
 *
 * 1. The conversation ends with tool results → "Tool <name> returned: <first 300 chars>" per
 *    result, plus "From <source>: <first sentence of the first excerpt>" when the system prompt
 *    holds knowledge excerpts.
 * 2. The system prompt asks to improve a text and no tools are offered → "Improved: <text>".
 * 3. Tools are offered and the last user message names one (exact snake_case name) → one
 *    tool_call for it; arguments from `key=value` / `key: value` pairs in the message (typed per
 *    the schema), other required parameters defaulted by type (strings: the rest of the message).
 * 4. The system prompt says no passage supports an answer (the runtime's refusal instruction,
 *    prompt.ts NO_SUPPORT) → a refusal in the customer's language: "Lo siento, no tengo esa
 *    información." for a Spanish message, "Sorry, I don't have that information." otherwise; when
 *    the instruction also asks to offer a person (WhatsApp), the offer follows.
 * 5. The system prompt holds knowledge excerpts → "From <source>: <first sentence>" of the
 *    excerpt sharing the most words with the user's message.
 * 6. Otherwise → "Echo: <last user message>".
 *
 * Knowledge excerpts are recognised in the runtime's format: a line "[N] Source: <name>"
 * followed by the excerpt's text.
 */
import { randomBytes } from 'node:crypto';
import { wordTokens } from './embeddings.js';

type Content = string | null | undefined | { type?: string; text?: string }[];

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface WireMessage {
  role: string;
  content?: Content;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
}

export interface WireTool {
  type: string;
  function?: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface BrainReply {
  role: 'assistant';
  content: string | null;
  tool_calls?: WireToolCall[];
}

export const textOf = (content: Content): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => p.text ?? '').join('') : '';

export interface Excerpt {
  source: string;
  text: string;
}

/** "[N] Source: name" blocks, in order. */
export function parseExcerpts(text: string): Excerpt[] {
  const out: Excerpt[] = [];
  let current: Excerpt | undefined;
  for (const line of text.split('\n')) {
    const header = /^\[\d+\] Source: (.+)$/.exec(line.trim());
    if (header) {
      current = { source: header[1]!.trim(), text: '' };
      out.push(current);
    } else if (current) {
      current.text += `${line}\n`;
    }
  }
  for (const e of out) e.text = e.text.trim();
  return out.filter((e) => e.text !== '');
}

export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const match = /^(.+?[.!?])(?=\s|$)/.exec(flat);
  return (match?.[1] ?? flat).slice(0, 300);
}

function bestExcerpt(excerpts: Excerpt[], question: string): Excerpt | undefined {
  const words = new Set(wordTokens(question));
  let best: Excerpt | undefined;
  let bestScore = -1;
  for (const e of excerpts) {
    const score = new Set(wordTokens(e.text).filter((t) => words.has(t))).size;
    if (score > bestScore) {
      best = e;
      bestScore = score;
    }
  }
  return best;
}

/** The runtime's refusal instruction (domain/agents/runtime/prompt.ts NO_SUPPORT and NO_SUPPORT_WHATSAPP). */
const NO_SUPPORT = /No passage of the business's documents supports an answer to the customer's last message/;
const OFFER_PERSON = /offer to pass the conversation to a person/;

export const REFUSALS = {
  es: 'Lo siento, no tengo esa información.',
  en: "Sorry, I don't have that information.",
  esOffer: '¿Quieres que te pase con una persona del equipo?',
  enOffer: 'Would you like me to pass you to a person from our team?',
} as const;

const SPANISH_WORDS = new Set(
  ['que', 'qué', 'los', 'las', 'el', 'la', 'de', 'del', 'y', 'en', 'por', 'para', 'hay', 'tienen', 'tenéis', 'cuánto', 'cuanto', 'cuál', 'dónde', 'cómo', 'hola', 'precio', 'horario', 'abren', 'abrís', 'puedo', 'es', 'son', 'un', 'una', 'con', 'sin', 'gracias'],
);

/** A message in Spanish: Spanish punctuation or letters, or at least two common Spanish words. */
export function looksSpanish(text: string): boolean {
  if (/[¿¡ñ]/i.test(text)) return true;
  const words = text.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  return words.filter((w) => SPANISH_WORDS.has(w)).length >= 2 || /[áéíóú]/i.test(text);
}

const PAIR = /([A-Za-z_][A-Za-z0-9_]*)\s*(?:=|:)\s*("([^"]*)"|'([^']*)'|[^\s,;]+)/g;

function coerce(raw: string, schema: Record<string, unknown> | undefined): unknown {
  const type = Array.isArray(schema?.type) ? (schema.type as string[])[0] : (schema?.type as string | undefined);
  switch (type) {
    case 'number':
    case 'integer': {
      const n = Number(raw);
      return Number.isFinite(n) ? n : 0;
    }
    case 'boolean':
      return /^(true|yes|1)$/i.test(raw);
    case 'object':
    case 'array':
      try {
        return JSON.parse(raw);
      } catch {
        return type === 'object' ? {} : [raw];
      }
    default:
      return raw;
  }
}

function defaultFor(schema: Record<string, unknown> | undefined, rest: string): unknown {
  const type = Array.isArray(schema?.type) ? (schema.type as string[])[0] : (schema?.type as string | undefined);
  switch (type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'object':
      return {};
    case 'array':
      return [];
    default:
      return rest || 'example';
  }
}

/** Arguments for `tool` from the user's message. */
export function toolArguments(message: string, tool: WireTool): Record<string, unknown> {
  const parameters = tool.function?.parameters ?? {};
  const properties = (parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(parameters.required) ? (parameters.required as string[]) : [];
  const args: Record<string, unknown> = {};
  let rest = message;
  for (const m of message.matchAll(PAIR)) {
    const key = m[1]!;
    if (!(key in properties)) continue;
    args[key] = coerce(m[3] ?? m[4] ?? m[2]!, properties[key]);
    rest = rest.replace(m[0], ' ');
  }
  rest = rest
    .replace(new RegExp(`(^|[^A-Za-z0-9_])${tool.function?.name ?? ''}(?![A-Za-z0-9_])`, 'g'), '$1')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:!?-]+|[\s,;:-]+$/g, '')
    .trim();
  for (const name of required) if (!(name in args)) args[name] = defaultFor(properties[name], rest);
  return args;
}

function mentionedTool(message: string, tools: WireTool[]): WireTool | undefined {
  let found: WireTool | undefined;
  let at = Infinity;
  for (const tool of tools) {
    const name = tool.function?.name;
    if (!name) continue;
    const match = new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[^A-Za-z0-9_]/g, '')}(?![A-Za-z0-9_])`).exec(message);
    if (match && match.index < at) {
      found = tool;
      at = match.index;
    }
  }
  return found;
}

export function think(messages: WireMessage[], tools: WireTool[] = []): BrainReply {
  const system = messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content))
    .join('\n\n');
  const excerpts = parseExcerpts(system);
  const lastUser = textOf([...messages].reverse().find((m) => m.role === 'user')?.content);
  const reply = (content: string): BrainReply => ({ role: 'assistant', content });

  // 1. Answer tool results.
  const trailing: WireMessage[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === 'tool'; i--) trailing.unshift(messages[i]!);
  if (trailing.length > 0) {
    const calls = messages.flatMap((m) => m.tool_calls ?? []);
    const lines = trailing.map((t) => {
      const name = calls.find((c) => c.id === t.tool_call_id)?.function.name ?? 'unknown';
      return `Tool ${name} returned: ${textOf(t.content).slice(0, 300)}`;
    });
    if (excerpts[0]) lines.push(`From ${excerpts[0].source}: ${firstSentence(excerpts[0].text)}`);
    return reply(lines.join('\n'));
  }

  // 2. AI-improve prompts.
  if (tools.length === 0 && /\bimprov(e|ing)\b/i.test(system)) return reply(`Improved: ${lastUser}`);

  // 3. A tool named in the message.
  const tool = mentionedTool(lastUser, tools);
  if (tool?.function) {
    return {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `call_${randomBytes(12).toString('hex')}`,
          type: 'function',
          function: { name: tool.function.name, arguments: JSON.stringify(toolArguments(lastUser, tool)) },
        },
      ],
    };
  }

  // 4. The runtime's refusal instruction: no passage supports an answer.
  if (NO_SUPPORT.test(system)) {
    const es = looksSpanish(lastUser);
    const offer = OFFER_PERSON.test(system) ? ` ${es ? REFUSALS.esOffer : REFUSALS.enOffer}` : '';
    return reply(`${es ? REFUSALS.es : REFUSALS.en}${offer}`);
  }

  // 5. Knowledge excerpts.
  const excerpt = bestExcerpt(excerpts, lastUser);
  if (excerpt) return reply(`From ${excerpt.source}: ${firstSentence(excerpt.text)}`);

  // 6. Echo.
  return reply(`Echo: ${lastUser}`);
}
