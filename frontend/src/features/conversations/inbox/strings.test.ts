import { describe, expect, it } from 'vitest';
import { inboxMessages, whatsappMessages } from '@agentdesk/functions/contract';
import { keyPaths as keys } from '../../../i18n/keyPaths';
import en from './i18n/en.json';
import es from './i18n/es.json';
import esServer from './i18n/es-server.json';

describe('inbox strings (issue 17)', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('translates the inbox settings’ server texts (same English as the contract) and the takeover’s server messages', () => {
    for (const key of Object.keys(en.messages) as Array<keyof typeof en.messages>) {
      expect(en.messages[key], key).toBe(inboxMessages[key]);
      expect(es.messages[key], key).not.toBe(en.messages[key]);
    }
    for (const key of ['aiResumed', 'assigneeInvalid', 'assigneeFilterInvalid'] as const) {
      expect(esServer, key).toHaveProperty([whatsappMessages[key]]);
    }
  });

  it('says who answers in Spanish as the customers read it', () => {
    expect([es.header.ai, es.header.human, es.header.returnToAi, es.header.resumesAt, es.header.assignToMe, es.filter.mine, es.filter.none]).toEqual([
      'Responde la IA',
      'Responde una persona',
      'Devolver a la IA',
      'La IA retoma el {{time}}',
      'Asignar a mí',
      'Mías',
      'Sin asignar',
    ]);
  });
});
