/** Integrations domain pieces: masking of sealed credentials, stored settings, AI-improve text rules. */
import { describe, expect, it } from 'vitest';
import { cleanImprovedText, improvementInstruction } from '../../../src/domain/integrations/ai-prompts.js';
import { chatgptSettings, toView } from '../../../src/domain/integrations/view.js';

describe('integration view', () => {
  it('masks sealed credentials and keeps plain ones', () => {
    const view = toView({
      id: 'i1',
      userId: 'u1',
      type: 'twilio-voice',
      isActive: true,
      credentials: { authToken: 'v1:kms:abc:def:ghi', accountSid: 'AC123', localToken: 'v1:local:x:y' },
      settings: { any: 1 },
      createdAt: 'c',
      updatedAt: 'u',
    });

    expect(view.credentials).toEqual({ authToken: '***', accountSid: 'AC123', localToken: '***' });
    expect(view).not.toHaveProperty('userId');
    expect(view.settings).toEqual({ any: 1 });
  });

  it('reads stored ChatGPT settings with defaults for anything missing or out of range', () => {
    // Issue 29: the default is a current model; a stored older one stays as it is.
    expect(chatgptSettings({})).toEqual({ model: 'gpt-4.1-mini', maxTokens: 1000, temperature: 0.7, systemPrompt: '', baseUrl: '' });
    expect(chatgptSettings({ model: 'gpt-3.5-turbo' }).model).toBe('gpt-3.5-turbo');
    expect(chatgptSettings({ model: 'gpt-5', maxTokens: 99999, temperature: 1.5, systemPrompt: 'Hi', baseUrl: 'https://x/v1' })).toEqual({
      model: 'gpt-5',
      maxTokens: 1000,
      temperature: 1.5,
      systemPrompt: 'Hi',
      baseUrl: 'https://x/v1',
    });
  });
});

describe('AI-improve text', () => {
  it('asks to keep the facts and the language, and states the length limit', () => {
    const text = improvementInstruction('improve-knowledge-base', 3000);

    expect(text).toContain('knowledge base');
    expect(text).toContain('never invent new ones');
    expect(text).toContain('same language');
    expect(text).toContain('at most 3000 characters');
    expect(improvementInstruction('improve-text')).not.toContain('at most');
  });

  it('unquotes, trims and cuts the answer at a word within the limit', () => {
    expect(cleanImprovedText('  "We sell shoes."  ')).toBe('We sell shoes.');
    expect(cleanImprovedText('We sell handmade leather shoes', 20)).toBe('We sell handmade');
    expect(cleanImprovedText('Supercalifragilistic', 10)).toBe('Supercalif');
    expect(cleanImprovedText('short', 20)).toBe('short');
  });
});
