import { describe, expect, it } from 'vitest';
import en from './i18n/en.json';
import es from './i18n/es.json';
import { keyPaths as keys } from '../../i18n/keyPaths';

describe('integrations strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the spec texts exact (SPEC §5, §8)', () => {
    expect(en.contactSupport).toBe('Contact support');
    expect(en.notAvailable).toBe('Not Available');
    expect(en.comingSoon.title).toBe('More integrations coming soon');
    expect(en.chatgpt.setupFailed).toBe('Failed to configure ChatGPT integration');
    expect(en.chatgpt.disconnectFailed).toBe('Failed to disconnect ChatGPT integration');
  });
});
