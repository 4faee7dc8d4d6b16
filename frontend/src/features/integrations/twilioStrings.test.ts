import { describe, expect, it } from 'vitest';
import en from './i18n/en.json';
import es from './i18n/es.json';

function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}

describe('Twilio Voice modal strings', () => {
  it('keeps the spec texts exact (SPEC §8)', () => {
    expect(en.twilio.setupFailed).toBe('Failed to configure Twilio Voice integration');
    expect(en.twilio.disconnectFailed).toBe('Failed to disconnect Twilio Voice integration');
    expect([en.twilio.accountSid, en.twilio.authToken, en.twilio.phoneNumber]).toEqual(['Account SID', 'Auth Token', 'Phone Number']);
  });

  it('has every Twilio key in Spanish', () => {
    expect(keys(es.twilio).sort()).toEqual(keys(en.twilio).sort());
  });
});
