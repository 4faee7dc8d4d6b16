import { describe, expect, it } from 'vitest';
import type { IntegrationView } from '@agentdesk/functions/contract';
import { formFromIntegration, setupBody, visibleVerifyToken, whatsAppForm } from './whatsappForm';
import { hasStoredSecret } from './secretForm';

const stored: IntegrationView = {
  _id: 'w1',
  type: 'whatsapp-business',
  isActive: true,
  credentials: { bearerToken: '***', businessId: '1234', phoneId: '5678', appSecret: '***', webhookVerifyToken: 'verify-me' },
  settings: { phoneNumber: '+15550001111' },
  webhookUrl: 'https://api.example.com/api/webhooks/whatsapp-business/w1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const NONE = { bearerToken: false, appSecret: false };
const BOTH = { bearerToken: true, appSecret: true };

/** The first message per field, as the form shows them. */
function messages(storedSecrets: typeof NONE, input: unknown): string[] {
  const result = whatsAppForm(storedSecrets).safeParse(input);
  if (result.success) return [];
  const byField = new Map<string, string>();
  for (const issue of result.error.issues) if (!byField.has(issue.path.join('.'))) byField.set(issue.path.join('.'), issue.message);
  return [...byField.values()];
}

describe('WhatsApp Business setup form', () => {
  it('starts empty without an integration', () => {
    expect(formFromIntegration(null)).toEqual({ bearerToken: '', businessId: '', phoneId: '', phoneNumber: '', appSecret: '' });
  });

  it('starts from the stored ids and number, the secrets masked', () => {
    expect(hasStoredSecret(stored, 'bearerToken')).toBe(true);
    expect(formFromIntegration(stored)).toEqual({ bearerToken: '***', businessId: '1234', phoneId: '5678', phoneNumber: '+15550001111', appSecret: '***' });
  });

  it('requires every field of a new setup with the spec messages', () => {
    expect(messages(NONE, formFromIntegration(null))).toEqual([
      'Bearer token is required',
      'Business ID is required',
      'Phone ID is required',
      'Phone number is required',
      'App secret is required',
    ]);
  });

  it('checks the phone number with the profile pattern', () => {
    const values = { bearerToken: 'EAAG', businessId: '1', phoneId: '2', phoneNumber: '+0123', appSecret: 's' };
    expect(messages(NONE, values)).toEqual(['Please enter a valid phone number']);
    expect(messages(NONE, { ...values, phoneNumber: '+1 (555) 000-1111' })).toEqual([]);
  });

  it('keeps stored secrets: masked or emptied fields pass and are sent as ***', () => {
    expect(messages(BOTH, formFromIntegration(stored))).toEqual([]);
    expect(messages(NONE, formFromIntegration(stored))).toEqual(['Bearer token is required', 'App secret is required']);
    const parsed = whatsAppForm(BOTH).parse({ ...formFromIntegration(stored), bearerToken: '', appSecret: '' });
    expect(setupBody(parsed)).toMatchObject({ bearerToken: '***', appSecret: '***' });
    expect(setupBody(whatsAppForm(BOTH).parse({ ...formFromIntegration(stored), bearerToken: ' EAAnew ' })).bearerToken).toBe('EAAnew');
  });

  it('shows the verify token only when it is not masked', () => {
    expect(visibleVerifyToken(stored)).toBe('verify-me');
    expect(visibleVerifyToken({ ...stored, credentials: { ...stored.credentials, webhookVerifyToken: '***' } })).toBe('');
  });
});
