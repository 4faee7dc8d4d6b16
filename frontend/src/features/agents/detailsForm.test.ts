import { describe, expect, it } from 'vitest';
import type { Agent } from '@agentdesk/functions/contract';
import { agentDetailsForm, askInput, formFromAgent, improveBlocker, updateFromForm } from './detailsForm';

const agent: Agent = {
  _id: 'a1',
  name: 'Sales',
  description: 'Answers pricing questions',
  objective: 'Book demos',
  instructions: '',
  knowledgeBase: '',
  priority: 3,
  enabled: true,
  language: 'es',
  minRelevance: 0.35,
  bookingsEnabled: false,
  whatsappTools: { sendFiles: false, sendLocation: false, offerChoices: false },
  files: [],
  urls: [],
  tools: [],
  entries: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function messages(input: unknown): string[] {
  const result = agentDetailsForm.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('agent details form', () => {
  it('round-trips an agent into the PUT body', () => {
    const parsed = agentDetailsForm.parse(formFromAgent(agent));
    expect(updateFromForm(parsed)).toEqual({
      name: 'Sales',
      description: 'Answers pricing questions',
      objective: 'Book demos',
      instructions: '',
      knowledgeBase: '',
      priority: 3,
    });
  });

  it('reports the spec messages', () => {
    const base = formFromAgent(agent);
    expect(messages({ ...base, name: '  ' })).toEqual(['Name is required']);
    expect(messages({ ...base, name: 'x'.repeat(21) })).toEqual(['Name must be 20 characters or less']);
    expect(messages({ ...base, description: '' })).toEqual(['Description is required']);
    expect(messages({ ...base, objective: 'x'.repeat(601) })).toEqual(['Objective must be 600 characters or less']);
    expect(messages({ ...base, knowledgeBase: 'x'.repeat(3001) })).toEqual(['Knowledge base must be 3000 characters or less']);
    expect(messages({ ...base, priority: '11' })).toEqual(['Priority must be between 0 and 10']);
    expect(messages({ ...base, priority: '' })).toEqual(['Priority must be between 0 and 10']);
    expect(messages({ ...base, priority: '1.5' })).toEqual(['Priority must be between 0 and 10']);
  });
});

describe('AI improve', () => {
  it('needs the integration first, then some text', () => {
    expect(improveBlocker('hello', false)).toBe('ChatGPT integration is required for AI improvements');
    expect(improveBlocker('   ', true)).toBe('Please enter some text before using AI improvement');
    expect(improveBlocker('hello', true)).toBeNull();
  });

  it('asks with the field prompt and limit', () => {
    expect(askInput('knowledgeBase', ' facts ')).toEqual({ text: 'facts', promptId: 'improve-knowledge-base', maxLength: 3000 });
    expect(askInput('description', 'x')).toMatchObject({ promptId: 'improve-description', maxLength: 500 });
    expect(askInput('objective', 'x')).toMatchObject({ promptId: 'improve-objective', maxLength: 600 });
    expect(askInput('instructions', 'x')).toMatchObject({ promptId: 'improve-instructions', maxLength: 600 });
  });
});
