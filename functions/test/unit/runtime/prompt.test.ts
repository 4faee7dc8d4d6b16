import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, CHANNEL_STYLES } from '../../../src/domain/agents/runtime/prompt.js';
import { agent, chunk, settings } from './fakes.js';

describe('buildSystemPrompt', () => {
  it('puts the integration prompt first, then the agent, the channel style, then numbered excerpts with sources', () => {
    // Arrange
    const excerpts = [
      { chunk: chunk('Whitening costs 200 EUR.', { sourceName: 'prices.pdf' }), score: 0.9, relevance: 0.9 },
      { chunk: chunk('We are open on Saturdays in June.', { sourceName: 'https://acme.example/hours', sourceKind: 'url' }), score: 0.5, relevance: 0.5 },
    ];

    // Act
    const prompt = buildSystemPrompt({ settings: settings(), agent: agent(), channel: 'chat', excerpts });

    // Assert
    const order = [
      'You work for Acme Dental.',
      'You are Sonia',
      'Receptionist of a dental clinic',
      'Book appointments and answer questions about treatments',
      'Always confirm the date back to the customer',
      'Opening hours: Mon–Fri 9:00–18:00',
      CHANNEL_STYLES.chat,
      '[1] Source: prices.pdf\nWhitening costs 200 EUR.',
      '[2] Source: https://acme.example/hours\nWe are open on Saturdays in June.',
    ].map((part) => prompt.indexOf(part));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt.startsWith('You work for Acme Dental.')).toBe(true);
  });

  it('skips empty parts (no system prompt, blank instructions and knowledge base, no excerpts)', () => {
    const prompt = buildSystemPrompt({
      settings: settings({ systemPrompt: '   ' }),
      agent: agent({ instructions: '', knowledgeBase: '  \n ' }),
      channel: 'chat',
      excerpts: [],
    });

    expect(prompt.startsWith('You are Sonia')).toBe(true);
    expect(prompt).not.toContain('Instructions:');
    expect(prompt).not.toContain('Knowledge base:');
    expect(prompt).not.toContain('excerpts');
    expect(prompt).not.toMatch(/\n\n\n/);
    expect(prompt).toContain('About you:\nReceptionist of a dental clinic');
  });

  it.each([
    ['voice', /short, natural spoken sentences/, /No Markdown, no lists/],
    ['whatsapp', /short/, /plain text, no Markdown/],
    ['chat', /web chat/, /Markdown .* is fine/],
  ] as const)('%s: has its channel style', (channel, a, b) => {
    const prompt = buildSystemPrompt({ settings: settings(), agent: agent(), channel, excerpts: [] });
    expect(prompt).toMatch(a);
    expect(prompt).toMatch(b);
    for (const other of Object.keys(CHANNEL_STYLES).filter((c) => c !== channel)) {
      expect(prompt).not.toContain(CHANNEL_STYLES[other as keyof typeof CHANNEL_STYLES]);
    }
  });
});
