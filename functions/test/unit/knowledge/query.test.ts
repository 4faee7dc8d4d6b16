import { describe, expect, it } from 'vitest';
import { isFollowUp, searchQueryFor } from '../../../src/domain/knowledge/query.js';

const user = (content: string) => ({ role: 'user' as const, content });
const assistant = (content: string) => ({ role: 'assistant' as const, content });

describe('searchQueryFor', () => {
  it('rewrites "¿y los sábados?" after a question about Friday hours, the weekday replaced', () => {
    const history = [user('¿A qué hora abrís el viernes?'), assistant('El viernes abrimos de 9:00 a 15:00.')];
    expect(searchQueryFor('¿y los sábados?', history, 'es')).toBe('¿y los sábados? hora abrís');
  });

  it('rewrites an English follow-up the same way', () => {
    const history = [user('What time do you open on Friday?'), assistant('From 9 to 3.')];
    expect(searchQueryFor('and on Saturdays?', history, 'en')).toBe('and on Saturdays? time open');
  });

  it('carries the subject into a question that only asks "how much"', () => {
    const history = [user('¿Hacéis blanqueamiento dental?'), assistant('Sí.')];
    expect(searchQueryFor('¿y cuánto cuesta?', history, 'es')).toBe('¿y cuánto cuesta? blanqueamiento dental');
    expect(searchQueryFor('¿Cuánto cuesta?', history, 'es')).toBe('¿Cuánto cuesta? blanqueamiento dental');
    expect(searchQueryFor('How much is it?', [user('Do you rent electric bikes?')], 'en')).toBe('How much is it? rent electric bikes');
  });

  it('follows a chain of follow-ups back to the question with a subject', () => {
    const history = [user('¿Cuánto cuesta la limpieza dental?'), assistant('45 €.'), user('¿y el blanqueamiento?'), assistant('250 €.')];
    expect(searchQueryFor('¿y cuánto dura?', history, 'es')).toBe('¿y cuánto dura? blanqueamiento cuesta limpieza dental');
  });

  it('leaves a question with its own subject alone, so an unrelated question borrows nothing', () => {
    const history = [user('¿A qué hora abrís el viernes?'), assistant('De 9:00 a 15:00.')];
    expect(searchQueryFor('¿Tenéis aparcamiento para clientes?', history, 'es')).toBe('¿Tenéis aparcamiento para clientes?');
    expect(searchQueryFor('Do you accept credit cards for the deposit?', [user('When do you open?')], 'en')).toBe(
      'Do you accept credit cards for the deposit?',
    );
  });

  it('returns the message itself without history, and skips the current message when history ends with it', () => {
    expect(searchQueryFor('¿y los sábados?', [], 'es')).toBe('¿y los sábados?');
    const history = [user('¿A qué hora abrís el viernes?'), assistant('De 9 a 15.'), user('¿y los sábados?')];
    expect(searchQueryFor('¿y los sábados?', history, 'es')).toBe('¿y los sábados? hora abrís');
  });

  it('tells follow-ups from standalone questions', () => {
    expect(isFollowUp('¿Y el domingo?', 'es')).toBe(true);
    expect(isFollowUp('y eso cuanto vale', 'es')).toBe(true);
    expect(isFollowUp('what about Sundays?', 'en')).toBe(true);
    expect(isFollowUp('¿Cuánto cuesta una endodoncia molar?', 'es')).toBe(false);
    expect(isFollowUp('Is there a discount for groups of ten or more riders?', 'en')).toBe(false);
  });
});
