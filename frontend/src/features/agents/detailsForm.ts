/**
 * The Agent Details edit form (SPEC §5 agent rules, from the contract's agentDetailsForm so the
 * messages are the server's) and its AI-improve actions (SPEC §4: idle → loading → improved).
 */
import type * as z from 'zod/mini';
import {
  AGENT_LIMITS,
  agentDetailsForm,
  integrationMessages,
  type Agent,
  type AiPromptId,
  type UpdateAgentInput,
} from '@agentdesk/functions/contract';

export { agentDetailsForm };
export type AgentFormInput = z.input<typeof agentDetailsForm>;
export type AgentFormValues = z.output<typeof agentDetailsForm>;

export function formFromAgent(agent: Agent): AgentFormInput {
  return {
    name: agent.name ?? '',
    description: agent.description ?? '',
    objective: agent.objective ?? '',
    instructions: agent.instructions ?? '',
    knowledgeBase: agent.knowledgeBase ?? '',
    priority: String(agent.priority ?? 0),
  };
}

/** PUT /api/agents/{id} body of the edit form (SPEC §7: name, description, objective, instructions, priority, knowledgeBase). */
export function updateFromForm(values: AgentFormValues): UpdateAgentInput {
  return {
    name: values.name,
    description: values.description,
    objective: values.objective,
    instructions: values.instructions,
    knowledgeBase: values.knowledgeBase,
    priority: values.priority,
  };
}

/** The text fields with an AI-improve action, the /ask prompt of each and the field's limit. */
export const IMPROVABLE_FIELDS = {
  description: { promptId: 'improve-description', maxLength: AGENT_LIMITS.description },
  objective: { promptId: 'improve-objective', maxLength: AGENT_LIMITS.objective },
  instructions: { promptId: 'improve-instructions', maxLength: AGENT_LIMITS.instructions },
  knowledgeBase: { promptId: 'improve-knowledge-base', maxLength: AGENT_LIMITS.knowledgeBase },
} as const satisfies Record<string, { promptId: AiPromptId; maxLength: number }>;
export type ImprovableField = keyof typeof IMPROVABLE_FIELDS;

export const FIELD_LIMITS = {
  name: AGENT_LIMITS.name,
  description: AGENT_LIMITS.description,
  objective: AGENT_LIMITS.objective,
  instructions: AGENT_LIMITS.instructions,
  knowledgeBase: AGENT_LIMITS.knowledgeBase,
} as const;

export type ImproveState = 'idle' | 'loading' | 'improved';

/** Why an AI-improve click cannot run (SPEC §5, exact texts), or null when it can. */
export function improveBlocker(text: string, integrationActive: boolean): string | null {
  if (!integrationActive) return integrationMessages.chatgptRequired;
  if (text.trim() === '') return integrationMessages.textRequired;
  return null;
}

/** The /ask body for one field. */
export function askInput(field: ImprovableField, text: string): { text: string; promptId: AiPromptId; maxLength: number } {
  const { promptId, maxLength } = IMPROVABLE_FIELDS[field];
  return { text: text.trim(), promptId, maxLength };
}
