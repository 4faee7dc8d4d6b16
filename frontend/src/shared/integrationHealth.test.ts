import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// i18n/index.ts sets <html lang>: the unit project runs in Node without a DOM.
vi.hoisted(() => {
  (globalThis as { document?: unknown }).document ??= { documentElement: {} };
});

import { INTEGRATION_HEALTH_REASONS } from '@agentdesk/functions/contract';
import i18n from '../i18n';
import '../i18n/serverTexts';
import en from './i18n/integrationHealth.en.json';
import es from './i18n/integrationHealth.es.json';
import { keyPaths as keys } from '../i18n/keyPaths';
import { healthFixText, healthLine, healthReasonText, sendFailureText } from './integrationHealth';

describe('integration health texts (issue 34)', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('es');
  });
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('has every English key in Spanish, and how to fix every reason', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    expect(Object.keys(en.integrationHealth.fix).sort()).toEqual([...INTEGRATION_HEALTH_REASONS].sort());
  });

  it('says the reason with the provider’s code and the fix in Spanish', () => {
    expect(healthLine('whatsapp_token_invalid', '190')).toBe('Meta: 190 — El token de acceso de WhatsApp ha caducado o fue revocado.');
    expect(healthLine('twilio_credentials_invalid', '20003')).toMatch(/^Twilio: 20003 — Twilio rechazó/);
    expect(healthFixText('whatsapp_token_invalid')).toMatch(/^Genera un token de acceso permanente nuevo/);
    expect(healthReasonText('openai_quota_exhausted')).toBe('La cuenta de OpenAI se ha quedado sin crédito o alcanzó su límite de gasto.');
  });

  it('a failed message shows Meta’s code and the translated reason instead of Meta’s English', () => {
    expect(sendFailureText({ error: 'The WhatsApp access token has expired or was revoked.', errorCode: '190', errorReason: 'whatsapp_token_invalid' })).toBe(
      'Meta: 190 — El token de acceso de WhatsApp ha caducado o fue revocado.',
    );
    expect(sendFailureText({ error: 'Recipient phone number not in allowed list', errorCode: '131030' })).toBe('Meta: 131030 — Recipient phone number not in allowed list');
  });
});
