/** WhatsApp integration rules: the business number in E.164, the webhook URL, Graph errors as the user reads them. */
import { describe, expect, it } from 'vitest';
import { whatsappMessages } from '../../../src/contract/whatsapp.js';
import { whatsappE164, whatsappWebhookUrl } from '../../../src/domain/whatsapp/setup.js';
import { graphErrorToDomain } from '../../../src/domain/whatsapp/graph-errors.js';
import { GraphError } from '../../../src/domain/whatsapp/ports.js';

describe('WhatsApp business number', () => {
  it.each([
    ['+1 (415) 555-0123', '+14155550123'],
    ['(415) 555-0123', '+14155550123'],
    ['+44 20 7946 0958', '+442079460958'],
    ['34 612 345 678', '+34612345678'],
    ['+1 555 010 0999', '+15550100999'],
    ['15550100999', '+15550100999'],
    ['+52 55 1234 5678', '+525512345678'],
  ])('%s → %s', (input, expected) => {
    expect(whatsappE164(input)).toBe(expected);
  });
});

describe('WhatsApp webhook URL', () => {
  it('is {APP_URL}/api/webhooks/whatsapp-business/{integrationId}', () => {
    expect(whatsappWebhookUrl('https://app.example.com/', 'abc-123')).toBe('https://app.example.com/api/webhooks/whatsapp-business/abc-123');
  });
});

describe('Graph errors for the user', () => {
  it('maps a rejected token and an unknown phone id to 400, everything else to 502', () => {
    expect(graphErrorToDomain(new GraphError('auth', 'x'))).toMatchObject({ status: 400, message: whatsappMessages.graphAuthFailed });
    expect(graphErrorToDomain(new GraphError('not_found', 'x'))).toMatchObject({ status: 400, message: whatsappMessages.graphPhoneNotFound });
    for (const kind of ['rate_limit', 'bad_request', 'unavailable'] as const) {
      expect(graphErrorToDomain(new GraphError(kind, 'x'))).toMatchObject({ status: 502, message: whatsappMessages.graphUnavailable });
    }
  });
});
