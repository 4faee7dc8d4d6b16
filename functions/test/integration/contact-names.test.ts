/**
 * Names stay true (issue 17) through the local gateway: a call and a WhatsApp conversation linked
 * to a contact show the contact's CURRENT directory name after a rename (call list and detail,
 * conversations overview, list and detail, the dashboard's recent activity), the WhatsApp profile
 * name only as `profileName`; a caller saved as a contact after the call is named by it; a deleted
 * contact falls back to what the call and conversation stored; the contact's timeline lists its
 * calls and conversations newest first, and another user's contact id answers 404.
 */
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/contract/contacts.js';
import type { ContactTimeline } from '../../src/contract/contact-timeline.js';
import type { DashboardData } from '../../src/contract/dashboard.js';
import type { VoiceConversation, VoiceConversationList } from '../../src/contract/voice.js';
import type { Conversation, ConversationDetail, ConversationOverview } from '../../src/contract/whatsapp.js';
import { api } from '../support/api.js';
import { activeUser, addContact, deleteContact, putContact, type ContactsUser } from '../support/contacts.js';
import { HOUR, ago, conversationsApi, inbound, openConversation, repos, spanishWaId } from '../support/conversations.js';
import { seedCall } from '../support/seed-calls.js';

const business = { phoneId: '100200300', phoneNumber: '+34910000000' };
const PROFILE = 'Pepe 🍕';

const calls = (u: ContactsUser) => api<VoiceConversationList>('GET', '/api/voice-conversations', { token: u.token });
const call = (u: ContactsUser, id: string) => api<{ conversation: VoiceConversation }>('GET', `/api/voice-conversations/${id}`, { token: u.token });
const dashboard = (u: ContactsUser) => api<DashboardData>('GET', '/api/dashboard', { token: u.token });
const timeline = (u: ContactsUser, id: string, query = '') => api<ContactTimeline>('GET', `/api/contacts/${id}/timeline${query}`, { token: u.token });

/** A contact with a call (an hour ago) and a WhatsApp conversation (now) linked to it. */
async function contactWithHistory(u: ContactsUser) {
  const waId = spanishWaId();
  const contact = await addContact(u.token, { name: 'José Martínez', phoneNumber: `+${waId}` });
  const ref = { _id: contact._id, name: contact.name, phoneNumber: contact.phoneNumber };
  const stored = await seedCall(u.userId, { phoneNumber: contact.phoneNumber, contact: ref, createdAt: ago(HOUR).toISOString() });
  const conversation = await openConversation(u.userId, business, { waId, name: PROFILE });
  // As the inbound worker links a customer to the contact holding their number.
  await repos().conversations.linkContact(u.userId, waId, contact._id);
  await inbound(u.userId, business, conversation, { body: '¿Tenéis mesa para mañana?' });
  return { contact, callId: stored.id, conversationId: conversation.id };
}

const inOverview = (o: ConversationOverview, id: string): Conversation | undefined =>
  Object.values(o.conversationsByStatus)
    .flat()
    .find((c) => c._id === id);

describe('names stay true: the contact\'s current name wherever a call or a conversation names it', () => {
  it('shows the renamed contact in the call list and detail, the conversations board, list and detail, and the recent activity', async () => {
    const u = await activeUser();
    const { contact, callId, conversationId } = await contactWithHistory(u);

    const renamed = await putContact(u.token, contact._id, { name: 'Josefina Núñez', phoneNumber: contact.phoneNumber });
    expect(renamed.status).toBe(200);

    const [list, detail, overview, convList, convDetail, dash] = await Promise.all([
      calls(u),
      call(u, callId),
      conversationsApi.overview(u.token),
      conversationsApi.list(u.token),
      conversationsApi.get(u.token, conversationId),
      dashboard(u),
    ]);
    const expected = { _id: contact._id, name: 'Josefina Núñez', phoneNumber: contact.phoneNumber };
    expect(list.body.data!.conversations.find((c) => c._id === callId)?.contact).toEqual(expected);
    expect(detail.body.data!.conversation.contact).toEqual(expected);
    const card = inOverview(overview.body.data as ConversationOverview, conversationId);
    expect(card?.contact).toMatchObject({ _id: contact._id, name: 'Josefina Núñez' });
    expect(card?.profileName).toBe(PROFILE);
    const row = (convList.body.data as Conversation[]).find((c) => c._id === conversationId);
    expect(row?.contact.name).toBe('Josefina Núñez');
    expect(row?.profileName).toBe(PROFILE);
    const opened = (convDetail.body.data as ConversationDetail).conversation;
    expect(opened.contact).toMatchObject({ _id: contact._id, name: 'Josefina Núñez' });
    expect(opened.profileName).toBe(PROFILE);
    expect(dash.body.data!.recentActivity.find((a) => a.callId === callId)?.contactName).toBe('Josefina Núñez');
  });

  it('names a call by the contact saved for its caller\'s number after the call', async () => {
    const u = await activeUser();
    const stored = await seedCall(u.userId, { contact: null });
    const before = await call(u, stored.id);
    expect(before.body.data!.conversation.contact).toBeNull();

    const saved: Contact = await addContact(u.token, { name: 'Begoña Ibáñez', phoneNumber: stored.phoneNumber });

    const [list, detail, dash] = await Promise.all([calls(u), call(u, stored.id), dashboard(u)]);
    const expected = { _id: saved._id, name: 'Begoña Ibáñez', phoneNumber: stored.phoneNumber };
    expect(list.body.data!.conversations[0]!.contact).toEqual(expected);
    expect(detail.body.data!.conversation.contact).toEqual(expected);
    expect(dash.body.data!.recentActivity[0]!.contactName).toBe('Begoña Ibáñez');
  });

  it('falls back to the stored names when the contact is deleted', async () => {
    const u = await activeUser();
    const { contact, callId, conversationId } = await contactWithHistory(u);
    await putContact(u.token, contact._id, { name: 'Josefina Núñez', phoneNumber: contact.phoneNumber });

    expect((await deleteContact(u.token, contact._id)).status).toBe(200);

    const [detail, convDetail, dash] = await Promise.all([call(u, callId), conversationsApi.get(u.token, conversationId), dashboard(u)]);
    // The call keeps the name it was linked with, without the link; the conversation shows the WhatsApp name.
    expect(detail.body.data!.conversation.contact).toEqual({ _id: null, name: 'José Martínez', phoneNumber: contact.phoneNumber });
    const opened = (convDetail.body.data as ConversationDetail).conversation;
    expect(opened.contact).toMatchObject({ _id: '', name: PROFILE });
    expect(dash.body.data!.recentActivity.find((a) => a.callId === callId)?.contactName).toBe('José Martínez');
  });
});

describe('GET /api/contacts/{id}/timeline', () => {
  it('lists the contact\'s calls and conversations newest first, capped with hasMore', async () => {
    const u = await activeUser();
    const { contact, callId, conversationId } = await contactWithHistory(u);
    await seedCall(u.userId, { contact: null }); // another caller: not listed

    const all = await timeline(u, contact._id);
    const first = await timeline(u, contact._id, '?limit=1');

    expect(all.status).toBe(200);
    expect(all.body.data!.items.map((i) => [i.kind, i.id])).toEqual([
      ['conversation', conversationId],
      ['call', callId],
    ]);
    expect(all.body.data!.items[0]).toMatchObject({ summary: '¿Tenéis mesa para mañana?', status: 'active' });
    expect(all.body.data!.items[1]).toMatchObject({ status: 'completed', duration: 83_000 });
    expect(all.body.data!.hasMore).toBe(false);
    expect(first.body.data).toEqual({ items: [all.body.data!.items[0]], hasMore: true });
  });

  it('answers 404 for another user\'s contact and 400 for a bad limit', async () => {
    const [u, other] = await Promise.all([activeUser(), activeUser()]);
    const { contact } = await contactWithHistory(u);

    const foreign = await timeline(other, contact._id);
    const badLimit = await timeline(u, contact._id, '?limit=1000');

    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Contact not found');
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.message).toBe('Limit must be a whole number from 1 to 100');
  });
});
