import { describe, expect, it } from 'vitest';
import { applyContactMessages, voiceMessages } from '@agentdesk/functions/contract';
import en from './i18n/calls.en.json';
import es from './i18n/calls.es.json';
import esServer from './i18n/calls.es-server.json';
import { keyPaths as keys } from '../../i18n/keyPaths';

describe('call log strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the spec texts exact (SPEC §2, §8)', () => {
    expect(en.list.empty).toBe('No voice conversations found');
    expect(en.list.loadFailed).toBe('Failed to load voice conversations');
    expect(en.list.unknown).toBe('Unknown');
    // SPEC's text for many results; one result reads 'of 1 result' (issue 29: plurals by ICU rules).
    expect(en.pagination.showing_other).toBe('Showing {{from}} to {{to}} of {{count}} results');
    expect(en.pagination.showing_one).toBe('Showing {{from}} to {{to}} of {{count}} result');
    expect(en.detail.loadFailed).toBe('Failed to load voice conversation details');
    expect(en.detail.notFound).toBe(voiceMessages.callNotFound);
    expect(en.detail.viewContact).toBe('View Contact Details');
    expect(en.detail.openWhatsApp).toBe('Open WhatsApp');
    expect(en.detail.analysis).toBe('AI Analysis');
    expect(en.detail.applied).toBe(voiceMessages.contactApplied);
  });

  it('names the response times and the interrupted answers in both languages (issue 16)', () => {
    expect(es.latency.interrupted).toBe('Interrumpido');
    expect(es.detail.interrupted).toBe('Interrumpido');
    expect(en.latency.interrupted).toBe('Interrupted');
    expect(Object.keys(en.modes)).toEqual(['streaming', 'gather']);
    expect(Object.keys(en.modeNames)).toEqual(['streaming', 'gather']);
  });

  it('names the apply-to-contact dialog in both languages (issue 17)', () => {
    expect([es.applyContact.title, es.applyContact.current, es.applyContact.proposed, es.applyContact.undo, es.applyContact.updated]).toEqual([
      'Aplicar al contacto',
      'Actual',
      'Propuesto',
      'Deshacer',
      'Contacto actualizado',
    ]);
    expect([en.applyContact.title, en.applyContact.current, en.applyContact.proposed, en.applyContact.undo, en.applyContact.updated]).toEqual([
      'Apply to contact',
      'Current',
      'Proposed',
      'Undo',
      'Contact updated',
    ]);
    expect(Object.keys(en.applyContact.fields)).toEqual(['name', 'email', 'phoneNumber', 'web']);
    for (const text of Object.values(applyContactMessages)) expect(esServer).toHaveProperty([text]);
  });

  it('translates the call logs server messages', () => {
    for (const text of [voiceMessages.callNotFound, voiceMessages.noSummary, voiceMessages.noExtractedContact, voiceMessages.contactApplied, voiceMessages.noRecording]) {
      expect(esServer).toHaveProperty([text]);
    }
  });
});
