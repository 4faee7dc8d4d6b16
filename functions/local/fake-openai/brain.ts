/**
 * The fake OpenAI's default chat "brain": deterministic replies from the conversation, so tests
 * and the offline local runtime can exercise tool calls, knowledge and AI-improve without a real
 * model. The rules, first match wins (also in README.md):
 *
 * 1. The conversation ends with tool results → "Tool <name> returned: <first 300 chars>" per
 *    result, plus "From <source>: <first sentence of the first excerpt>" when the system prompt
 *    holds knowledge excerpts.
 * 1b. The last user message carries a photo (an image_url part, issue 31) → "I can see the photo you
 *    sent." / "Veo la foto que me has enviado." (Spanish when its text looks Spanish), followed by
 *    ": <description>" when a description was registered for the image's bytes (POST /_test/images).
 * 2. The system prompt asks to improve a text and no tools are offered → "Improved: <text>".
 * 3. Tools are offered and the last user message names one (exact snake_case name) → one
 *    tool_call for it; arguments from `key=value` / `key: value` pairs in the message (typed per
 *    the schema), other required parameters defaulted by type (strings: the rest of the message).
 * 4. The system prompt says no passage supports an answer (the runtime's refusal instruction,
 *    prompt.ts NO_SUPPORT) → a refusal in the customer's language: "Lo siento, no tengo esa
 *    información." for a Spanish message, "Sorry, I don't have that information." otherwise; when
 *    the instruction also asks to offer a person (WhatsApp), the offer follows.
 * 5. The system prompt holds knowledge excerpts → "From <source>: <first sentence>" of the
 *    excerpt holding the most of the user's key words (see below; the first on a tie). When the system prompt also tells the
 *    model to answer only from the knowledge (prompt.ts ANSWER_FROM_KNOWLEDGE), the brain first
 *    judges, as a model would, whether the excerpts answer the message: the best excerpt (its
 *    source name included) must hold at least half of the message's key words (letters and
 *    digits, accents and case ignored, Spanish and English function words, question words such as
 *    "cuesta" or "horario" and the customer's "vosotros" verbs left out; a word is held when an
 *    excerpt word starts with its first five letters, so "almacén" meets "almacenes").
 *    Otherwise it says it does not know as in rule 4, beginning with the marker the instruction
 *    names ("begin your reply with [UNANSWERED]").
 * 6. Otherwise → "Echo: <last user message>".
 *
 * Knowledge excerpts are recognised in the runtime's format: a line "[N] Source: <name>"
 * followed by the excerpt's text.
 */
import { createHash, randomBytes } from 'node:crypto';

type Content = string | null | undefined | { type?: string; text?: string; image_url?: { url?: string } }[];

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


/** The runtime's refusal instruction (domain/agents/runtime/prompt.ts NO_SUPPORT and NO_SUPPORT_WHATSAPP). */
const NO_SUPPORT = /No passage of the business's documents supports an answer to the customer's last message/;
const OFFER_PERSON = /offer to pass the conversation to a person/;
/** The runtime's "answer only from the knowledge" instruction (prompt.ts ANSWER_FROM_KNOWLEDGE) and the marker it asks for. */
const ANSWER_ONLY_FROM_KNOWLEDGE = /Answer the customer's questions about the business only from/;
const MARKER = /begin your reply with (\S+)/;

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

/** Words that carry no topic of a question, folded (Spanish and English). */
const FUNCTION_WORDS = new Set(
  (
    'que cual cuales quien como cuando cuanto cuanta cuantos cuantas donde por para con sin los las del una uno unos unas ' +
    'el la lo le les se me te nos os mi mis tu tus su sus vuestro vuestra vuestros vuestras nuestro nuestra hay es son esta estan ' +
    'estais estas esto eso ese esa este ser estar tiene tienen teneis tengo tenemos hace haceis hacen puedo puede podeis pueden ' +
    'quiero quisiera saber algo alguna alguno muy mas tambien pero hola gracias favor vale valen cuesta cuestan precio ' +
    'hora horas horario abre abren abrir cierra cierran pasa puedo podria ' +
    'the and are was were is be been do does did you your yours our can could would will what which when where who why how much many ' +
    'any some have has had there this that these those for with from about please hello thanks cost costs price time open opens close'
  ).split(' '),
);
const foldWord = (w: string) => w.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
const wordsOf = (text: string) => (foldWord(text).match(/[\p{L}\p{N}]+/gu) ?? []);
const VOSOTROS = /^(\p{L}{2,}(ais|eis)|abris|pedis|servis|recibis|salis|venis|decis)$/u;
/** The message's key words: 3+ characters, no function words nor the customer's "vosotros" verbs ("abrís", "ofrecéis": documents say "abrimos"). */
const keyWords = (text: string) => [...new Set(wordsOf(text).filter((w) => w.length >= 3 && !FUNCTION_WORDS.has(w) && !VOSOTROS.test(w)))];
/** How many of `words` the excerpt (and its source name) holds, a word meeting any excerpt word that starts with its first five letters. */
function held(excerpt: Excerpt, words: readonly string[]): number {
  const stems = new Set(wordsOf(`${excerpt.source} ${excerpt.text}`).map((w) => w.slice(0, 5)));
  return words.filter((w) => stems.has(w.slice(0, 5))).length;
}

/** The excerpt holding the most of the message's key words (the first on a tie), and how many it holds. */
function bestExcerpt(excerpts: Excerpt[], question: string): { excerpt: Excerpt | undefined; held: number; of: number } {
  const words = keyWords(question);
  let best: Excerpt | undefined;
  let most = -1;
  for (const e of excerpts) {
    const n = held(e, words);
    if (n > most) [best, most] = [e, n];
  }
  return { excerpt: best, held: Math.max(0, most), of: words.length };
}

/** "I don't have that information" in the customer's language, with the offer of a person when the instruction asks for it. */
function refusal(system: string, message: string): string {
  const es = looksSpanish(message);
  const offer = OFFER_PERSON.test(system) ? ` ${es ? REFUSALS.esOffer : REFUSALS.enOffer}` : '';
  return `${es ? REFUSALS.es : REFUSALS.en}${offer}`;
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

export const PHOTO_REPLIES = { en: 'I can see the photo you sent', es: 'Veo la foto que me has enviado' } as const;

/** The sha256 (hex) of the bytes of a base64 data: URL's image, or undefined. */
function imageSha256(url: string | undefined): string | undefined {
  const data = /^data:[^;,]+;base64,(.*)$/.exec(url ?? '')?.[1];
  return data === undefined ? undefined : createHash('sha256').update(Buffer.from(data, 'base64')).digest('hex');
}

export function think(messages: WireMessage[], tools: WireTool[] = [], images: ReadonlyMap<string, string> = new Map()): BrainReply {
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

  // 1b. A photo in the customer's message.
  const lastUserContent = [...messages].reverse().find((m) => m.role === 'user')?.content;
  const photo = Array.isArray(lastUserContent) ? lastUserContent.find((p) => p.type === 'image_url') : undefined;
  if (photo) {
    const description = images.get(imageSha256(photo.image_url?.url) ?? '');
    const lead = looksSpanish(lastUser) ? PHOTO_REPLIES.es : PHOTO_REPLIES.en;
    return reply(description ? `${lead}: ${description}` : `${lead}.`);
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
  if (NO_SUPPORT.test(system)) return reply(refusal(system, lastUser));

  // 5. Knowledge excerpts; told to answer only from them, first whether they answer the message.
  const marker = ANSWER_ONLY_FROM_KNOWLEDGE.test(system) ? MARKER.exec(system)?.[1] : undefined;
  const { excerpt, held: most, of } = bestExcerpt(excerpts, lastUser);
  if (marker && excerpt && of > 0 && most * 2 < of) return reply(`${marker} ${refusal(system, lastUser)}`);
  if (excerpt) return reply(`From ${excerpt.source}: ${firstSentence(excerpt.text)}`);

  // 6. Echo.
  return reply(`Echo: ${lastUser}`);
}
