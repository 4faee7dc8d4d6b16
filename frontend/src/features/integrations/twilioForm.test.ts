import { describe, expect, it } from 'vitest';
import { MASKED_SECRET, voiceMessages, type IntegrationView } from '@agentdesk/functions/contract';
import { formFromIntegration, setupBody, statusCallbackOf, twilioForm } from './twilioForm';

const SID = `AC${'a1'.repeat(16)}`;
const stored: IntegrationView = {
  _id: 'i1',
  type: 'twilio-voice',
  isActive: true,
  credentials: { accountSid: SID, authToken: MASKED_SECRET, phoneNumber: '+14155550123' },
  settings: {},
  webhookUrl: 'https://app.example.com/api/webhooks/twilio/u1/voice',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const firstMessage = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  result.error?.issues.find((i) => i.path[0] === field)?.message;

describe('Twilio Voice setup form', () => {
  it('requires the SID, the token and a phone number with the server texts (SPEC §5; issue 19: typed as at home or with +)', () => {
    const result = twilioForm(false).safeParse({ accountSid: '', authToken: '', phoneNumber: '' });
    expect(result.success).toBe(false);
    expect(firstMessage(result, 'accountSid')).toBe(voiceMessages.accountSidRequired);
    expect(firstMessage(result, 'authToken')).toBe(voiceMessages.authTokenRequired);
    expect(firstMessage(result, 'phoneNumber')).toBe(voiceMessages.phoneNumberRequired);
    const invalid = twilioForm(false).safeParse({ accountSid: 'AC123', authToken: 'x', phoneNumber: '415 55' });
    expect(firstMessage(invalid, 'accountSid')).toBe(voiceMessages.accountSidInvalid);
    expect(firstMessage(invalid, 'phoneNumber')).toBe(voiceMessages.phoneNumberInvalid);
    // A national number is the server's to read in the account's country.
    expect(firstMessage(twilioForm(false).safeParse({ accountSid: SID, authToken: 'x', phoneNumber: '911 22 23 33' }), 'phoneNumber')).toBeUndefined();
  });

  it('keeps a stored token: the mask or an empty field is sent as ***', () => {
    const values = formFromIntegration(stored);
    expect(values).toEqual({ accountSid: SID, authToken: MASKED_SECRET, phoneNumber: '+14155550123' });
    const parsed = twilioForm(true).safeParse({ ...values, authToken: '' });
    expect(parsed.success).toBe(true);
    if (parsed.success) expect(setupBody(parsed.data).authToken).toBe(MASKED_SECRET);
    expect(twilioForm(false).safeParse(values).success).toBe(false);
  });

  it('derives the status callback URL from the voice webhook URL', () => {
    expect(statusCallbackOf(stored.webhookUrl ?? '')).toBe('https://app.example.com/api/webhooks/twilio/u1/voice/status');
    expect(statusCallbackOf('')).toBe('');
  });
});
