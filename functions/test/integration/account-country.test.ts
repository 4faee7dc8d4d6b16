/**
 * Country per account (issue 19) through the local gateway: the profile's country (preset at
 * sign-up, validated, the deployment default until chosen) is the country of every phone number
 * typed without a prefix — contacts, WhatsApp and Twilio setup — and the invalid-phone message
 * names how a number is typed there.
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuthSession, User } from '../../src/contract/auth.js';
import type { Contact } from '../../src/contract/contacts.js';
import type { WhatsAppImportResult } from '../../src/contract/whatsapp.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { api, db, getItem, post, provided, readCode, registerUser, STRONG_PASSWORD, tableName, uniqueEmail } from '../support/api.js';
import { grantSubscription } from '../support/billing.js';
import { createContact, listContacts, putContact } from '../support/contacts.js';
import { inbound, openConversation, repos } from '../support/conversations.js';
import { randomDigits } from '../support/whatsapp.js';

const ES_INVALID = 'Please enter a valid phone number, e.g. 612 34 56 78 or +34 612 34 56 78';
const US_INVALID = 'Please enter a valid phone number, e.g. (201) 555-0123 or +1 201 555 0123';

const saveProfile = (token: string, body: Record<string, unknown>) => api<User>('PUT', '/api/user/profile', { token, body });

/** A subscribed user (integrations and contacts are paid) whose profile says `country`, or the default when absent. */
async function userIn(country?: string) {
  const { session } = await registerUser();
  const { token } = session;
  const userId = session.user._id;
  await grantSubscription(userId, { plan: 'enterprise' });
  if (country) expect((await saveProfile(token, { name: 'Clínica Peña', language: 'es', country })).status).toBe(200);
  return { token, userId };
}

describe('the profile country', () => {
  it('is preset at sign-up from the browser locale and read back on /api/me', async () => {
    const email = uniqueEmail('es');
    await post('/api/send-verification', { email, language: 'es' });
    const verificationCode = await readCode(email, 'verify');

    const res = await post<AuthSession>('/api/register', { name: 'Lucía Muñoz', email, password: STRONG_PASSWORD, verificationCode, country: 'es' });
    const me = await api<User>('GET', '/api/me', { token: res.body.data!.token });

    expect(res.status).toBe(201);
    expect(res.body.data!.user.country).toBe('ES');
    expect(me.body.data!.country).toBe('ES');
    expect(await getItem(`USER#${me.body.data!._id}`, 'PROFILE')).toMatchObject({ country: 'ES' });
  });

  it('reads as the deployment default for a profile that never chose one, and is changed in the settings', async () => {
    const { session } = await registerUser();

    const before = await api<User>('GET', '/api/me', { token: session.token });
    const saved = await saveProfile(session.token, { name: 'Ana Peña', language: 'es', country: 'mx' });
    const spec = await post<User>('/api/settings', { name: 'Ana Peña', phoneNumber: '', language: 'es' }, session.token);

    expect(before.body.data!.country).toBe('US');
    expect(saved.body.data!.country).toBe('MX');
    // The spec's three fields alone leave the country as it is.
    expect(spec.body.data!.country).toBe('MX');
  });

  it.each(['ZZ', 'ESP', '34', 5])('refuses %j with the message, changing nothing', async (country) => {
    const { session } = await registerUser();
    const userId = session.user._id;

    const res = await saveProfile(session.token, { name: 'Otro Nombre', language: 'es', country });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'Country must be a two-letter country code, e.g. ES, MX or US' });
    expect(await getItem(`USER#${userId}`, 'PROFILE')).toMatchObject({ name: 'Test User', language: 'en' });
    expect(await getItem(`USER#${userId}`, 'PROFILE')).not.toHaveProperty('country');
  });

  it('refuses a bad country at sign-up (400, no account)', async () => {
    const email = uniqueEmail('bad-country');
    await post('/api/send-verification', { email });
    const verificationCode = await readCode(email, 'verify');

    const res = await post('/api/register', { name: 'Ana', email, password: STRONG_PASSWORD, verificationCode, country: 'XX' });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Country must be a two-letter country code, e.g. ES, MX or US');
  });
});

describe('contacts in the account country', () => {
  it.each([
    ['600 111 333', '+34600111333'],
    ['911 22 23 33', '+34911222333'],
    ['+34 600 111 333', '+34600111333'],
    ['0034600111333', '+34600111333'],
    ['600.111.333', '+34600111333'],
    ['+52 55 1234 5678', '+525512345678'],
  ])('ES account: %s is saved as %s', async (typed, e164) => {
    const { token } = await userIn('ES');

    const res = await createContact(token, { name: 'Lucía Muñoz', phoneNumber: typed });

    expect(res.status).toBe(201);
    expect(res.body.data!.phoneNumber).toBe(e164);
  });

  it('ES account: an edit reads the number in ES too; a wrong one names the Spanish form', async () => {
    const { token } = await userIn('ES');
    const created = (await createContact(token, { name: 'Pedro Peña', phoneNumber: '+34 612 34 56 78' })).body.data as Contact;

    const edited = await putContact(token, created._id, { name: 'Pedro Peña', phoneNumber: '699 12 34 56' });
    const wrong = await putContact(token, created._id, { name: 'Pedro Peña', phoneNumber: '123 456' });
    const wrongNew = await createContact(token, { name: 'X', phoneNumber: '(415) 555-0123' });

    expect(edited.status).toBe(200);
    expect(edited.body.data!.phoneNumber).toBe('+34699123456');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: ES_INVALID, field: 'phoneNumber' });
    expect(wrongNew.body).toMatchObject({ message: ES_INVALID, field: 'phoneNumber' });
  });

  it('a US account (the default) still reads US numbers and refuses a Spanish one without prefix', async () => {
    const { token } = await userIn();

    const us = await createContact(token, { name: 'Ann', phoneNumber: '(415) 555-0123' });
    const es = await createContact(token, { name: 'Ana', phoneNumber: '600 111 333' });

    expect(us.body.data!.phoneNumber).toBe('+14155550123');
    expect(es.status).toBe(400);
    expect(es.body.message).toBe(US_INVALID);
  });
});

describe('the profile phone in the account country', () => {
  it.each([
    ['600 111 333', '+34600111333'],
    ['+34 600.111.333', '+34600111333'],
    ['0034 911 22 23 33', '+34911222333'],
  ])('ES account: %s is saved as %s', async (typed, e164) => {
    const { token, userId } = await userIn('ES');

    const res = await saveProfile(token, { name: 'Lucía Muñoz', language: 'es', phoneNumber: typed });
    const settings = await post<User>('/api/settings', { name: 'Lucía Muñoz', language: 'es', phoneNumber: typed }, token);

    expect(res.status).toBe(200);
    expect(res.body.data!.phoneNumber).toBe(e164);
    expect(settings.body.data!.phoneNumber).toBe(e164);
    expect(await getItem(`USER#${userId}`, 'PROFILE')).toMatchObject({ phoneNumber: e164 });
  });

  it('is read in the country saved with it: a US account moving to MX saves a Mexican national number', async () => {
    const { token } = await userIn();

    const res = await saveProfile(token, { name: 'Ana Peña', language: 'es', country: 'MX', phoneNumber: '55 1234 5678' });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ country: 'MX', phoneNumber: '+525512345678' });
  });

  it('a number that is not one of the account country is a 400 naming its form; nothing is saved', async () => {
    const { token, userId } = await userIn('ES');
    expect((await saveProfile(token, { name: 'Pedro Peña', language: 'es', phoneNumber: '612 34 56 78' })).status).toBe(200);

    const res = await saveProfile(token, { name: 'Otro Nombre', language: 'es', phoneNumber: '123 456' });
    const us = await saveProfile((await userIn()).token, { name: 'Ann', language: 'en', phoneNumber: '600 111 333' });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: ES_INVALID, field: 'phoneNumber' });
    expect(await getItem(`USER#${userId}`, 'PROFILE')).toMatchObject({ name: 'Pedro Peña', phoneNumber: '+34612345678' });
    expect(us.status).toBe(400);
    expect(us.body).toMatchObject({ message: US_INVALID, field: 'phoneNumber' });
  });
});

describe('the profile phone saved before issue 19', () => {
  it('a number stored under the old digits-only rule is kept when the form sends it back unchanged', async () => {
    const { token, userId } = await userIn('ES');
    // SPEC §5's pattern allowed digits without + (e.g. '34600111222'): not a valid national number in ES.
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${userId}`, sk: 'PROFILE' }, UpdateExpression: 'SET phoneNumber = :p', ExpressionAttributeValues: { ':p': '34600111222' } }),
    );

    const res = await saveProfile(token, { name: 'Nuevo Nombre', language: 'es', phoneNumber: '34600111222' });

    expect(res.status).toBe(200);
    expect(await getItem(`USER#${userId}`, 'PROFILE')).toMatchObject({ name: 'Nuevo Nombre', phoneNumber: '34600111222' });
  });
});

describe('Import from WhatsApp in the account country', () => {
  it('ES account: a customer stored with the national "600 111 333" becomes a +34600111333 contact, linked to the conversation', async () => {
    const { token, userId } = await userIn('ES');
    const business = { phoneId: `9${randomDigits(14)}`, phoneNumber: '+34911222333' };
    const conv = await openConversation(userId, business, { waId: `34${randomDigits(9)}`, name: 'Lucía Muñoz', phone: '600 111 333' });
    await inbound(userId, business, conv, { body: '¿Tenéis cita el sábado?' });

    const res = await api<WhatsAppImportResult>('POST', '/api/contacts/import-whatsapp', { token });

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ imported: 1, skipped: 0 });
    const [contact] = (await listContacts(token)).body.data as Contact[];
    expect(contact).toMatchObject({ name: 'Lucía Muñoz', phoneNumber: '+34600111333', source: 'whatsapp_import' });
    expect((await repos().conversations.get(userId, conv.id))?.contactId).toBe(contact!._id);
  });
});

describe('integrations in the account country', () => {
  const whatsapp = (token: string, phoneNumber: string) =>
    api('POST', '/api/integrations/whatsapp-business/setup', {
      token,
      body: { bearerToken: `EAAG${randomDigits(20)}`, appSecret: 'secret', businessId: randomDigits(15), phoneId: randomDigits(15), phoneNumber },
    });

  it.each([
    ['911 22 23 33', '+34911222333'],
    ['0034 911 22 23 33', '+34911222333'],
    ['+34 911.22.23.33', '+34911222333'],
  ])('WhatsApp setup in an ES account: %s → %s (not the Indian +911222333)', async (typed, e164) => {
    const { token, userId } = await userIn('ES');

    const res = await whatsapp(token, typed);

    expect(res.status).toBe(200);
    expect(await getItem(`USER#${userId}`, 'INTEGRATION#whatsapp-business')).toMatchObject({ settings: { phoneNumber: e164 } });
  });

  it('WhatsApp setup refuses a number that is not one of the account country, naming its form; nothing is saved', async () => {
    const { token, userId } = await userIn();

    const res = await whatsapp(token, '911 22 23 33');

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: US_INVALID, field: 'phoneNumber' });
    expect(await getItem(`USER#${userId}`, 'INTEGRATION#whatsapp-business')).toBeUndefined();
  });

  it('Twilio setup in an ES account stores +34… and points that number at the webhook', async () => {
    const { token, userId } = await userIn('ES');
    const national = `91${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
    const res0 = await fetch(`${provided('twilioApiUrl')}/_test/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ numbers: [`+34${national}`], friendlyName: 'Clínica Peña' }),
    });
    const account = (await res0.json()) as { accountSid: string; authToken: string };
    const typed = `${national.slice(0, 3)} ${national.slice(3, 5)} ${national.slice(5, 7)} ${national.slice(7)}`;

    const res = await api<{ numberConfigured: boolean }>('POST', '/api/integrations/twilio-voice/setup', {
      token,
      body: { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: typed },
    });
    const bad = await api('POST', '/api/integrations/twilio-voice/setup', {
      token,
      body: { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: '12 34 56' },
    });

    expect(res.status).toBe(200);
    expect(res.body.data!.numberConfigured).toBe(true);
    expect(await getItem(`USER#${userId}`, 'INTEGRATION#twilio-voice')).toMatchObject({ settings: { phoneNumber: `+34${national}` } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: ES_INVALID, field: 'phoneNumber' });
  });
});
