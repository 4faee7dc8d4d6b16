import { describe, expect, it } from 'vitest';
import { agentMessages, integrationMessages, voiceMessages, whatsappMessages } from '@agentdesk/functions/contract';
import en from './i18n/apiTexts.en.json';
import es from './i18n/apiTexts.es.json';
import { keyPaths as keys } from '../i18n/keyPaths';

describe('API texts (integrations, agents, WhatsApp, Twilio contract messages)', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('mirrors the contract messages it translates, and covers every integration message', () => {
    for (const [key, text] of Object.entries(en.agents.messages)) expect(agentMessages, key).toHaveProperty(key, text);
    expect(en.integrations.messages).toEqual(integrationMessages);
    for (const key of ['nameRequired', 'nameTooLong', 'descriptionRequired', 'descriptionTooLong', 'objectiveRequired', 'objectiveTooLong', 'instructionsTooLong', 'knowledgeBaseTooLong', 'priorityRange']) {
      expect(en.agents.messages, key).toHaveProperty(key);
    }
  });

  it('translates the WhatsApp contract texts it shows, keyed like whatsappMessages', () => {
    for (const [key, text] of Object.entries(en.integrations.whatsapp.messages)) {
      expect((whatsappMessages as Record<string, unknown>)[key], key).toBe(text);
      expect((es.integrations.whatsapp.messages as Record<string, string>)[key], key).toBeTruthy();
    }
  });

  it('translates the Twilio contract texts keyed like voiceMessages', () => {
    for (const [key, text] of Object.entries(en.integrations.twilio.messages)) {
      expect((voiceMessages as Record<string, unknown>)[key], key).toBe(text);
    }
  });
});
