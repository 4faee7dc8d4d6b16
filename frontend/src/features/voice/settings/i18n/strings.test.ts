import { describe, expect, it } from 'vitest';
import { voiceMessages } from '@agentdesk/functions/contract';
import en from './en.json';
import es from './es.json';
import { keyPaths as keys } from '../../../../i18n/keyPaths';

describe('voice settings strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the spec texts exact (SPEC §2, §5, §8, §9)', () => {
    expect(en.actions.reset).toBe('Reset to Defaults');
    expect(en.actions.save).toBe('Save Settings');
    expect(en.actions.resetConfirm).toBe('Are you sure you want to reset all voice settings to defaults?');
    expect(en.phone.cancelConfirm).toBe('Are you sure you want to cancel your phone number request?');
    expect(en.phone.waitNote).toContain('96 hours');
    expect(en.methodNotes.whatsapp).toContain('24-hour window');
    expect(Object.values(en.toasts)).toEqual([
      'Failed to load voice settings',
      'Failed to update voice settings',
      'Failed to reset voice settings',
      'Voice settings updated successfully',
      'Voice settings reset to defaults',
    ]);
    expect([en.phone.requested, en.phone.cancelled, en.phone.requestFailed, en.phone.cancelFailed]).toEqual([
      'Phone number request submitted successfully',
      'Phone number request cancelled successfully',
      'Failed to submit phone number request',
      'Failed to cancel phone number request',
    ]);
    expect(Object.keys(en.methods)).toEqual(['disabled', 'email', 'whatsapp', 'webhook']);
    expect(Object.keys(en.conversationModes)).toEqual(['streaming', 'streamingHint', 'gather', 'gatherHint']);
    expect([es.conversationModes.streaming, es.conversationModes.gather]).toEqual(['Respuesta en tiempo real (recomendado)', 'Modo clásico (esperar la frase completa)']);
  });

  it('translates the contract texts keyed like voiceMessages, and the per-field labels the schema uses', () => {
    for (const [key, text] of Object.entries(en.messages)) {
      expect((voiceMessages as Record<string, unknown>)[key], key).toBe(text);
    }
    for (const label of Object.keys(en.labels)) {
      expect(en.labelMessages.messageRequired.replace('{{label}}', label)).toBe(voiceMessages.messageRequired(label));
      expect(en.labelMessages.numberInvalid.replace('{{label}}', label)).toBe(voiceMessages.numberInvalid(label));
    }
  });
});
