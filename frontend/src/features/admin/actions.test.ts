import { describe, expect, it } from 'vitest';
import { voiceMessages } from '@agentdesk/functions/contract';
import en from './i18n/en.json';
import es from './i18n/es.json';
import { allowedActions } from './actions';
import { keyPaths as keys } from '../../i18n/keyPaths';

describe('admin phone requests', () => {
  it('offers approve only while pending, reject and assign while pending or approved', () => {
    expect(allowedActions('pending')).toEqual(['approve', 'reject', 'assign']);
    expect(allowedActions('approved')).toEqual(['reject', 'assign']);
    expect(allowedActions('rejected')).toEqual([]);
    expect(allowedActions('assigned')).toEqual([]);
    expect(allowedActions(null)).toEqual([]);
  });

  it('has every English key in Spanish, and the server texts keyed like voiceMessages', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    for (const [key, text] of Object.entries(en.messages)) {
      expect((voiceMessages as Record<string, unknown>)[key], key).toBe(text);
    }
  });
});
