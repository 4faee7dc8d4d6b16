/**
 * The AI-improve instructions (POST /api/integrations/chatgpt/ask promptId), one per agent text
 * field. Each is the system message; the user's text is the user message, unchanged.
 */
import type { AiPromptId } from '../../contract/integrations.js';

const COMMON =
  'Write in the same language as the text. Keep every fact, name, number and link; never invent new ones. ' +
  'Return only the improved text: no title, no quotes, no comments about the changes.';

export const AI_PROMPTS: Record<AiPromptId, string> = {
  'improve-description':
    "Improve this description of an AI customer-service agent (who it is and which business it represents) so it is clear, specific and professional, in two or three sentences.",
  'improve-objective':
    'Improve this objective of an AI customer-service agent (what it must achieve in its conversations) so it is concrete, measurable and easy to follow.',
  'improve-instructions':
    'Improve these instructions for an AI customer-service agent (how it must behave and answer) so they are clear, unambiguous and ordered; use short imperative sentences or a short list.',
  'improve-knowledge-base':
    'Improve this knowledge base of an AI customer-service agent (facts it can use: products, prices, opening hours, policies) so it is well organised and easy to look up; group related facts.',
  'improve-text': 'Improve this text so it is clear, correct and professional.',
};

export function improvementInstruction(promptId: AiPromptId, maxLength?: number): string {
  const limit = maxLength ? ` The result must be at most ${maxLength} characters long.` : '';
  return `${AI_PROMPTS[promptId]} ${COMMON}${limit}`;
}

/** The model's answer as the field's new value: unquoted, trimmed, within maxLength (cut at a word). */
export function cleanImprovedText(text: string, maxLength?: number): string {
  let out = text.trim();
  const quoted = /^(["'“”«])([\s\S]*)(["'“”»])$/.exec(out);
  if (quoted) out = quoted[2]!.trim();
  if (maxLength && out.length > maxLength) {
    const cut = out.slice(0, maxLength);
    const space = cut.search(/\s\S*$/);
    out = (space > maxLength * 0.6 ? cut.slice(0, space) : cut).trimEnd();
  }
  return out;
}
