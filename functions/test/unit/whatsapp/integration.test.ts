/** WhatsApp integration rules: the business number in E.164, the webhook URL, Graph errors as the user reads them. */
import { describe, expect, it } from 'vitest';
import { whatsappMessages } from '../../../src/contract/whatsapp.js';
import { whatsappE164, whatsappWebhookUrl } from '../../../src/domain/whatsapp/setup.js';
import { graphErrorToDomain } from '../../../src/domain/whatsapp/graph-errors.js';
import { GraphError } from '../../../src/domain/whatsapp/ports.js';

describe('WhatsApp business number, read in the account country (issue 19)', () => {
  it.each([
    ['+1 (415) 555-0123', 'US', '+14155550123'],
    ['(415) 555-0123', 'US', '+14155550123'],
    ['+44 20 7946 0958', 'US', '+442079460958'],
    ['34 612 345 678', 'US', '+34612345678'],
    ['+1 555 010 0999', 'US', '+15550100999'],
    ['15550100999', 'US', '+15550100999'],
    ['+52 55 1234 5678', 'ES', '+525512345678'],
    ['911 22 23 33', 'ES', '+34911222333'],
    ['600 111 333', 'ES', '+34600111333'],
    ['0034 600 111 333', 'ES', '+34600111333'],
    ['600.111.333', 'ES', '+34600111333'],
    ['55 1234 5678', 'MX', '+525512345678'],
  ])('%s in %s → %s', (input, country, expected) => {
    expect(whatsappE164(input, country)).toBe(expected);
  });

  it('refuses a number that is not one of the account country, naming how it is typed there', () => {
    expect(() => whatsappE164('911 22 23 33', 'US')).toThrow('Please enter a valid phone number, e.g. (201) 555-0123 or +1 201 555 0123');
    expect(() => whatsappE164('12 34', 'ES')).toThrow('Please enter a valid phone number, e.g. 612 34 56 78 or +34 612 34 56 78');
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
