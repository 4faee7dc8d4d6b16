/**
 * The account's deletion end to end (issue 33) on the local stack: a Spanish owner who paid a
 * Checkout on the fake Stripe, an admin member, an agent with a document and its knowledge, an
 * unanswered question, contacts, a WhatsApp conversation with media, a recorded call on Twilio
 * Voice (the fake Twilio), an API key, a calendar feed and avatars. A wrong confirmation changes
 * nothing, the admin is refused, the owner's request is accepted; the privacy-jobs worker then
 * cancels the subscription at Stripe, removes both logins, deletes the recording at Twilio, every
 * object and every item (a Query of each partition returns nothing), and e-mails the owner in
 * Spanish. The job's DeleteObjects fails twice half-way (the S3 fault proxy): the retry finishes it
 * from the step it was in; the job delivered again afterwards changes nothing.
 *
 * The final sweep: the final e-mail is held (the SES fault proxy hangs it) while a late writer puts
 * an item and an object back into the emptied account after the items step; the sweep, queued
 * past the access tokens' lifetime (the local queue runs its delays at RETRY_TIME_SCALE), deletes
 * both and the report counts them (sweptItems, sweptObjects). And while the job runs (held at
 * Twilio's recording DELETE), the admin's access token — still valid after their login went — gets
 * a 402 from a paid route: the subscription item was closed by the job's first step.
 */
import { createHash, randomUUID } from 'node:crypto';
import { PutObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { inject, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../src/contract/api-keys.js';
import { privacyMessages } from '../../src/contract/privacy.js';
import type { TwilioSetupResult } from '../../src/contract/voice.js';
import { api, db, getItem, itemsOf, post, provided, STRONG_PASSWORD, tableName, until } from '../support/api.js';
import { createAgent, seedChunks } from '../support/agents-api.js';
import { subscribedUser } from '../support/billing.js';
import { addContact } from '../support/contacts.js';
import { inbound, openConversation, spanishWaId } from '../support/conversations.js';
import { armFault, clearFault, clearProxy, faultState, switchProxy } from '../support/faults.js';
import { stripeClient } from '../support/fake-stripe-client.js';
import { seedCall } from '../support/seed-calls.js';
import { readMailbox, testS3Client, testSqsClient } from '../support/stack-clients.js';
import { joinedMember, refresh } from '../support/team.js';
import { randomDigits } from '../support/whatsapp.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const bucket = () => provided('uploadsBucket');

async function putObject(key: string, body = 'x'): Promise<void> {
  await testS3Client().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: body }));
}

async function keysUnder(prefix: string): Promise<string[]> {
  const out = await testS3Client().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key!);
}

const deletionItem = (accountId: string) => getItem(`DELETEDACCOUNT#${accountId}`, 'DELETION');

describe('account deletion', () => {
  it('deletes everything of the account, once, after the owner typed ELIMINAR', async () => {
    // ---- The account: a Spanish owner on a paid plan, an admin, and some of everything ----
    const owner = await subscribedUser('starter');
    const accountId = owner.userId;
    expect((await api('PUT', '/api/user/profile', { token: owner.token, body: { name: 'Clínica Peña', language: 'es', country: 'ES' } })).status).toBe(200);
    const admin = await joinedMember({ user: owner.user, token: owner.token, accountId }, 'admin', 'Lucía Martín');

    const agent = await createAgent({ token: owner.token, userId: accountId }, 'Recepción');
    await seedChunks(accountId, agent._id, 'file', 'F1', 3);
    await api('POST', '/api/contacts', { token: owner.token, body: { name: 'Álvaro Núñez', phoneNumber: '612 345 678' } });
    await addContact(owner.token, { name: 'María José Peña', phoneNumber: '+34 699 111 222', email: 'mj@example.es' });
    const business = { phoneId: `PN${randomDigits(10)}`, phoneNumber: '+34910000000' };
    const conversation = await openConversation(accountId, business, { waId: spanishWaId(), name: 'Begoña' });
    const message = await inbound(accountId, business, conversation, { body: 'Hola, ¿tenéis cita el lunes?', hasMedia: true });

    const number = `+3491${randomDigits(7)}`;
    const twilio = (await (
      await fetch(`${provided('twilioApiUrl')}/_test/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ numbers: [number] }) })
    ).json()) as { accountSid: string; authToken: string };
    expect((await api<TwilioSetupResult>('POST', '/api/integrations/twilio-voice/setup', { token: owner.token, body: { ...twilio, phoneNumber: number } })).status).toBe(200);
    const recordingSid = `RE${randomDigits(16)}${randomDigits(16)}`;
    await seedCall(accountId, { recording: { sid: recordingSid, url: `https://api.twilio.com/2010-04-01/Accounts/${twilio.accountSid}/Recordings/${recordingSid}`, durationSec: 40 } });

    const created = await api<CreatedApiKey>('POST', '/api/api-keys', { token: owner.token, body: { name: 'CRM' } });
    expect(created.status).toBe(201);
    const apiKey = created.body.data!.key;
    expect((await api('GET', '/api/contacts', { headers: { 'x-api-key': apiKey } })).status).toBe(200);

    const objects = [
      `agents/${accountId}/${agent._id}/F1/tarifas.pdf`,
      `whatsapp-media/${accountId}/${conversation.id}/${message.id}`,
      `knowledge-index/${accountId}/${agent._id}/es.bin`,
      `avatars/${accountId}/${randomUUID()}.png`,
      `avatars/${admin.personId}/${randomUUID()}.png`,
    ];
    for (const key of objects) await putObject(key);

    // Every partition of the account the test knows it has, with at least one item each.
    const partitions = [
      `USER#${accountId}`,
      `USER#${accountId}#TOK`,
      `USER#${accountId}#CONV#${conversation.id}`,
      `USER#${accountId}#KB#${agent._id}`,
      `USER#${admin.personId}`,
      `PERSON#${admin.personId}`,
      `APIKEYHASH#${sha256(apiKey)}`,
    ];
    for (const pk of partitions) expect((await itemsOf(pk)).length, pk).toBeGreaterThan(0);
    const itemsBefore = (await itemsOf(`USER#${accountId}`)).length;

    // ---- Refused requests change nothing ----
    const wrong = await post('/api/privacy/account-deletion', { confirmation: 'BORRAR' }, owner.token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(privacyMessages.confirmationInvalid);
    expect((await post('/api/privacy/account-deletion', {}, owner.token)).status).toBe(400);
    const byAdmin = await post('/api/privacy/account-deletion', { confirmation: 'ELIMINAR' }, admin.token);
    expect(byAdmin.status).toBe(403);
    expect(await deletionItem(accountId)).toBeUndefined();
    expect((await itemsOf(`USER#${accountId}`)).length).toBe(itemsBefore);
    expect((await stripeClient().subscriptions.retrieve(owner.subscriptionId)).status).not.toBe('canceled');

    // ---- The owner deletes; the job's DeleteObjects fails twice half-way (a crash: the retry finishes it) ----
    const fault = await switchProxy('s3', { state: 'error', times: 2, match: { bodyIncludes: accountId } });
    // The final e-mail held: a late writer has its moment between the items step and the sweep.
    const mailHeld = `held-${randomUUID()}`;
    await switchProxy('ses', { state: 'hang', id: mailHeld, match: { bodyIncludes: owner.user.email } });
    const lateObject = `whatsapp-media/${accountId}/${conversation.id}/${randomUUID()}`;
    // The job held at Twilio's recording DELETE (after the subscription and logins steps).
    const twilioHeld = `held-${randomUUID()}`;
    await armFault('twilio', { id: twilioHeld, kind: 'hang', match: { method: 'DELETE', path: `**/Recordings/${recordingSid}*` } });
    try {
      const accepted = await post('/api/privacy/account-deletion', { confirmation: ' eliminar ' }, owner.token);
      expect(accepted.status, accepted.body.message).toBe(202);
      // A second request while it runs is the same deletion.
      expect((await post('/api/privacy/account-deletion', { confirmation: 'DELETE' }, owner.token)).status).toBe(202);
      await until(async () => ((await faultState('twilio', twilioHeld))?.held ?? 0) > 0, 'the job at the recordings step', 30_000);
      // The admin's login is gone but their access token lives on for minutes: the paid routes are closed already.
      const late = await api('POST', '/api/agents', { token: admin.token, body: { name: 'Tardío' } });
      expect(late.status, JSON.stringify(late.body)).toBe(402);
      await clearFault('twilio', twilioHeld);
      await until(async () => ((await deletionItem(accountId))?.stepsDone as string[] | undefined)?.includes('items'), 'the items step', 50_000);
      // A late writer (a queued worker job, an in-flight webhook) after the items step: an item and an object.
      await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `USER#${accountId}`, sk: `CONTACT#${randomUUID()}`, name: 'Íñigo (tarde)' } }));
      await putObject(lateObject);
      expect((await deletionItem(accountId))?.state).toBe('running');
      await clearProxy('ses', mailHeld);
      await until(async () => (await deletionItem(accountId))?.state === 'done', 'the account deletion to finish', 50_000);
    } finally {
      await clearProxy('s3', (fault as { id?: string }).id).catch(() => undefined);
      await clearProxy('ses', mailHeld).catch(() => undefined);
      await clearFault('twilio', twilioHeld).catch(() => undefined);
    }
    // The sweep found them and deleted them.
    expect(await keysUnder(lateObject)).toEqual([]);

    // Stripe: cancelled now; its webhook (customer.subscription.deleted) wrote nothing back.
    expect((await stripeClient().subscriptions.retrieve(owner.subscriptionId)).status).toBe('canceled');
    // Logins: neither can sign in or refresh.
    for (const person of [owner.user, admin.user]) {
      expect((await post('/api/login', { email: person.email, password: STRONG_PASSWORD })).status).toBe(401);
      expect((await refresh(person.session.refreshToken)).status).toBe(401);
    }
    // The API key no longer authenticates.
    expect((await api('GET', '/api/contacts', { headers: { 'x-api-key': apiKey } })).status).toBe(401);
    // Twilio: the call's recording deleted through its API.
    const removals = (await (await fetch(`${provided('twilioApiUrl')}/_test/deletions?accountSid=${twilio.accountSid}`)).json()) as { recordings: { sid: string }[] };
    expect(removals.recordings.map((r) => r.sid)).toEqual([recordingSid]);
    // Every partition empty, every object gone.
    for (const pk of [...partitions, `USER#${accountId}#UNANSWERED#${agent._id}`]) expect(await itemsOf(pk), pk).toEqual([]);
    for (const prefix of [`agents/${accountId}/`, `whatsapp-media/${accountId}/`, `knowledge-index/${accountId}/`, `avatars/${accountId}/`, `avatars/${admin.personId}/`]) {
      expect(await keysUnder(prefix), prefix).toEqual([]);
    }
    // The final e-mail, in Spanish, to the owner.
    const mails = await until(async () => {
      const found = (await readMailbox({ to: owner.user.email })).filter((m) => m.subject === 'Tu cuenta de AgentDesk se ha eliminado');
      return found.length ? found : undefined;
    }, 'the final e-mail');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body.text).toContain('Stripe conserva');
    // The report: figures and dates, no e-mail address.
    const report = (await deletionItem(accountId))!;
    expect(report).toMatchObject({ state: 'done', stepsDone: ['subscription', 'logins', 'recordings', 'calendar', 'objects', 'items', 'email', 'sweep'] });
    expect(report.counts).toMatchObject({ subscriptions: 1, logins: 2, recordings: 1, emails: 1, sweptItems: 1, sweptObjects: 1 });
    expect((report.counts as { objects: number }).objects).toBe(objects.length);
    expect(typeof report.expiresAt).toBe('number');
    expect(JSON.stringify(report)).not.toContain(owner.user.email);
    expect(JSON.stringify(report)).not.toContain(admin.user.email);

    // ---- The job delivered again: nothing changes ----
    const queueUrl = (inject('queueUrls') as Record<string, string>)['privacy-jobs']!;
    await testSqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ kind: 'accountDeletion', accountId }) }));
    await testSqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ kind: 'accountDeletion', accountId, sweep: true }) }));
    await new Promise((r) => setTimeout(r, 1500));
    expect(await deletionItem(accountId)).toEqual(report);
    expect(await itemsOf(`USER#${accountId}`)).toEqual([]);
    expect((await readMailbox({ to: owner.user.email })).filter((m) => m.subject === 'Tu cuenta de AgentDesk se ha eliminado')).toHaveLength(1);
  });
});
