import { describe, expect, it } from 'vitest';
import { savedReplyMessages } from '@agentdesk/functions/contract';
import en from './i18n/en.json';
import es from './i18n/es.json';
import { keyPaths as keys } from '../../../i18n/keyPaths';

describe('saved replies strings', () => {
  it('translates every contract text (the function ones aside), keyed like savedReplyMessages, with the exact English', () => {
    const textKeys = Object.entries(savedReplyMessages)
      .filter(([, v]) => typeof v === 'string')
      .map(([k]) => k);
    expect(Object.keys(en.messages).sort()).toEqual(textKeys.sort());
    for (const [key, text] of Object.entries(en.messages)) expect((savedReplyMessages as Record<string, unknown>)[key], key).toBe(text);
  });

  it('has every key in Spanish, each message translated, with the issue’s words', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    for (const key of Object.keys(es.messages) as (keyof typeof es.messages)[]) expect(es.messages[key], key).not.toBe(en.messages[key]);
    expect([es.title, es.add, es.form.title, es.form.text]).toEqual(['Respuestas guardadas', 'Añadir respuesta', 'Título', 'Texto']);
  });
});
