import { describe, expect, it } from 'vitest';
import type { IntegrationView } from '@agentdesk/functions/contract';
import { chatGptForm, clampTemperature, creativityOf, formFromIntegration, setupBody, wordsForTokens } from './chatgptForm';
import { hasStoredSecret } from './secretForm';

const stored: IntegrationView = {
  _id: 'i1',
  type: 'chatgpt',
  isActive: true,
  credentials: { apiKey: '***' },
  settings: { model: 'gpt-4o', maxTokens: 500, temperature: 1.2, systemPrompt: 'Be brief', baseUrl: '' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function messages(hasKey: boolean, input: unknown): string[] {
  const result = chatGptForm(hasKey).safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('ChatGPT setup form', () => {
  it('starts from the spec defaults without an integration', () => {
    expect(formFromIntegration(null)).toEqual({ apiKey: '', model: 'gpt-4.1-mini', maxTokens: 1000, temperature: 0.7, systemPrompt: '', baseUrl: '' });
  });

  it('starts from the stored settings, the key masked', () => {
    expect(hasStoredSecret(stored, 'apiKey')).toBe(true);
    expect(formFromIntegration(stored)).toEqual({ apiKey: '***', model: 'gpt-4o', maxTokens: 500, temperature: 1.2, systemPrompt: 'Be brief', baseUrl: '' });
  });

  it('requires a key only when none is stored', () => {
    const values = formFromIntegration(null);
    expect(messages(false, values)).toEqual(['API key is required']);
    expect(messages(true, { ...values, apiKey: '***' })).toEqual([]);
    expect(messages(false, { ...values, apiKey: 'sk-test' })).toEqual([]);
  });

  it('checks max tokens, temperature and the base URL with the spec messages', () => {
    const values = { ...formFromIntegration(null), apiKey: 'sk-test' };
    expect(messages(false, { ...values, maxTokens: '0' })).toEqual(['Max tokens must be between 1 and 4000']);
    expect(messages(false, { ...values, maxTokens: 4001 })).toEqual(['Max tokens must be between 1 and 4000']);
    expect(messages(false, { ...values, temperature: 2.1 })).toEqual(['Temperature must be between 0 and 2']);
    expect(messages(false, { ...values, temperature: 0.75 })).toEqual(['Temperature must be in steps of 0.1']);
    expect(messages(false, { ...values, baseUrl: 'ftp://x' })).toEqual(['API base URL must be an http(s) URL']);
    expect(chatGptForm(false).parse({ ...values, maxTokens: '250' }).maxTokens).toBe(250);
  });

  it('rounds a typed temperature to the 0.1 step within 0–2', () => {
    expect(clampTemperature(0.74)).toBe(0.7);
    expect(clampTemperature(5)).toBe(2);
    expect(clampTemperature(-1)).toBe(0);
    expect(clampTemperature(Number.NaN)).toBe(0.7);
  });

  it('keeps a stored key when the field was left empty', () => {
    const parsed = chatGptForm(true).parse({ ...formFromIntegration(stored), apiKey: '' });
    expect(setupBody(parsed).apiKey).toBe('***');
  });
});

describe('model knobs in words (issue 29)', () => {
  it('names a temperature as precise, balanced or creative', () => {
    expect([0, 0.3, 0.4, 0.7, 1, 1.1, 2, Number.NaN].map(creativityOf)).toEqual(['precise', 'precise', 'balanced', 'balanced', 'balanced', 'creative', 'creative', 'precise']);
  });

  it('turns a response length in tokens into about how many words', () => {
    expect(wordsForTokens(1000)).toBe(750);
    expect(wordsForTokens(4000)).toBe(3000);
    expect(wordsForTokens(333)).toBe(250);
    expect(wordsForTokens(50)).toBe(38);
    expect(wordsForTokens(1)).toBe(1);
    expect(wordsForTokens(Number.NaN)).toBe(1);
  });
});
