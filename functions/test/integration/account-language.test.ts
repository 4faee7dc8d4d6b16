/**
 * The account's language and time zone at sign-up (issue 29): the UI language a person signs up in
 * (their choice on the page, else their browser's) becomes the account's language, so every
 * e-mail and every device follows it; an explicit change in the settings wins and is kept. The
 * time zone starts as the browser's when it lies in the account's country, else the country's
 * own zone (Europe/Madrid for Spain), never UTC for a known country.
 */
import { describe, expect, it } from 'vitest';
import type { AuthSession, User } from '../../src/contract/auth.js';
import { mintGoogleIdToken, type GoogleClaims } from '../support/fake-google.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { api, db, get, getItem, mailsTo, post, provided, readCode, STRONG_PASSWORD, tableName, uniqueEmail } from '../support/api.js';

const mint = (claims: GoogleClaims) => mintGoogleIdToken(provided('googlePrivateJwk'), claims);

/** Signs up through the code e-mail the way the register page does, with the page's extras. */
async function signUp(extras: Record<string, unknown>, codeLanguage?: string) {
  const email = uniqueEmail('idioma');
  expect((await post('/api/send-verification', { email, ...(codeLanguage ? { language: codeLanguage } : {}) })).status).toBe(200);
  const verificationCode = await readCode(email, 'verify');
  const res = await post<AuthSession>('/api/register', { name: 'Lucía Muñoz', email, password: STRONG_PASSWORD, verificationCode, ...extras });
  expect(res.status, res.body.message).toBe(201);
  return { email, session: res.body.data! };
}

describe('the language chosen at sign-up', () => {
  it('makes a Spanish account: the code e-mail, the profile, /api/me and the reset e-mail are Spanish', async () => {
    const { email, session } = await signUp({ language: 'es', country: 'ES' }, 'es');

    const [codeMail] = await mailsTo(email);
    expect(codeMail?.subject).toBe('Tu código de verificación de AgentDesk');
    expect(session.user.language).toBe('es');
    expect(await getItem(`USER#${session.user._id}`, 'PROFILE')).toMatchObject({ language: 'es' });
    expect((await get<User>('/api/me', session.token)).body.data!.language).toBe('es');

    expect((await post('/api/send-password-reset', { email })).status).toBe(200);
    const mails = await mailsTo(email);
    expect(mails.at(-1)?.subject).toBe('Restablece tu contraseña de AgentDesk');
  });

  it('stays Spanish when the account signs in from a device whose browser is English', async () => {
    const { email } = await signUp({ language: 'es' }, 'es');

    // A login carries no language: the account's is the one that counts.
    const login = await post<AuthSession>('/api/login', { email, password: STRONG_PASSWORD });

    expect(login.status).toBe(200);
    expect(login.body.data!.user.language).toBe('es');
  });

  it('keeps English as the default when the page sends no language, and ignores an unknown one', async () => {
    const none = await signUp({});
    const unknown = await signUp({ language: 'fr' });

    expect(none.session.user.language).toBe('en');
    expect(unknown.session.user.language).toBe('en');
  });

  it('an explicit change in the settings wins and is kept for the next sign-in', async () => {
    const { email, session } = await signUp({ language: 'es', country: 'ES' }, 'es');

    const saved = await api<User>('PUT', '/api/user/profile', { token: session.token, body: { name: 'Lucía Muñoz', language: 'en' } });
    const login = await post<AuthSession>('/api/login', { email, password: STRONG_PASSWORD });

    expect(saved.status).toBe(200);
    expect(saved.body.data!.language).toBe('en');
    expect(login.body.data!.user.language).toBe('en');
    expect(await getItem(`USER#${session.user._id}`, 'PROFILE')).toMatchObject({ language: 'en' });
  });

  it('Google sign-in creates a Spanish account from the page language; a later sign-in keeps it', async () => {
    const email = uniqueEmail('gmail-es');

    const first = await post<AuthSession>('/api/google-auth', { credential: await mint({ email, name: 'Gala Gómez' }), language: 'es', country: 'ES' });
    const second = await post<AuthSession>('/api/google-auth', { credential: await mint({ email }), language: 'en', country: 'US' });

    expect(first.status).toBe(201);
    expect(first.body.data!.user).toMatchObject({ language: 'es', country: 'ES', timeZone: 'Europe/Madrid' });
    expect(second.status).toBe(200);
    // The account exists: its language, country and zone are not the browser's any more.
    expect(second.body.data!.user).toMatchObject({ language: 'es', country: 'ES', timeZone: 'Europe/Madrid' });
  });
});

describe('the time zone at sign-up', () => {
  it.each([
    // The country's own zone when the browser gives none or one from elsewhere.
    [{ country: 'ES' }, 'Europe/Madrid'],
    [{ country: 'ES', timeZone: 'America/New_York' }, 'Europe/Madrid'],
    [{ country: 'MX' }, 'America/Mexico_City'],
    [{ country: 'AR', timeZone: 'UTC' }, 'America/Argentina/Buenos_Aires'],
    [{ country: 'CO' }, 'America/Bogota'],
    [{ country: 'CL' }, 'America/Santiago'],
    [{ country: 'PE' }, 'America/Lima'],
    // The browser's zone when it lies in that country (the Canaries are an hour behind Madrid).
    [{ country: 'ES', timeZone: 'Atlantic/Canary' }, 'Atlantic/Canary'],
    [{ country: 'MX', timeZone: 'America/Tijuana' }, 'America/Tijuana'],
    // No country known: the browser's zone; a zone that does not exist never blocks a sign-up.
    [{ timeZone: 'Europe/Madrid' }, 'Europe/Madrid'],
    [{ country: 'ES', timeZone: 'Mars/Olympus' }, 'Europe/Madrid'],
  ])('%j → %s', async (extras, zone) => {
    const { session } = await signUp({ language: 'es', ...extras });

    expect(session.user.timeZone).toBe(zone);
    expect(await getItem(`USER#${session.user._id}`, 'PROFILE')).toMatchObject({ timeZone: zone });
  });
});

describe('an account made before the zone was set at sign-up', () => {
  /** The profile as sign-up left it before issue 29: a country, no zone. */
  const forgetZone = (userId: string) =>
    db().send(new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${userId}`, sk: 'PROFILE' }, UpdateExpression: 'REMOVE #zone', ExpressionAttributeNames: { '#zone': 'timeZone' } }));

  it("gets its country's zone at the next sign-in, stored for every reader", async () => {
    const { email, session } = await signUp({ language: 'es', country: 'ES' }, 'es');
    await forgetZone(session.user._id);
    expect((await get<User>('/api/me', session.token)).body.data!.timeZone).toBe('UTC');

    const login = await post<AuthSession>('/api/login', { email, password: STRONG_PASSWORD });

    expect(login.body.data!.user.timeZone).toBe('Europe/Madrid');
    expect(await getItem(`USER#${session.user._id}`, 'PROFILE')).toMatchObject({ timeZone: 'Europe/Madrid' });
  });

  it('keeps a zone the person chose, UTC included', async () => {
    const { email, session } = await signUp({ language: 'es', country: 'ES' }, 'es');
    await api('PUT', '/api/user/profile', { token: session.token, body: { name: 'Lucía Muñoz', language: 'es', timeZone: 'UTC' } });

    const login = await post<AuthSession>('/api/login', { email, password: STRONG_PASSWORD });

    expect(login.body.data!.user.timeZone).toBe('UTC');
  });
});

describe("the browser's Accept-Language when the page names no language", () => {
  const spanishBrowser = { 'accept-language': 'es-ES,es;q=0.9,en;q=0.8' };

  it('writes the code e-mail and makes the account in Spanish for a Spanish browser', async () => {
    const email = uniqueEmail('cabecera');
    expect((await api('POST', '/api/send-verification', { body: { email }, headers: spanishBrowser })).status).toBe(200);
    const [codeMail] = await mailsTo(email);
    const verificationCode = await readCode(email, 'verify');

    const res = await api<AuthSession>('POST', '/api/register', { body: { name: 'Lucía Muñoz', email, password: STRONG_PASSWORD, verificationCode }, headers: spanishBrowser });

    expect(codeMail?.subject).toBe('Tu código de verificación de AgentDesk');
    expect(res.body.data!.user.language).toBe('es');
  });

  it("lets the page's own language win over the browser's", async () => {
    const email = uniqueEmail('elige');
    await api('POST', '/api/send-verification', { body: { email, language: 'en' }, headers: spanishBrowser });
    const verificationCode = await readCode(email, 'verify');

    const res = await api<AuthSession>('POST', '/api/register', { body: { name: 'Lucy Moon', email, password: STRONG_PASSWORD, verificationCode, language: 'en' }, headers: spanishBrowser });

    expect((await mailsTo(email))[0]?.subject).toBe('Your AgentDesk verification code');
    expect(res.body.data!.user.language).toBe('en');
  });

  it('Google sign-in reads it too', async () => {
    const email = uniqueEmail('gmail-cabecera');
    const res = await api<AuthSession>('POST', '/api/google-auth', { body: { credential: await mint({ email, name: 'Gala Gómez' }) }, headers: spanishBrowser });
    expect(res.body.data!.user.language).toBe('es');
  });
});
