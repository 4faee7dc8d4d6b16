import { describe, expect, it } from 'vitest';
import { whatsappMessages } from '@agentdesk/functions/contract';
import en from './i18n/en.json';
import es from './i18n/es.json';

describe('WhatsApp Business modal strings', () => {
  it('keeps the spec texts exact (SPEC §5, §8)', () => {
    expect(en.whatsapp.setupFailed).toBe('Failed to setup integration');
    expect(en.whatsapp.disconnectFailed).toBe('Failed to disconnect integration');
    expect([en.whatsapp.bearerToken, en.whatsapp.businessId, en.whatsapp.phoneId]).toEqual(['Bearer Token', 'Business ID', 'Phone ID']);
    expect(en.whatsapp.webhookHint).toContain("Meta's App Dashboard → WhatsApp → Configuration");
  });

  it('translates the contract texts it shows, keyed like whatsappMessages', () => {
    for (const [key, text] of Object.entries(en.whatsapp.messages)) {
      expect((whatsappMessages as Record<string, unknown>)[key], key).toBe(text);
      expect((es.whatsapp.messages as Record<string, string>)[key], key).toBeTruthy();
    }
  });
});
