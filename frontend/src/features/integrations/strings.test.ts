import { describe, expect, it } from 'vitest';
import en from './i18n/en.json';
import es from './i18n/es.json';

function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}

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
