import { describe, expect, it } from 'vitest';
import { parseRelayFrame } from '../../../src/contract/voice-relay.js';
import { clauseSplitter } from '../../../src/domain/voice/relay/clauses.js';

describe('clause splitter', () => {
  it('sends the first piece at once, then whole clauses, not word by word', () => {
    const s = clauseSplitter();
    expect(s.push('Hola')).toEqual(['Hola']);
    expect(s.push(',')).toEqual([]);
    expect(s.push(' soy')).toEqual([]);
    expect(s.push(' Sonia.')).toEqual([]);
    expect(s.push(' ¿En')).toEqual([', soy Sonia.']);
    expect(s.push(' qué puedo ayudarle?')).toEqual([]);
    expect(s.flush()).toBe(' ¿En qué puedo ayudarle?');
    expect(s.spoken).toBe('Hola, soy Sonia. ¿En qué puedo ayudarle?');
  });

  it('joins a first piece that ends mid-word without a space, and keeps the model’s own spaces', () => {
    const s = clauseSplitter();
    expect(s.push('Ho')).toEqual(['Ho']);
    expect(s.push('la, ¿qué tal?')).toEqual([]);
    expect(s.flush()).toBe('la, ¿qué tal?');
    expect(s.spoken).toBe('Hola, ¿qué tal?');
    const spaced = clauseSplitter();
    expect(spaced.push('Claro ')).toEqual(['Claro']);
    expect(spaced.flush()).toBe('');
    spaced.push('que sí.');
    expect(spaced.flush()).toBe(' que sí.');
    expect(spaced.spoken).toBe('Claro que sí.');
  });

  it('cuts at a comma only once the clause is long enough, and a long run without punctuation at a space', () => {
    const s = clauseSplitter();
    expect(s.push('Vale. ')).toEqual(['Vale.']);
    expect(s.push('Sí, claro, ')).toEqual([]);
    expect(s.push('tenemos mesas libres para esta noche, ')).toEqual([' Sí, claro, tenemos mesas libres para esta noche,']);
    const long = clauseSplitter();
    long.push('Bueno');
    const tokens = long.push(` ${'palabra '.repeat(30)}fin`);
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.length).toBeLessThanOrEqual(240);
    expect(long.flush()).toBe(' fin');
  });

  it('cleans markdown for speech and keeps numbers with decimals whole', () => {
    const s = clauseSplitter();
    expect(s.push('Cuesta **3.5** euros. ')).toEqual(['Cuesta 3.5 euros.']);
    expect(s.push('Vea [la carta](https://x.example/carta). ')).toEqual([' Vea la carta.']);
  });

  it('puts our own sentences after what is buffered', () => {
    const s = clauseSplitter();
    expect(s.push('Voy')).toEqual(['Voy']);
    s.push(' a mirarlo');
    expect(s.interject('Un momento, por favor.')).toEqual({ before: [' a mirarlo'], own: [' Un momento, por favor.'] });
    expect(s.flush()).toBe('');
    expect(s.spoken).toBe('Voy a mirarlo Un momento, por favor.');
  });
});

describe('ConversationRelay frames', () => {
  it('parses the messages Twilio sends, ignoring unknown fields', () => {
    expect(parseRelayFrame(JSON.stringify({ type: 'prompt', voicePrompt: 'hola', lang: 'es-ES', last: true, extra: 1 }))).toEqual({ type: 'prompt', voicePrompt: 'hola', lang: 'es-ES', last: true });
    expect(parseRelayFrame(JSON.stringify({ type: 'interrupt', utteranceUntilInterrupt: 'Hola', durationUntilInterruptMs: 300 }))).toMatchObject({ type: 'interrupt' });
    expect(parseRelayFrame(JSON.stringify({ type: 'dtmf', digit: '#' }))).toEqual({ type: 'dtmf', digit: '#' });
    expect(parseRelayFrame(JSON.stringify({ type: 'setup', sessionId: 'VX1', callSid: 'CA1', accountSid: 'AC1', customParameters: { a: 'b' } }))).toMatchObject({ type: 'setup', callSid: 'CA1' });
    expect(parseRelayFrame(JSON.stringify({ type: 'error', description: 'Invalid message' }))).toEqual({ type: 'error', description: 'Invalid message' });
  });

  it('refuses what is not one of them', () => {
    for (const body of ['', 'nope', '[]', '{"type":"dtmf","digit":"11"}', '{"type":"prompt"}', '{"type":"text","token":"x"}', 'x'.repeat(70_000)]) {
      expect(parseRelayFrame(body)).toBeNull();
    }
  });
});
