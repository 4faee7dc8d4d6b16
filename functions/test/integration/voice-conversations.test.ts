/**
 * The call logs API through the local gateway (calls stored through the real
 * DynamoCallRepository): the list (newest first, numbered pages, search by phone digits), the
 * detail (a foreign or unknown id answers 404), a deleted contact losing its link, the recording
 * proxy (the user's Twilio credentials against the fake Twilio REST API) and apply-contact.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/contract/contacts.js';
import { voiceMessages, type CallSummary, type VoiceConversation, type VoiceConversationList } from '../../src/contract/voice.js';
import { api, provided } from '../support/api.js';
import { agentsUser, type AgentsUser } from '../support/agents-api.js';
import { subscribedUser } from '../support/billing.js';
import { getCall, seedCall } from '../support/seed-calls.js';

const list = (user: AgentsUser, query = '') => api<VoiceConversationList>('GET', `/api/voice-conversations${query}`, { token: user.token });
// Issue 17: the request names the fields to apply (apply-contact-preview.test.ts covers the choice and the undo).
const applyContact = (user: AgentsUser, id: string, fields: string[] = ['name', 'email']) =>
  api<{ conversation: VoiceConversation; contact: Contact; created: boolean }>('POST', `/api/voice-conversations/${id}/apply-contact`, { token: user.token, body: { fields } });

const SUMMARY: CallSummary = {
  quickSummary: 'Ana wants a table for four.',
  actionPoints: [],
  sentiment: 'neutral',
  urgency: 'low',
  tone: 'calm',
  contactExtracted: { name: 'Ana García', phone: '', email: 'Ana@Example.com', web: '' },
  bookingExtracted: { from: '', to: '', numberOfPeople: null, note: '' },
};

async function paidUser(): Promise<AgentsUser> {
  const s = await subscribedUser();
  return { token: s.token, userId: s.userId };
}

describe('GET /api/voice-conversations', () => {
  it('lists the user\'s calls newest first with numbered pages and no transcripts', async () => {
    const user = await agentsUser();
    const other = await agentsUser();
    const calls = [];
    for (let i = 0; i < 3; i++) calls.push(await seedCall(user.userId));
    await seedCall(other.userId);

    const all = await list(user);
    const page2 = await list(user, '?page=2&limit=2');

    expect(all.status).toBe(200);
    expect(all.body.data!.conversations.map((c) => c._id)).toEqual(calls.map((c) => c.id).reverse());
    expect(all.body.data!.pagination).toEqual({ currentPage: 1, totalPages: 1, totalItems: 3, limit: 20 });
    const row = all.body.data!.conversations[0]!;
    expect(row).toMatchObject({ status: 'completed', phoneNumber: calls[2]!.phoneNumber, duration: 83_000, messageCount: 4, hasRecording: false });
    expect(row).not.toHaveProperty('messages');
    expect(row).not.toHaveProperty('settings');
    expect(row).not.toHaveProperty('userId');
    expect(page2.body.data!.conversations.map((c) => c._id)).toEqual([calls[0]!.id]);
    expect(page2.body.data!.pagination).toEqual({ currentPage: 2, totalPages: 2, totalItems: 3, limit: 2 });
  });

  it('searches by the digits of the caller\'s number, whatever the formatting', async () => {
    const user = await agentsUser();
    const a = await seedCall(user.userId, { phoneNumber: `+3461${randomInt(1_000_000, 9_999_999)}` });
    await seedCall(user.userId);
    const digits = a.phoneNumber.slice(5);

    const found = await list(user, `?search=${encodeURIComponent(`${digits.slice(0, 3)} ${digits.slice(3)}`)}`);
    const letters = await list(user, '?search=abc');

    expect(found.body.data!.conversations.map((c) => c._id)).toEqual([a.id]);
    expect(found.body.data!.pagination.totalItems).toBe(1);
    expect(letters.body.data!.conversations).toEqual([]);
    expect(letters.body.data!.pagination.totalItems).toBe(0);
  });

  it('refuses a bad page or limit', async () => {
    const user = await agentsUser();
    expect((await list(user, '?page=0')).body).toMatchObject({ success: false, message: voiceMessages.pageInvalid });
    expect((await list(user, '?limit=101')).status).toBe(400);
    expect((await list(user, '?limit=101')).body.message).toBe(voiceMessages.limitInvalid);
  });

  it('requires authentication', async () => {
    expect((await api('GET', '/api/voice-conversations')).status).toBe(401);
  });
});

describe('GET /api/voice-conversations/{id}', () => {
  it('answers the call with its transcript, analysis and deliveries', async () => {
    const user = await agentsUser();
    const seeded = await seedCall(user.userId, {
      summary: SUMMARY,
      summaryStatus: 'completed',
      deliveries: [{ method: 'webhook', attempt: 1, at: new Date().toISOString(), ok: true, status: 200 }],
    });

    const res = await api<{ conversation: VoiceConversation }>('GET', `/api/voice-conversations/${seeded.id}`, { token: user.token });

    expect(res.status).toBe(200);
    const call = res.body.data!.conversation;
    expect(call).toMatchObject({ _id: seeded.id, callSid: seeded.callSid, status: 'completed', summary: SUMMARY, summaryStatus: 'completed', hasRecording: false });
    expect(call.messages.map((m) => [m.role, m.confidence])).toEqual([
      ['agent', null],
      ['user', 0.93],
      ['agent', null],
      ['user', 0.88],
    ]);
    expect(call.deliveries).toHaveLength(1);
    expect(call.voiceSettings).toEqual(seeded.voiceSettings);
    expect(call).not.toHaveProperty('recording');
  });

  it("answers 404 for another user's call, an unknown id and a malformed one", async () => {
    const user = await agentsUser();
    const other = await agentsUser();
    const theirs = await seedCall(other.userId);

    for (const id of [theirs.id, '01JAAAAAAAAAAAAAAAAAAAAAAA', 'not-an-id']) {
      const res = await api('GET', `/api/voice-conversations/${id}`, { token: user.token });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(voiceMessages.callNotFound);
    }
    for (const path of [`${theirs.id}/recording`]) expect((await api('GET', `/api/voice-conversations/${path}`, { token: user.token })).status).toBe(404);
    expect((await applyContact(user, theirs.id)).status).toBe(404);
  });

  it('keeps the name of a deleted contact but drops its id', async () => {
    const user = await paidUser();
    const created = await api<Contact>('POST', '/api/contacts', { token: user.token, body: { name: 'Luis', phoneNumber: `+3462${randomInt(1_000_000, 9_999_999)}` } });
    expect(created.status).toBe(201);
    const contact = created.body.data!;
    const seeded = await seedCall(user.userId, { phoneNumber: contact.phoneNumber, contact: { _id: contact._id, name: 'Luis', phoneNumber: contact.phoneNumber } });
    expect((await getCall(user.token, seeded.id))?.contact?._id).toBe(contact._id);

    expect((await api('DELETE', `/api/contacts/${contact._id}`, { token: user.token })).status).toBe(200);

    expect((await getCall(user.token, seeded.id))?.contact).toEqual({ _id: null, name: 'Luis', phoneNumber: contact.phoneNumber });
    expect((await list(user)).body.data!.conversations[0]!.contact).toEqual({ _id: null, name: 'Luis', phoneNumber: contact.phoneNumber });
  });
});

describe('GET /api/voice-conversations/{id}/recording', () => {
  const twilioApiUrl = () => provided('twilioApiUrl');

  async function twilioUser() {
    const user = await agentsUser();
    const phoneNumber = `+1415${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
    const res = await fetch(`${twilioApiUrl()}/_test/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ numbers: [phoneNumber] }),
    });
    const account = (await res.json()) as { accountSid: string; authToken: string };
    const setup = await api('POST', '/api/integrations/twilio-voice/setup', { token: user.token, body: { ...account, phoneNumber } });
    expect(setup.status).toBe(200);
    return { user, account };
  }

  const recordingUrl = (origin: string, accountSid: string) => `${origin}/2010-04-01/Accounts/${accountSid}/Recordings/RE${randomBytes(16).toString('hex')}`;

  it("streams the recording fetched from Twilio with the user's credentials", async () => {
    const { user, account } = await twilioUser();
    const url = recordingUrl(twilioApiUrl(), account.accountSid);
    const seeded = await seedCall(user.userId, { recording: { sid: url.split('/').pop()!, url, durationSec: 1 } });
    const direct = await fetch(`${url}.mp3`, { headers: { authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}` } });
    const expected = Buffer.from(await direct.arrayBuffer());

    expect((await getCall(user.token, seeded.id))?.hasRecording).toBe(true);
    const res = await fetch(`${provided('apiUrl')}/api/voice-conversations/${seeded.id}/recording`, { headers: { authorization: `Bearer ${user.token}` } });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBeGreaterThan(0);
    expect(body.equals(expected)).toBe(true);
  });

  it('answers 404 without a recording, or when the stored URL is not Twilio', async () => {
    const { user, account } = await twilioUser();
    const none = await seedCall(user.userId);
    const foreign = recordingUrl('https://evil.example.com', account.accountSid);
    const elsewhere = await seedCall(user.userId, { recording: { sid: 'RE1', url: foreign, durationSec: 1 } });

    for (const id of [none.id, elsewhere.id]) {
      const res = await api('GET', `/api/voice-conversations/${id}/recording`, { token: user.token });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(voiceMessages.noRecording);
    }
  });
});

describe('POST /api/voice-conversations/{id}/apply-contact', () => {
  it('creates a contact with the caller\'s number and the extracted data, and links the call', async () => {
    const user = await paidUser();
    const seeded = await seedCall(user.userId, { summary: SUMMARY, summaryStatus: 'completed' });

    const res = await applyContact(user, seeded.id);

    expect(res.status).toBe(200);
    expect(res.body.message).toBe(voiceMessages.contactApplied);
    const { contact, created, conversation } = res.body.data!;
    expect(created).toBe(true);
    expect(contact).toMatchObject({ name: 'Ana García', email: 'ana@example.com', phoneNumber: seeded.phoneNumber });
    expect(conversation.contact).toEqual({ _id: contact._id, name: 'Ana García', phoneNumber: seeded.phoneNumber });
    // Issue 29: a contact saved from a call says so ('Llamada').
    expect((await api<Contact>('GET', `/api/contacts/${contact._id}`, { token: user.token })).body.data).toMatchObject({ name: 'Ana García', email: 'ana@example.com', origin: 'call' });
    expect((await getCall(user.token, seeded.id))?.contact?._id).toBe(contact._id);
  });

  it('updates the contact holding the caller\'s number', async () => {
    const user = await paidUser();
    const phone = `+3463${randomInt(1_000_000, 9_999_999)}`;
    const existing = (await api<Contact>('POST', '/api/contacts', { token: user.token, body: { name: 'Unknown caller', phoneNumber: phone } })).body.data!;
    const seeded = await seedCall(user.userId, { phoneNumber: phone, summary: SUMMARY, summaryStatus: 'completed' });

    const res = await applyContact(user, seeded.id);

    expect(res.status).toBe(200);
    expect(res.body.data!.created).toBe(false);
    expect(res.body.data!.contact).toMatchObject({ _id: existing._id, name: 'Ana García', email: 'ana@example.com', phoneNumber: phone });
    expect((await api<{ totalContacts: number }>('GET', '/api/contacts', { token: user.token })).body).toMatchObject({ pagination: { totalContacts: 1 } });
  });

  it('refuses a call without analysis or without extracted contact data', async () => {
    const user = await paidUser();
    const pending = await seedCall(user.userId);
    const empty = await seedCall(user.userId, { summaryStatus: 'completed', summary: { ...SUMMARY, contactExtracted: { name: ' ', phone: '', email: 'not-an-email', web: '' } } });

    expect((await applyContact(user, pending.id)).body).toMatchObject({ success: false, message: voiceMessages.noSummary });
    const res = await applyContact(user, empty.id);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(voiceMessages.noExtractedContact);
  });
});
