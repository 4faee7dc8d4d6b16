/**
 * The system prompt of one agent turn: the integration's system prompt, who the agent is (name,
 * description, objective, instructions, knowledge base; empty parts skipped), how to write for
 * the channel, how to use the built-in tools, then the knowledge excerpts retrieved for the
 * customer's message, numbered, with their sources — or, when the agent has knowledge but no
 * passage reached its minimum relevance, the instruction to say it does not know (NO_SUPPORT).
 * An agent with knowledge is also told to answer only from it and to mark a reply that says it does
 * not know (ANSWER_FROM_KNOWLEDGE): the relevance gate lets related passages through, and whether
 * they hold the answer is the model's call (issue 28).
 */
import type { ChatGptSettings } from '../../../contract/integrations.js';
import type { RetrievedChunk } from '../../knowledge/ports.js';
import type { AgentRecord } from '../ports.js';
import { ESCALATE_TO_HUMAN, SEARCH_KNOWLEDGE } from './tools.js';

export type Channel = 'chat' | 'whatsapp' | 'voice';

export const CHANNEL_STYLES: Record<Channel, string> = {
  chat: 'You are answering in a web chat. Be clear, friendly and concise. Light Markdown (short lists, bold) is fine when it helps.',
  whatsapp:
    'You are answering on WhatsApp. Keep replies short, like a text message: plain text, no Markdown, no headings or tables, at most a few short paragraphs.',
  voice:
    'You are speaking on a phone call; your reply will be read aloud. Use short, natural spoken sentences. No Markdown, no lists, no bullet points, no emojis, no URLs. Say numbers and times the way a person would.',
};

/**
 * The refusal instruction (issue 18, honest refusal). Its first sentence is what the fake OpenAI's
 * brain recognises (functions/local/fake-openai/brain.ts): keep them in step.
 */
export const NO_SUPPORT =
  "No passage of the business's documents supports an answer to the customer's last message. " +
  'If neither your instructions nor the knowledge base text above answer it, say that you do not know, in the language the customer wrote in. Do not guess or invent an answer.';
/** Added to NO_SUPPORT on WhatsApp, where a person can take the conversation over. */
export const NO_SUPPORT_WHATSAPP = `Then offer to pass the conversation to a person of the team, and call ${ESCALATE_TO_HUMAN} if the customer accepts.`;
/** What search_knowledge answers when nothing reaches the agent's minimum relevance. */
export const NO_SUPPORT_SEARCH =
  "No passage of the business's documents supports an answer to this query. If your instructions and the knowledge base text do not answer it either, tell the customer you do not know.";

/**
 * What the model begins a reply with when the business's texts do not answer the customer: the
 * runtime removes it (also from a streamed reply) and records the question as unanswered. Plain
 * ASCII in brackets, which models copy exactly.
 */
export const UNANSWERED_MARKER = '[UNANSWERED]';

/**
 * Answer only from what the business wrote (issue 28). Its first sentence is what the fake OpenAI's
 * brain recognises (functions/local/fake-openai/brain.ts), and it reads the marker from "begin your
 * reply with …": keep them in step.
 */
export const ANSWER_FROM_KNOWLEDGE =
  "Answer the customer's questions about the business only from your instructions, the knowledge base text and the excerpts of the business's documents (below, or returned by " +
  `${SEARCH_KNOWLEDGE}). If they do not contain the answer, say that you do not know, in the language the customer wrote in, and begin your reply with ${UNANSWERED_MARKER} ` +
  '(it is removed before the customer sees the reply). Do not guess or invent an answer.';
/** Added to ANSWER_FROM_KNOWLEDGE on WhatsApp (as NO_SUPPORT_WHATSAPP is to NO_SUPPORT). */
export const ANSWER_FROM_KNOWLEDGE_WHATSAPP = `When you say you do not know, offer to pass the conversation to a person of the team, and call ${ESCALATE_TO_HUMAN} if the customer accepts.`;

/** How an excerpt is shown to the model: numbered, with its source name. */
export function formatExcerpts(chunks: readonly RetrievedChunk[], firstNumber = 1): string {
  return chunks
    .map((r, i) => `[${firstNumber + i}] Source: ${r.chunk.sourceName}\n${r.chunk.text.trim()}`)
    .join('\n\n');
}

/** Names of the voice languages, for the reply-language instruction (issue 28). */
const LANGUAGE_NAMES: Record<string, string> = {
  'es-ES': 'Spanish (Spain)',
  'es-MX': 'Spanish (Mexico)',
  'en-US': 'English (United States)',
  'en-GB': 'English (United Kingdom)',
};

/** The instruction to answer in the caller's language (a voice call that switched to it). */
export const replyLanguageInstruction = (code: string) =>
  `Reply in ${LANGUAGE_NAMES[code] ?? code} (${code}): it is the language the customer is speaking, and your reply will be spoken in it.`;

const section = (title: string, text: string) => {
  const t = text.trim();
  return t === '' ? null : `${title}:\n${t}`;
};

export function buildSystemPrompt(input: {
  settings: Pick<ChatGptSettings, 'systemPrompt'>;
  agent: Pick<AgentRecord, 'name' | 'description' | 'objective' | 'instructions' | 'knowledgeBase'>;
  channel: Channel;
  excerpts: readonly RetrievedChunk[];
  /** The agent has knowledge (files, web pages or entries): it answers only from it (ANSWER_FROM_KNOWLEDGE). */
  knowledge?: boolean;
  /** The agent has knowledge but nothing retrieved supports an answer: the refusal instruction instead of excerpts. */
  unsupported?: boolean;
  /** A BCP-47 code the reply must be written in (a multi-language voice call); absent = the customer's language. */
  replyLanguage?: string;
  /** The booking tools' section (booking-tools.ts bookingPrompt): today, the services, the customer's upcoming bookings. */
  bookings?: string;
  /** The WhatsApp tools' section (whatsapp-tools.ts whatsappPrompt): when to send a file, the location, options. */
  whatsappTools?: string;
}): string {
  const { settings, agent, channel, excerpts } = input;
  const parts: (string | null)[] = [];
  parts.push(settings.systemPrompt.trim() || null);
  const name = agent.name.trim();
  parts.push(name ? `You are ${name}, an AI agent answering customers on behalf of a business.` : 'You are an AI agent answering customers on behalf of a business.');
  parts.push(section('About you', agent.description));
  parts.push(section('Your objective', agent.objective));
  parts.push(section('Instructions', agent.instructions));
  parts.push(section('Knowledge base', agent.knowledgeBase));
  parts.push(CHANNEL_STYLES[channel]);
  parts.push(input.replyLanguage ? replyLanguageInstruction(input.replyLanguage) : null);
  parts.push(
    `Use ${SEARCH_KNOWLEDGE} when you need facts from the business's documents or web pages that are not below. ` +
      `Use ${ESCALATE_TO_HUMAN} when the customer asks for a person or you cannot help. ` +
      'Never invent facts, prices or policies: if you do not know, say so.',
  );
  parts.push(input.bookings?.trim() || null);
  parts.push(input.whatsappTools?.trim() || null);
  // On WhatsApp the offer of a person comes once: with NO_SUPPORT when nothing supports an answer.
  if (input.knowledge) parts.push(channel === 'whatsapp' && !input.unsupported ? `${ANSWER_FROM_KNOWLEDGE} ${ANSWER_FROM_KNOWLEDGE_WHATSAPP}` : ANSWER_FROM_KNOWLEDGE);
  if (input.unsupported) {
    parts.push(channel === 'whatsapp' ? `${NO_SUPPORT} ${NO_SUPPORT_WHATSAPP}` : NO_SUPPORT);
  } else if (excerpts.length > 0) {
    parts.push(`Relevant excerpts from the knowledge sources (cite the source when you use one):\n\n${formatExcerpts(excerpts)}`);
  }
  return parts.filter((p): p is string => p !== null).join('\n\n');
}
