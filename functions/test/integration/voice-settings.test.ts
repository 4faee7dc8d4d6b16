/** Voice settings through the gateway: defaults, whole-object PUT, validation, reset, phone request, webhook signing secret. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { EMPTY_PHONE_REQUEST, VOICE_DEFAULTS, voiceMessages, type VoiceSettings, type WebhookSecretView } from '../../src/contract/voice.js';
import { api, db, get, getItem, post, registerUser, tableName, type RegisteredUser } from '../support/api.js';
import { grantSubscription } from '../support/billing.js';

/** A user who may request a phone number: a paid feature (an active subscription). */
async function subscriber(): Promise<RegisteredUser> {
  const user = await registerUser();
  await grantSubscription(user.session.user._id);
  return user;
}

const put = <T = VoiceSettings>(body: unknown, token: string) => api<T>('PUT', '/api/voice-settings', { body, token });
const del = <T = VoiceSettings>(path: string, token: string) => api<T>('DELETE', path, { token });

/** A valid whole object, different from the defaults everywhere. */
const EDITED = {
  messageWelcome: 'Hello, thanks for calling Acme.',
  messageNoInput: 'Sorry, I did not hear you.',
  messageFallback: 'Let me get a colleague.',
  messageGoodbye: 'Bye now!',
  messageError: 'Something went wrong.',
  language: 'en-GB',
  additionalLanguages: ['es-ES', 'en-US'],
  voice: 'Polly.Brian',
  speechRate: 1.2,
  pitch: 0.9,
  volume: 1.5,
  enableRecording: true,
  maxCallDuration: 600,
  summaryNotificationMethod: 'webhook',
  summaryWebhookUrl: 'https://hooks.example.com/calls',
  escalationForwardNumber: '+14155550123',
  conversationMode: 'gather',
} as const;

describe('GET /api/voice-settings', () => {
  it('answers the SPEC §9 defaults, no phone request and no secret hint before anything is saved', async () => {
    const { session } = await registerUser();
    const res = await get<VoiceSettings>('/api/voice-settings', session.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...VOICE_DEFAULTS, phoneNumber: EMPTY_PHONE_REQUEST, summaryWebhookSecretHint: null });
  });

  it('needs a signed-in user', async () => {
    expect((await get('/api/voice-settings')).status).toBe(401);
  });
});

describe('PUT /api/voice-settings', () => {
  it('stores the whole object and answers it; numeric strings are parsed as numbers', async () => {
    const { session } = await registerUser();
    const res = await put({ ...EDITED, speechRate: '1.2', pitch: '0.9', volume: '1.5', maxCallDuration: '600' }, session.token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(voiceMessages.settingsUpdated);
    const expected = { ...EDITED, phoneNumber: EMPTY_PHONE_REQUEST, summaryWebhookSecretHint: null };
    expect(res.body.data).toEqual(expected);
    expect((await get('/api/voice-settings', session.token)).body.data).toEqual(expected);
    const item = await getItem(`USER#${session.user._id}`, 'VOICE#SETTINGS');
    expect(item?.speechRate).toBe(1.2);
    expect(item?.maxCallDuration).toBe(600);
  });

  it("treats '' and 'disabled' as no summary notification, and ignores a phoneNumber sent back", async () => {
    const { session } = await registerUser();
    const forged = { ...EMPTY_PHONE_REQUEST, requested: true, status: 'assigned', number: '+14155550000' };
    const a = await put({ ...EDITED, summaryNotificationMethod: 'disabled', summaryWebhookUrl: '', phoneNumber: forged }, session.token);
    expect(a.status).toBe(200);
    expect(a.body.data?.summaryNotificationMethod).toBeNull();
    expect(a.body.data?.phoneNumber).toEqual(EMPTY_PHONE_REQUEST);
    const b = await put({ ...EDITED, summaryNotificationMethod: '' }, session.token);
    expect(b.body.data?.summaryNotificationMethod).toBeNull();
    const c = await put({ ...EDITED, summaryNotificationMethod: 'email' }, session.token);
    expect(c.body.data?.summaryNotificationMethod).toBe('email');
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['an empty welcome message', { messageWelcome: '  ' }, voiceMessages.messageRequired('Welcome message')],
    ['a missing goodbye message', { messageGoodbye: undefined }, voiceMessages.messageRequired('Goodbye message')],
    ['a too long error message', { messageError: 'x'.repeat(501) }, voiceMessages.messageTooLong('Error message')],
    ['an unknown language', { language: 'fr-FR' }, voiceMessages.languageInvalid],
    ['an unknown voice', { voice: 'Polly.Nobody' }, voiceMessages.voiceInvalid],
    ['a premium voice', { voice: 'Google.es-ES-Chirp3-HD-Leda' }, voiceMessages.premiumVoice],
    ['a speech rate above 2', { speechRate: 2.5 }, voiceMessages.speechRateRange],
    ['a speech rate that is not a number', { speechRate: 'fast' }, voiceMessages.speechRateRange],
    ['a pitch below 0.5', { pitch: '0.4' }, voiceMessages.pitchRange],
    ['a volume above 2', { volume: 3 }, voiceMessages.volumeRange],
    ['a max call duration below 30', { maxCallDuration: 10 }, voiceMessages.maxCallDurationRange],
    ['a fractional max call duration', { maxCallDuration: '90.5' }, voiceMessages.maxCallDurationRange],
    ['an unknown summary method', { summaryNotificationMethod: 'sms' }, voiceMessages.methodInvalid],
    ['webhook without a URL', { summaryNotificationMethod: 'webhook', summaryWebhookUrl: '' }, voiceMessages.webhookUrlRequired],
    ['a webhook URL that is not http(s)', { summaryWebhookUrl: 'ftp://example.com/x' }, voiceMessages.webhookUrlInvalid],
    ['a webhook URL that is not a URL', { summaryWebhookUrl: 'not a url' }, voiceMessages.webhookUrlInvalid],
    ['a forwarding number not in E.164', { escalationForwardNumber: '415 555 0123' }, voiceMessages.forwardNumberInvalid],
    ['an unknown conversation mode', { conversationMode: 'realtime' }, voiceMessages.conversationModeInvalid],
    ['an additional language outside the list', { additionalLanguages: ['fr-FR'] }, voiceMessages.additionalLanguageInvalid],
    ['additional languages that are not a list', { additionalLanguages: 'en-US' }, voiceMessages.additionalLanguageInvalid],
    ['the main language again as an additional one', { additionalLanguages: ['en-GB'] }, voiceMessages.additionalLanguageRepeated],
    ['an additional language twice', { additionalLanguages: ['en-US', 'en-US'] }, voiceMessages.additionalLanguageRepeated],
    ['more than three additional languages', { language: 'es-ES', additionalLanguages: ['en-US', 'en-GB', 'es-MX', 'en-US'] }, voiceMessages.additionalLanguagesTooMany],
  ];

  it.each(invalid)('refuses %s with its message and stores nothing', async (_label, patch, message) => {
    const { session } = await registerUser();
    const res = await put({ ...EDITED, ...patch }, session.token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await get<VoiceSettings>('/api/voice-settings', session.token)).body.data?.voice).toBe(VOICE_DEFAULTS.voice);
  });
});

describe('conversation mode (issue 16)', () => {
  it('is stored and answered; a PUT without it gets the default (streaming)', async () => {
    const { session } = await registerUser();

    const gather = await put(EDITED, session.token);
    const { conversationMode: _omitted, ...withoutMode } = EDITED;
    const omitted = await put(withoutMode, session.token);

    expect(gather.body.data?.conversationMode).toBe('gather');
    expect(omitted.status).toBe(200);
    expect(omitted.body.data?.conversationMode).toBe('streaming');
    expect((await getItem(`USER#${session.user._id}`, 'VOICE#SETTINGS'))?.conversationMode).toBe('streaming');
  });

  it('settings stored before issue 16 (no conversationMode attribute) read as streaming, the rest unchanged', async () => {
    const { session } = await registerUser();
    await put(EDITED, session.token);
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${session.user._id}`, sk: 'VOICE#SETTINGS' }, UpdateExpression: 'REMOVE conversationMode' }),
    );

    const res = await get<VoiceSettings>('/api/voice-settings', session.token);

    expect(res.body.data).toEqual({ ...EDITED, conversationMode: 'streaming', phoneNumber: EMPTY_PHONE_REQUEST, summaryWebhookSecretHint: null });
  });
});

describe('additional languages (issue 28)', () => {
  it('are stored and answered; a PUT without them, and settings stored before issue 28, have none', async () => {
    const { session } = await registerUser();

    const saved = await put(EDITED, session.token);
    expect(saved.body.data?.additionalLanguages).toEqual(['es-ES', 'en-US']);
    const { additionalLanguages: _omitted, ...without } = EDITED;
    expect((await put(without, session.token)).body.data?.additionalLanguages).toEqual([]);

    await put(EDITED, session.token);
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${session.user._id}`, sk: 'VOICE#SETTINGS' }, UpdateExpression: 'REMOVE additionalLanguages' }),
    );
    expect((await get<VoiceSettings>('/api/voice-settings', session.token)).body.data?.additionalLanguages).toEqual([]);
  });
});

describe('POST /api/voice-settings/reset', () => {
  it('restores the defaults but keeps the phone request and the signing secret', async () => {
    const { session } = await subscriber();
    await put(EDITED, session.token);
    await post('/api/voice-settings/request-phone', { notes: 'Madrid please' }, session.token);
    const secret = (await get<WebhookSecretView>('/api/voice-settings/webhook-secret', session.token)).body.data?.secret ?? '';

    const res = await post<VoiceSettings>('/api/voice-settings/reset', undefined, session.token);

    expect(res.status).toBe(200);
    expect(res.body.message).toBe(voiceMessages.settingsReset);
    const { phoneNumber, summaryWebhookSecretHint, ...rest } = res.body.data as VoiceSettings;
    expect(rest).toEqual(VOICE_DEFAULTS);
    expect(phoneNumber).toMatchObject({ requested: true, status: 'pending', notes: 'Madrid please' });
    expect(summaryWebhookSecretHint).toBe(`whsec_…${secret.slice(-4)}`);
    expect((await get<WebhookSecretView>('/api/voice-settings/webhook-secret', session.token)).body.data?.secret).toBe(secret);
  });
});

describe('phone number request', () => {
  it('request → pending with notes and a date; a second request is refused; cancel → no request; request again works', async () => {
    const { session } = await subscriber();
    const before = Date.now();

    const requested = await post<VoiceSettings>('/api/voice-settings/request-phone', { notes: '  Spanish number  ' }, session.token);
    expect(requested.status).toBe(200);
    expect(requested.body.message).toBe(voiceMessages.phoneRequested);
    const request = requested.body.data?.phoneNumber;
    expect(request).toMatchObject({ requested: true, status: 'pending', notes: 'Spanish number', number: null, assignedAt: null });
    expect(Date.parse(request?.requestedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect((await get<VoiceSettings>('/api/voice-settings', session.token)).body.data?.phoneNumber).toEqual(request);

    const again = await post('/api/voice-settings/request-phone', {}, session.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(voiceMessages.phoneRequestExists);

    const cancelled = await del('/api/voice-settings/request-phone', session.token);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toBe(voiceMessages.phoneRequestCancelled);
    expect(cancelled.body.data?.phoneNumber).toEqual(EMPTY_PHONE_REQUEST);
    expect((await get<VoiceSettings>('/api/voice-settings', session.token)).body.data?.phoneNumber).toEqual(EMPTY_PHONE_REQUEST);

    const reRequested = await post<VoiceSettings>('/api/voice-settings/request-phone', {}, session.token);
    expect(reRequested.body.data?.phoneNumber.status).toBe('pending');
  });

  it('cancel without a request answers 400', async () => {
    const { session } = await registerUser();
    const res = await del('/api/voice-settings/request-phone', session.token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(voiceMessages.phoneRequestNotFound);
  });

  it('cancel when the request is no longer pending (approved by an admin) answers 400 and changes nothing', async () => {
    const { session } = await subscriber();
    await post('/api/voice-settings/request-phone', {}, session.token);
    // An admin approved it (admin.test.ts covers the admin API itself).
    const key = `USER#${session.user._id}`;
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: key, sk: 'VOICE#SETTINGS' },
        UpdateExpression: 'SET phoneNumber.#s = :a, phoneStatus = :a',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':a': 'approved' },
      }),
    );

    const res = await del('/api/voice-settings/request-phone', session.token);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe(voiceMessages.phoneRequestNotPending);
    expect((await get<VoiceSettings>('/api/voice-settings', session.token)).body.data?.phoneNumber.status).toBe('approved');
  });

  it('refuses notes over 500 characters', async () => {
    const { session } = await subscriber();
    const res = await post('/api/voice-settings/request-phone', { notes: 'n'.repeat(501) }, session.token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(voiceMessages.notesTooLong);
  });
});

describe('summary webhook signing secret', () => {
  it('is created on first reveal (whsec_ + 32 bytes base64url), sealed at rest, stable until rotated, and per user', async () => {
    const { session } = await registerUser();
    const other = await registerUser();

    const first = await get<WebhookSecretView>('/api/voice-settings/webhook-secret', session.token);
    expect(first.status).toBe(200);
    const secret = first.body.data?.secret ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect((await get<WebhookSecretView>('/api/voice-settings/webhook-secret', session.token)).body.data?.secret).toBe(secret);

    const item = await getItem(`USER#${session.user._id}`, 'VOICE#SETTINGS');
    expect(item?.webhookSecret).toMatch(/^v1:local:/);
    expect(JSON.stringify(item)).not.toContain(secret.slice(6));
    expect((await get<VoiceSettings>('/api/voice-settings', session.token)).body.data?.summaryWebhookSecretHint).toBe(`whsec_…${secret.slice(-4)}`);

    const otherSecret = (await get<WebhookSecretView>('/api/voice-settings/webhook-secret', other.session.token)).body.data?.secret;
    expect(otherSecret).not.toBe(secret);

    const rotated = await post<WebhookSecretView>('/api/voice-settings/webhook-secret/rotate', undefined, session.token);
    expect(rotated.status).toBe(200);
    const next = rotated.body.data?.secret ?? '';
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect((await get<WebhookSecretView>('/api/voice-settings/webhook-secret', session.token)).body.data?.secret).toBe(next);
    expect((await get<VoiceSettings>('/api/voice-settings', session.token)).body.data?.summaryWebhookSecretHint).toBe(`whsec_…${next.slice(-4)}`);
    expect((await get<WebhookSecretView>('/api/voice-settings/webhook-secret', other.session.token)).body.data?.secret).toBe(otherSecret);
  });
});
