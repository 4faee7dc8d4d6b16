import { describe, expect, it } from 'vitest';
import en from './i18n/en.json';

describe('WhatsApp Business modal strings', () => {
  it('keeps the spec texts exact (SPEC §5, §8)', () => {
    expect(en.whatsapp.setupFailed).toBe('Failed to setup integration');
    expect(en.whatsapp.disconnectFailed).toBe('Failed to disconnect integration');
    expect([en.whatsapp.bearerToken, en.whatsapp.businessId, en.whatsapp.phoneId]).toEqual(['Bearer Token', 'Business ID', 'Phone ID']);
    expect(en.whatsapp.webhookHint).toContain("Meta's App Dashboard → WhatsApp → Configuration");
  });
});
