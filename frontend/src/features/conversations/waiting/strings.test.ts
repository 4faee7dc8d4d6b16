import { describe, expect, it } from 'vitest';
import { NO_ANSWER_REASONS, noAnswerMessages } from '@agentdesk/functions/contract';
import { keyPaths as keys } from '../../../i18n/keyPaths';
import en from './i18n/en.json';
import es from './i18n/es.json';
import esServer from './i18n/es-server.json';

describe('no answer sent strings (issue 34)', () => {
  it('has every English key in Spanish too, and words for every reason', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    expect(Object.keys(en.reasons).sort()).toEqual([...NO_ANSWER_REASONS].sort());
  });

  it('translates the answer action’s server messages', () => {
    for (const text of Object.values(noAnswerMessages)) expect(esServer, text).toHaveProperty([text]);
  });

  it('says it in Spanish as the owners read it', () => {
    expect([es.marker.replace('{{reason}}', es.reasons.unavailable), es.marker.replace('{{reason}}', es.reasons.credentials), es.answer]).toEqual([
      'Sin respuesta enviada — modelo no disponible',
      'Sin respuesta enviada — se rechazó la clave de la IA',
      'Responder mensajes pendientes',
    ]);
    expect([en.marker.replace('{{reason}}', en.reasons.unavailable), en.answer]).toEqual(['No answer sent — model unavailable', 'Answer waiting messages']);
  });
});
