/**
 * The WhatsApp Business integration through the local gateway: setup validation, secrets sealed
 * at rest and masked in every answer, kept on edit, the webhook URL and verify token, and /test
 * against the fake Graph API (good token, rejected token, unknown phone id, Meta down).
 */
import { describe, expect, it } from 'vitest';
import type { IntegrationView } from '../../src/contract/integrations.js';
import type { WhatsAppSetupResult } from '../../src/contract/whatsapp.js';
import { api, getItem, provided } from '../support/api.js';
import { paidUser } from '../support/billing.js';
import { connectWhatsApp, failGraphSends, randomDigits } from '../support/whatsapp.js';

/** Integrations are a paid feature: a user with an active subscription. */
async function newUser() {
  const { token, userId } = await paidUser();
  return { token, userId };
}

const validInput = () => ({
  bearerToken: `EAAG${randomDigits(20)}`,
  appSecret: `secret-${randomDigits(12)}`,
  businessId: randomDigits(15),
  phoneId: randomDigits(15),
  phoneNumber: '(415) 555-0123',
});

const setup = (token: string, body: unknown) => api<WhatsAppSetupResult>('POST', '/api/integrations/whatsapp-business/setup', { token, body });
const test = (token: string, body: unknown = {}) =>
  api<{ id: string; displayPhoneNumber: string; verifiedName: string }>('POST', '/api/integrations/whatsapp-business/test', { token, body });
const read = (token: string) => api<IntegrationView>('GET', '/api/integrations/whatsapp-business', { token });
const storedItem = (userId: string) => getItem(`USER#${userId}`, 'INTEGRATION#whatsapp-business');

describe('WhatsApp setup', () => {
  it('requires the bearer token and the app secret the first time, and validates the fields', async () => {
    const { token } = await newUser();
    const input = validInput();

    const noToken = await setup(token, { ...input, bearerToken: '' });
    const maskedToken = await setup(token, { ...input, bearerToken: '***' });
    const noSecret = await setup(token, { ...input, appSecret: undefined });
    const noBusiness = await setup(token, { ...input, businessId: ' ' });
    const noPhoneId = await setup(token, { ...input, phoneId: undefined });
    const noPhone = await setup(token, { ...input, phoneNumber: '' });
    const badPhone = await setup(token, { ...input, phoneNumber: '0123 abc' });
    const stored = await read(token);

    expect(noToken.status).toBe(400);
    expect(noToken.body).toMatchObject({ success: false, message: 'Bearer token is required', field: 'bearerToken' });
    expect(maskedToken.body.message).toBe('Bearer token is required');
    expect(noSecret.status).toBe(400);
    expect(noSecret.body).toMatchObject({ message: 'App secret is required', field: 'appSecret' });
    expect(noBusiness.body.message).toBe('Business ID is required');
    expect(noPhoneId.body.message).toBe('Phone ID is required');
    expect(noPhone.body.message).toBe('Phone number is required');
    expect(badPhone.body.message).toBe('Please enter a valid phone number');
    expect(stored.status).toBe(404);
  });

  it('seals the secrets, normalises the phone number and answers the webhook URL and verify token', async () => {
    const { token, userId } = await newUser();
    const input = validInput();

    const res = await setup(token, input);
    const item = await storedItem(userId);
    const view = await read(token);

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('WhatsApp Business integration configured successfully');
    const id = String(item?.id);
    expect(res.body.data?.webhookUrl).toBe(`${provided('apiUrl')}/api/webhooks/whatsapp-business/${id}`);
    expect(res.body.data?.webhookVerifyToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(item).toMatchObject({ gsi1pk: `INTEGRATION#${id}`, type: 'whatsapp-business', isActive: true, settings: { phoneNumber: '+14155550123' } });
    const credentials = item?.credentials as Record<string, string>;
    for (const secret of ['bearerToken', 'appSecret', 'webhookVerifyToken'] as const) expect(credentials[secret]).toMatch(/^v1:local:/);
    expect(JSON.stringify(item)).not.toContain(input.bearerToken);
    expect(JSON.stringify(item)).not.toContain(input.appSecret);
    expect(JSON.stringify(item)).not.toContain(res.body.data?.webhookVerifyToken);
    expect(view.body.data).toMatchObject({
      _id: id,
      type: 'whatsapp-business',
      isActive: true,
      credentials: { bearerToken: '***', appSecret: '***', webhookVerifyToken: '***', businessId: input.businessId, phoneId: input.phoneId },
      settings: { phoneNumber: '+14155550123' },
      webhookUrl: res.body.data?.webhookUrl,
    });
  });

  it("keeps the stored secrets, the integration id and the verify token on an edit with '***'", async () => {
    const { token, userId } = await newUser();
    const input = validInput();
    const first = await setup(token, input);
    const before = await storedItem(userId);

    const edit = await setup(token, { ...input, bearerToken: '***', appSecret: '', phoneNumber: '+44 20 7946 0958' });
    const after = await storedItem(userId);
    const tested = await test(token);

    expect(edit.status).toBe(200);
    expect(edit.body.data).toEqual(first.body.data);
    expect(after?.id).toBe(before?.id);
    expect((after?.credentials as Record<string, string>).bearerToken).toBe((before?.credentials as Record<string, string>).bearerToken);
    expect((after?.credentials as Record<string, string>).appSecret).toBe((before?.credentials as Record<string, string>).appSecret);
    expect(after?.settings).toEqual({ phoneNumber: '+442079460958' });
    expect(tested.status).toBe(200);
  });

  it('sets up without reaching the Graph API (a token Meta would refuse is still stored)', async () => {
    const { token } = await newUser();

    const res = await setup(token, { ...validInput(), bearerToken: 'bad-token' });

    expect(res.status).toBe(200);
  });
});

describe('WhatsApp connection test', () => {
  it('answers success with the phone number Meta knows for the stored token', async () => {
    const { token } = await newUser();
    const wa = await connectWhatsApp(token);

    const res = await test(token);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Connection successful' });
    expect(res.body.data).toMatchObject({ id: wa.phoneId, verifiedName: expect.any(String) as string });
  });

  it('reports a token Meta rejects as 400 with the token message', async () => {
    const { token } = await newUser();
    await connectWhatsApp(token, { bearerToken: 'bad-expired-token' });

    const stored = await test(token);
    const given = await test(token, { bearerToken: 'bad-other' });

    expect(stored.status).toBe(400);
    expect(stored.body.message).toBe('WhatsApp rejected the access token. Check the token in Integrations.');
    expect(given.status).toBe(400);
  });

  it('tests the values in the body before they are saved (a good token over a stored bad one)', async () => {
    const { token } = await newUser();
    await connectWhatsApp(token, { bearerToken: 'bad-expired-token' });

    const res = await test(token, { bearerToken: 'EAAG-fresh-token' });

    expect(res.status).toBe(200);
  });

  it('reports an unknown phone number id as 400', async () => {
    const { token } = await newUser();
    await connectWhatsApp(token, { phoneId: 'not-a-phone-id' });

    const res = await test(token);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('WhatsApp could not find this phone number ID for the token.');
  });

  it('needs a token when nothing is stored', async () => {
    const { token } = await newUser();

    const res = await test(token, { phoneId: randomDigits(15) });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Bearer token is required');
  });

  it('reports Meta failing or unreachable as 502', async () => {
    const { token } = await newUser();
    const wa = await connectWhatsApp(token);
    await failGraphSends(wa.phoneId, { status: 503, code: 2, message: 'Service temporarily unavailable', scope: 'all' });
    await failGraphSends(`${wa.phoneId}9`, { status: 0, scope: 'all' });

    const down = await test(token);
    const dropped = await test(token, { phoneId: `${wa.phoneId}9` });
    const back = await test(token);

    expect(down.status).toBe(502);
    expect(down.body.message).toBe('WhatsApp could not be reached. Please try again later.');
    expect(dropped.status).toBe(502);
    expect(back.status).toBe(200);
  });
});

describe('PUT /api/integrations/whatsapp-business: only isActive; what setup validated stays (issue 14, finding 1)', () => {
  const update = (token: string, body: unknown) => api<IntegrationView>('PUT', '/api/integrations/whatsapp-business', { token, body });
  const storedItem = (userId: string) => getItem(`USER#${userId}`, 'INTEGRATION#whatsapp-business');

  async function connected() {
    const user = await newUser();
    const wa = await connectWhatsApp(user.token);
    return { ...user, wa, item: await storedItem(user.userId) };
  }

  it('refuses a 1 MB value, 40-deep nesting and 50,000 keys with a 400 (not a 500) and stores nothing', async () => {
    // Arrange
    const { token, userId, item } = await connected();
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { a: deep };

    // Act
    const big = await update(token, { settings: { greeting: 'x'.repeat(1024 * 1024) } });
    const nested = await update(token, { settings: deep });
    const wide = await update(token, { settings: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])) });

    // Assert
    expect([big.status, nested.status, wide.status]).toEqual([400, 400, 400]);
    expect(big.body.message).toBe('Unknown setting: greeting');
    expect(nested.body.message).toBe('Unknown setting: a');
    expect(wide.body.message).toBe('Unknown setting: k0');
    expect(await storedItem(userId)).toEqual(item);
  });

  it('refuses to overwrite the phone number or the phone number id, and keeps them', async () => {
    // Arrange
    const { token, userId, wa, item } = await connected();

    // Act
    const phone = await update(token, { settings: { phoneNumber: '+34600999888' } });
    const phoneId = await update(token, { isActive: false, settings: { phoneId: '123' } });

    // Assert
    expect(phone.status).toBe(400);
    expect(phone.body).toMatchObject({
      message: 'phoneNumber can only be changed through setup (POST /api/integrations/whatsapp-business/setup)',
      field: 'settings.phoneNumber',
    });
    expect(phoneId.status).toBe(400);
    expect(phoneId.body.field).toBe('settings.phoneId');
    expect(await storedItem(userId)).toEqual(item);
    expect(item).toMatchObject({ isActive: true, credentials: expect.objectContaining({ phoneId: wa.phoneId }) as object });
  });

  it('still switches the integration off and on', async () => {
    const { token, userId, item } = await connected();

    const off = await update(token, { isActive: false });
    const on = await update(token, { isActive: true, settings: {} });

    expect([off.status, on.status]).toEqual([200, 200]);
    expect(off.body.data?.isActive).toBe(false);
    expect(await storedItem(userId)).toMatchObject({ isActive: true, settings: item?.settings as object });
  });
});
