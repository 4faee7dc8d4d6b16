/**
 * The Twilio Voice integration through the local gateway against the fake Twilio REST API (the
 * handlers reach it through the twilio SDK, TWILIO_API_URL): setup validation, the auth token
 * sealed at rest and masked in every answer, kept on edit, the number pointed at our webhook and
 * status callback through the REST API (and why not when it cannot be), /test (good token,
 * rejected token, unknown number, Twilio down), disconnect, one user at a time, and the fake's
 * POST /_test/calls playing a call to the number it was pointed at (what the e2e flow relies on).
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IntegrationView } from '../../src/contract/integrations.js';
import { VOICE_DEFAULTS, type TwilioSetupResult, type TwilioTestResult } from '../../src/contract/voice.js';
import type { SimulatedCall } from '../../local/fake-twilio/call-simulator.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, getItem, provided } from '../support/api.js';
import { paidUser, subscribedUser } from '../support/billing.js';

interface FakeAccount {
  accountSid: string;
  authToken: string;
  numbers: Array<{ sid: string; phoneNumber: string }>;
}

interface FakeNumber {
  accountSid: string;
  sid: string;
  phoneNumber: string;
  voiceUrl: string;
  voiceMethod: string;
  statusCallback: string;
  statusCallbackMethod: string;
}

const twilioApiUrl = () => provided('twilioApiUrl');

async function controlCall(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${twilioApiUrl()}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

async function control<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await controlCall(method, path, body);
  if (res.status !== 200) throw new Error(`fake Twilio ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
}

const newNumber = () => `+1415${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
const twilioAccount = (numbers: string[]) => control<FakeAccount>('POST', '/_test/accounts', { numbers, friendlyName: 'Clinic Sonrisa' });
const numberAtTwilio = async (phoneNumber: string) =>
  (await control<{ numbers: FakeNumber[] }>('GET', `/_test/numbers?phoneNumber=${encodeURIComponent(phoneNumber)}`)).numbers[0];

/** Integrations are a paid feature: a user with an active subscription. */
async function newUser() {
  const { token, userId } = await paidUser();
  return { token, userId };
}

const setup = (token: string, body: unknown) => api<TwilioSetupResult>('POST', '/api/integrations/twilio-voice/setup', { token, body });
const test = (token: string, body: unknown = {}) => api<TwilioTestResult>('POST', '/api/integrations/twilio-voice/test', { token, body });
const read = (token: string) => api<IntegrationView>('GET', '/api/integrations/twilio-voice', { token });
const storedItem = (userId: string) => getItem(`USER#${userId}`, 'INTEGRATION#twilio-voice');
const webhookUrlOf = (userId: string) => `${provided('apiUrl')}/api/webhooks/twilio/${userId}/voice`;

describe('Twilio Voice setup', () => {
  it('validates the fields and requires the auth token the first time', async () => {
    const { token } = await newUser();
    const input = { accountSid: `AC${'a1'.repeat(16)}`, authToken: 'token-1', phoneNumber: '+14155550123' };

    const noSid = await setup(token, { ...input, accountSid: ' ' });
    const badSid = await setup(token, { ...input, accountSid: 'AC123' });
    const noToken = await setup(token, { ...input, authToken: '' });
    const maskedToken = await setup(token, { ...input, authToken: '***' });
    const noPhone = await setup(token, { ...input, phoneNumber: undefined });
    const badPhone = await setup(token, { ...input, phoneNumber: '415 555' });
    const stored = await read(token);

    expect(noSid.status).toBe(400);
    expect(noSid.body).toMatchObject({ success: false, message: 'Account SID is required' });
    expect(badSid.body.message).toBe('Account SID must start with AC followed by 32 letters or digits');
    expect(noToken.status).toBe(400);
    expect(noToken.body).toMatchObject({ message: 'Auth token is required', field: 'authToken' });
    expect(maskedToken.body.message).toBe('Auth token is required');
    expect(noPhone.body.message).toBe('Phone number is required');
    // Issue 19: typed as at home (read in the account's country, US by default) or international.
    expect(badPhone.body.message).toBe('Please enter a valid phone number, e.g. (201) 555-0123 or +1 201 555 0123');
    expect(stored.status).toBe(404);
  });

  it('seals the auth token, answers the webhook URLs and points the number at them through the REST API', async () => {
    const { token, userId } = await newUser();
    const number = newNumber();
    const account = await twilioAccount([number]);

    const res = await setup(token, { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number });
    const atTwilio = await numberAtTwilio(number);
    const item = await storedItem(userId);
    const view = await read(token);

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Twilio Voice integration configured successfully');
    expect(res.body.data).toEqual({
      webhookUrl: webhookUrlOf(userId),
      statusCallbackUrl: `${webhookUrlOf(userId)}/status`,
      numberConfigured: true,
    });
    expect(atTwilio).toMatchObject({
      sid: account.numbers[0]!.sid,
      voiceUrl: webhookUrlOf(userId),
      voiceMethod: 'POST',
      statusCallback: `${webhookUrlOf(userId)}/status`,
      statusCallbackMethod: 'POST',
    });
    expect(item).toMatchObject({ type: 'twilio-voice', isActive: true, settings: { phoneNumber: number, numberConfigured: true } });
    const credentials = item?.credentials as Record<string, string>;
    expect(credentials.accountSid).toBe(account.accountSid);
    expect(credentials.authToken).toMatch(/^v1:local:/);
    expect(JSON.stringify(item)).not.toContain(account.authToken);
    expect(view.body.data).toMatchObject({
      type: 'twilio-voice',
      isActive: true,
      credentials: { accountSid: account.accountSid, authToken: '***' },
      settings: { phoneNumber: number },
      webhookUrl: webhookUrlOf(userId),
    });
    expect(JSON.stringify(view.body)).not.toContain(account.authToken);
  });

  it('keeps the stored token on an edit with *** and configures the new number', async () => {
    const { token, userId } = await newUser();
    const [first, second] = [newNumber(), newNumber()];
    const account = await twilioAccount([first, second]);
    await setup(token, { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: first });
    const sealedBefore = ((await storedItem(userId))?.credentials as Record<string, string>).authToken;

    const edit = await setup(token, { accountSid: account.accountSid, authToken: '***', phoneNumber: second });
    const sealedAfter = ((await storedItem(userId))?.credentials as Record<string, string>).authToken;
    const tested = await test(token);

    expect(edit.status).toBe(200);
    expect(edit.body.data?.numberConfigured).toBe(true);
    expect(sealedAfter).toBe(sealedBefore);
    expect((await numberAtTwilio(second))?.voiceUrl).toBe(webhookUrlOf(userId));
    expect((await read(token)).body.data?.settings).toMatchObject({ phoneNumber: second });
    expect(tested.status).toBe(200);
    expect(tested.body.data?.numberFound).toBe(true);
  });

  it('saves the integration but says why the number was not configured: not in the account, or a rejected token', async () => {
    const a = await newUser();
    const b = await newUser();
    const owned = newNumber();
    const elsewhere = newNumber();
    const account = await twilioAccount([owned]);

    const missing = await setup(a.token, { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: elsewhere });
    const rejected = await setup(b.token, { accountSid: account.accountSid, authToken: 'not-the-token', phoneNumber: owned });

    expect(missing.status).toBe(200);
    expect(missing.body.data).toMatchObject({ numberConfigured: false, numberConfigError: 'This phone number was not found in the Twilio account.' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({
      numberConfigured: false,
      numberConfigError: 'Twilio rejected the account SID or auth token. Check them in Integrations.',
    });
    expect((await numberAtTwilio(owned))?.voiceUrl).toBe('');
    expect((await read(a.token)).body.data?.settings).toMatchObject({ phoneNumber: elsewhere, numberConfigured: false });
    expect((await read(b.token)).status).toBe(200);
  });
});

describe('Twilio Voice test', () => {
  it('reports the account and whether the number is in it, with the stored or the given credentials', async () => {
    const { token } = await newUser();
    const number = newNumber();
    const account = await twilioAccount([number]);
    await setup(token, { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number });

    const stored = await test(token);
    const otherNumber = await test(token, { phoneNumber: newNumber() });
    const badToken = await test(token, { authToken: 'wrong-token' });

    expect(stored.status).toBe(200);
    expect(stored.body.message).toBe('Connection successful');
    expect(stored.body.data).toEqual({ accountName: 'Clinic Sonrisa', accountStatus: 'active', numberFound: true });
    expect(otherNumber.status).toBe(200);
    expect(otherNumber.body.data?.numberFound).toBe(false);
    expect(badToken.status).toBe(400);
    expect(badToken.body.message).toBe('Twilio rejected the account SID or auth token. Check them in Integrations.');
  });

  it('answers 502 without internals when Twilio is down, and asks to connect first when nothing is stored', async () => {
    const { token } = await newUser();
    const fresh = await newUser();
    const number = newNumber();
    const account = await twilioAccount([number]);
    await setup(token, { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number });
    await control('POST', '/_test/fail', { accountSid: account.accountSid, status: 503, code: 20503, message: 'Service Unavailable', count: 1 });

    const down = await test(token);
    const recovered = await test(token);
    const notConnected = await test(fresh.token);

    expect(down.status).toBe(502);
    expect(down.body.message).toBe('Twilio could not be reached. Please try again later.');
    expect(JSON.stringify(down.body)).not.toMatch(/20503|Service Unavailable/);
    expect(recovered.status).toBe(200);
    expect(notConnected.status).toBe(400);
    expect(notConnected.body.message).toBe('Connect the Twilio Voice integration first');
  });
});

describe('Twilio Voice disconnect', () => {
  it('removes the integration with its token; another user can neither see nor remove it', async () => {
    const owner = await newUser();
    const other = await newUser();
    const number = newNumber();
    const account = await twilioAccount([number]);
    await setup(owner.token, { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number });

    const otherRead = await read(other.token);
    const otherDelete = await api('DELETE', '/api/integrations/twilio-voice', { token: other.token });
    const stillThere = await read(owner.token);
    const removed = await api('DELETE', '/api/integrations/twilio-voice', { token: owner.token });
    const after = await read(owner.token);
    const item = await storedItem(owner.userId);
    const testAfter = await test(owner.token);

    expect(otherRead.status).toBe(404);
    expect(otherDelete.status).toBe(404);
    expect(stillThere.status).toBe(200);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe('Integration disconnected successfully');
    expect(after.status).toBe(404);
    expect(item).toBeUndefined();
    expect(testAfter.body.message).toBe('Connect the Twilio Voice integration first');
  });
});

describe('the fake Twilio plays calls', () => {
  it('calls the voice URL setup configured, signed with the account token, and the app answers with the call loop', async () => {
    const { token } = await subscribedUser('starter');
    await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: `sk-test-${randomInt(1e9)}`, model: 'gpt-4o' } });
    await createAnsweringAgent(token);
    const number = newNumber();
    const unconfigured = newNumber();
    const account = await twilioAccount([number, unconfigured]);
    await setup(token, { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number });
    // A <Gather>-loop call: the default mode streams through ConversationRelay (issue 16).
    await api('PUT', '/api/voice-settings', { token, body: { ...VOICE_DEFAULTS, conversationMode: 'gather' } });

    const played = await controlCall('POST', '/_test/calls', {
      to: number,
      from: '+34600111222',
      turns: [{ speech: 'Quiero pedir una cita', confidence: 0.91 }],
    });
    const notPointed = await controlCall('POST', '/_test/calls', { to: unconfigured, turns: [] });

    expect(played.status).toBe(200);
    const call = played.body as SimulatedCall;
    expect(call.callSid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(call.httpStatuses.every((s) => s === 200)).toBe(true);
    expect(call.requests.map((r) => r.kind)).toEqual(expect.arrayContaining(['voice', 'gather', 'status']));
    const said = call.events.filter((e) => e.verb === 'Say').map((e) => e.text);
    expect(said[0]).toBe(VOICE_DEFAULTS.messageWelcome);
    expect(said.length).toBeGreaterThan(1);
    expect(said).not.toContain(VOICE_DEFAULTS.messageError);
    expect(notPointed.status).toBe(409);
  });
});

describe('PUT /api/integrations/twilio-voice: only isActive; what setup validated stays (issue 14, finding 1)', () => {
  const update = (token: string, body: unknown) => api<IntegrationView>('PUT', '/api/integrations/twilio-voice', { token, body });

  async function connected() {
    const user = await newUser();
    const number = newNumber();
    const account = await twilioAccount([number]);
    const res = await setup(user.token, { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number });
    if (res.status !== 200) throw new Error(`setup failed: ${res.status} ${res.body.message}`);
    return { ...user, number, item: await storedItem(user.userId) };
  }

  /** 40 levels of {a: …}: past DynamoDB's 32-level limit (which answered 500 before). */
  const deep = () => {
    let value: unknown = 'x';
    for (let i = 0; i < 40; i++) value = { a: value };
    return value as Record<string, unknown>;
  };

  it.each([
    ['a 1 MB value', () => ({ notes: 'x'.repeat(1024 * 1024) }), 'Unknown setting: notes'],
    ['40-deep nesting', deep, 'Unknown setting: a'],
    ['50,000 keys', () => Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])), 'Unknown setting: k0'],
  ])('refuses %s in settings with a 400 and stores nothing', async (_label, settings, message) => {
    // Arrange
    const { token, userId, item } = await connected();

    // Act
    const res = await update(token, { settings: settings() });

    // Assert
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message, field: 'settings' });
    expect(await storedItem(userId)).toEqual(item);
  });

  it('refuses to overwrite the phone number (or any setup field) and keeps the stored one', async () => {
    // Arrange
    const { token, userId, number, item } = await connected();

    // Act
    const phone = await update(token, { settings: { phoneNumber: '+14155550199' } });
    const callback = await update(token, { isActive: true, settings: { statusCallbackUrl: 'https://attacker.example/cb' } });
    const credentials = await update(token, { credentials: { accountSid: `AC${'0'.repeat(32)}` } });

    // Assert
    expect(phone.status).toBe(400);
    expect(phone.body).toMatchObject({
      message: 'phoneNumber can only be changed through setup (POST /api/integrations/twilio-voice/setup)',
      field: 'settings.phoneNumber',
    });
    expect(callback.status).toBe(400);
    expect(callback.body.message).toBe('statusCallbackUrl can only be changed through setup (POST /api/integrations/twilio-voice/setup)');
    expect(credentials.status).toBe(400);
    expect(credentials.body.message).toBe('Unknown field: credentials');
    expect(await storedItem(userId)).toEqual(item);
    expect((await read(token)).body.data?.settings).toMatchObject({ phoneNumber: number });
  });

  it('still switches the integration off and on (isActive, with an empty settings object)', async () => {
    // Arrange
    const { token, userId, number } = await connected();

    // Act
    const off = await update(token, { isActive: false });
    const on = await update(token, { isActive: true, settings: {} });

    // Assert
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ isActive: false, settings: { phoneNumber: number } });
    expect(on.status).toBe(200);
    expect(on.body.data?.isActive).toBe(true);
    expect(await storedItem(userId)).toMatchObject({ isActive: true, settings: { phoneNumber: number, numberConfigured: true } });
  });
});
