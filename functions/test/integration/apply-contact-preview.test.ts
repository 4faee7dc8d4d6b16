/**
 * Apply to contact, field by field (issue 17), through the local gateway against DynamoDB Local:
 * the preview shows current → proposed from the server's rule, the apply writes only the chosen
 * fields (the reported bug: one click renamed a saved patient to the AI-extracted name), and the
 * undo restores exactly what changed — once, and only while nobody changed it again.
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  applyContactMessages,
  type ApplyContactPreview,
  type ApplyContactResult,
  type UndoApplyContactResult,
} from '../../src/contract/apply-contact.js';
import type { Contact } from '../../src/contract/contacts.js';
import { voiceMessages, type CallSummary } from '../../src/contract/voice.js';
import { api } from '../support/api.js';
import type { AgentsUser } from '../support/agents-api.js';
import { subscribedUser } from '../support/billing.js';
import { getCall, seedCall } from '../support/seed-calls.js';

const SUMMARY: CallSummary = {
  quickSummary: 'Ana García pide cita para una limpieza dental.',
  actionPoints: ['Llamar para confirmar la cita'],
  sentiment: 'neutral',
  urgency: 'low',
  tone: 'tranquila',
  contactExtracted: { name: 'Ana García', phone: '', email: 'Ana.Garcia@Example.com', web: 'https://clinica-ana.example' },
  bookingExtracted: { from: '', to: '', numberOfPeople: null, note: '' },
};

const base = (id: string) => `/api/voice-conversations/${id}/apply-contact`;
const preview = (user: AgentsUser, id: string) => api<ApplyContactPreview>('GET', `${base(id)}/preview`, { token: user.token });
const apply = (user: AgentsUser, id: string, body: unknown) => api<ApplyContactResult>('POST', base(id), { token: user.token, body });
const undo = (user: AgentsUser, id: string, token: string) => api<UndoApplyContactResult>('POST', `${base(id)}/undo`, { token: user.token, body: { token } });
const getContact = (user: AgentsUser, id: string) => api<Contact>('GET', `/api/contacts/${id}`, { token: user.token });

async function paidUser(): Promise<AgentsUser> {
  const s = await subscribedUser();
  return { token: s.token, userId: s.userId };
}

const spanishMobile = () => `+346${randomInt(10_000_000, 99_999_999)}`;

/** A saved patient (name, no e-mail) and a call from their number whose analysis found another name. */
async function savedPatientCall(user: AgentsUser) {
  const phone = spanishMobile();
  const saved = await api<Contact>('POST', '/api/contacts', { token: user.token, body: { name: 'María José Núñez', phoneNumber: phone } });
  expect(saved.status).toBe(201);
  const call = await seedCall(user.userId, { phoneNumber: phone, summary: SUMMARY, summaryStatus: 'completed' });
  return { contact: saved.body.data!, call };
}

describe('GET /api/voice-conversations/{id}/apply-contact/preview', () => {
  it("shows each field's current and proposed value, preselecting only the empty ones", async () => {
    const user = await paidUser();
    const { contact, call } = await savedPatientCall(user);

    const res = await preview(user, call.id);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      contactId: contact._id,
      contactName: 'María José Núñez',
      fields: [
        { field: 'name', current: 'María José Núñez', proposed: 'Ana García', preselected: false, required: false },
        { field: 'email', current: '', proposed: 'ana.garcia@example.com', preselected: true, required: false },
        { field: 'web', current: '', proposed: 'https://clinica-ana.example', preselected: true, required: false },
      ],
    });
    // A preview changes nothing.
    expect((await getContact(user, contact._id)).body.data).toMatchObject({ name: 'María José Núñez', email: '' });
  });

  it('proposes a new contact with the number the caller said (no +34 typed) when the caller withheld theirs', async () => {
    const user = await paidUser();
    const call = await seedCall(user.userId, {
      phoneNumber: 'anonymous',
      summary: { ...SUMMARY, contactExtracted: { ...SUMMARY.contactExtracted, phone: '+34 612 34 56 78', web: '' } },
      summaryStatus: 'completed',
    });

    const res = await preview(user, call.id);

    expect(res.body.data).toEqual({
      contactId: null,
      contactName: '',
      fields: [
        { field: 'name', current: '', proposed: 'Ana García', preselected: true, required: false },
        { field: 'email', current: '', proposed: 'ana.garcia@example.com', preselected: true, required: false },
        { field: 'phoneNumber', current: '', proposed: '+34612345678', preselected: true, required: true },
      ],
    });
  });

  it('refuses a call without analysis', async () => {
    const user = await paidUser();
    const pending = await seedCall(user.userId);

    const res = await preview(user, pending.id);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe(voiceMessages.noSummary);
  });
});

describe('POST /api/voice-conversations/{id}/apply-contact with chosen fields', () => {
  it("applies only the e-mail: the saved patient's name is not replaced", async () => {
    const user = await paidUser();
    const { contact, call } = await savedPatientCall(user);

    const res = await apply(user, call.id, { fields: ['email'] });

    expect(res.status).toBe(200);
    const data = res.body.data!;
    expect(data.created).toBe(false);
    expect(data.applied).toEqual(['email']);
    expect(data.contact).toMatchObject({ _id: contact._id, name: 'María José Núñez', email: 'ana.garcia@example.com', phoneNumber: contact.phoneNumber });
    expect(data.contact.customFields).toEqual({});
    expect(data.undo.previous).toEqual({ email: '' });
    expect(data.undo.token).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(Date.parse(data.undo.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect((await getContact(user, contact._id)).body.data).toMatchObject({ name: 'María José Núñez', email: 'ana.garcia@example.com' });
    expect((await getCall(user.token, call.id))?.contact?._id).toBe(contact._id);
  });

  it('writes the website to a custom field beside the existing ones', async () => {
    const user = await paidUser();
    const phone = spanishMobile();
    const saved = (await api<Contact>('POST', '/api/contacts', { token: user.token, body: { name: 'Clínica Sol', phoneNumber: phone, customFields: { Seguro: 'Sanitas' } } })).body.data!;
    const call = await seedCall(user.userId, { phoneNumber: phone, summary: SUMMARY, summaryStatus: 'completed' });

    const res = await apply(user, call.id, { fields: ['web'] });

    expect(res.status).toBe(200);
    expect((await getContact(user, saved._id)).body.data).toMatchObject({ name: 'Clínica Sol', email: '', customFields: { Seguro: 'Sanitas', Web: 'https://clinica-ana.example' } });
  });

  it('answers 400 for unknown fields, unknown keys, no field or a field the analysis has no value for, and changes nothing', async () => {
    const user = await paidUser();
    const { contact, call } = await savedPatientCall(user);
    const noPhone = await seedCall(user.userId, { summary: { ...SUMMARY, contactExtracted: { ...SUMMARY.contactExtracted, web: '' } }, summaryStatus: 'completed' });

    const cases: [unknown, string][] = [
      [{ fields: ['email', 'birthday'] }, applyContactMessages.fieldInvalid],
      [{ fields: ['email'], force: true }, ''],
      [{ fields: [] }, applyContactMessages.fieldsRequired],
      [{}, applyContactMessages.fieldsRequired],
      [{ fields: 'email' }, ''],
      // The phone is the contact's already: nothing to apply for it, so the e-mail is not written either.
      [{ fields: ['email', 'phoneNumber'] }, applyContactMessages.notProposed],
    ];
    for (const [body, message] of cases) {
      const res = await apply(user, call.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (message) expect(res.body.message).toBe(message);
    }
    expect((await apply(user, noPhone.id, { fields: ['web'] })).body.message).toBe(applyContactMessages.notProposed);
    expect((await api('POST', base(call.id), { token: user.token })).status).toBe(400);

    const after = (await getContact(user, contact._id)).body.data!;
    expect(after).toMatchObject({ name: 'María José Núñez', email: '', customFields: {} });
    expect(after.updatedAt).toBe(contact.updatedAt);
  });

  it("answers 404 for another user's call (preview, apply and undo)", async () => {
    const user = await paidUser();
    const other = await paidUser();
    const { contact, call } = await savedPatientCall(other);
    const applied = (await apply(other, call.id, { fields: ['email'] })).body.data!;

    expect((await preview(user, call.id)).status).toBe(404);
    const res = await apply(user, call.id, { fields: ['email', 'name'] });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(voiceMessages.callNotFound);
    expect((await undo(user, call.id, applied.undo.token)).status).toBe(404);
    expect((await getContact(other, contact._id)).body.data).toMatchObject({ name: 'María José Núñez', email: 'ana.garcia@example.com' });
  });
});

describe('POST /api/voice-conversations/{id}/apply-contact/undo', () => {
  it('restores exactly the changed fields, once', async () => {
    const user = await paidUser();
    const phone = spanishMobile();
    const saved = (await api<Contact>('POST', '/api/contacts', { token: user.token, body: { name: 'María José Núñez', phoneNumber: phone, email: 'mj@example.es' } })).body.data!;
    const call = await seedCall(user.userId, { phoneNumber: phone, summary: SUMMARY, summaryStatus: 'completed' });
    const applied = (await apply(user, call.id, { fields: ['name', 'email', 'web'] })).body.data!;
    expect(applied.contact).toMatchObject({ name: 'Ana García', email: 'ana.garcia@example.com', customFields: { Web: 'https://clinica-ana.example' } });
    expect(applied.undo.previous).toEqual({ name: 'María José Núñez', email: 'mj@example.es', web: '' });

    const res = await undo(user, call.id, applied.undo.token);

    expect(res.status).toBe(200);
    expect(res.body.message).toBe(applyContactMessages.undone);
    expect(res.body.data).toMatchObject({ deleted: false, contact: { _id: saved._id, name: 'María José Núñez', email: 'mj@example.es', customFields: {} } });
    expect((await getContact(user, saved._id)).body.data).toMatchObject({ name: 'María José Núñez', shortName: 'María', email: 'mj@example.es', phoneNumber: phone, customFields: {} });
    // Valid once.
    const again = await undo(user, call.id, applied.undo.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(applyContactMessages.undoUnavailable);
  });

  it('refuses when the contact was edited again since, and changes nothing', async () => {
    const user = await paidUser();
    const { contact, call } = await savedPatientCall(user);
    const applied = (await apply(user, call.id, { fields: ['name', 'email'] })).body.data!;
    const edited = await api<Contact>('PUT', `/api/contacts/${contact._id}`, { token: user.token, body: { name: 'Ana García', phoneNumber: contact.phoneNumber, email: 'ana@clinica.es' } });
    expect(edited.status).toBe(200);

    const res = await undo(user, call.id, applied.undo.token);

    expect(res.status).toBe(409);
    expect(res.body.message).toBe(applyContactMessages.undoChanged);
    expect((await getContact(user, contact._id)).body.data).toMatchObject({ name: 'Ana García', email: 'ana@clinica.es', updatedAt: edited.body.data!.updatedAt });
  });

  it('deletes the contact the apply created, and unlinks the call', async () => {
    const user = await paidUser();
    const call = await seedCall(user.userId, { summary: SUMMARY, summaryStatus: 'completed' });
    expect((await preview(user, call.id)).body.data?.contactId).toBeNull();
    // The phone number comes with a new contact even when not chosen: a contact needs one.
    const applied = (await apply(user, call.id, { fields: ['name'] })).body.data!;
    expect(applied.created).toBe(true);
    expect(applied.applied).toEqual(['name', 'phoneNumber']);
    expect(applied.contact).toMatchObject({ name: 'Ana García', email: '', phoneNumber: call.phoneNumber });

    const res = await undo(user, call.id, applied.undo.token);

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ deleted: true, contact: null });
    expect((await getContact(user, applied.contact._id)).status).toBe(404);
    expect((await api<Contact[]>('GET', '/api/contacts', { token: user.token })).body).toMatchObject({ pagination: { totalContacts: 0 } });
    expect((await getCall(user.token, call.id))?.contact).toBeNull();
  });

  it('keeps a created contact that was edited since', async () => {
    const user = await paidUser();
    const call = await seedCall(user.userId, { summary: SUMMARY, summaryStatus: 'completed' });
    const applied = (await apply(user, call.id, { fields: ['name', 'email'] })).body.data!;
    await api('PUT', `/api/contacts/${applied.contact._id}`, { token: user.token, body: { name: 'Ana García Ruiz', phoneNumber: call.phoneNumber } });

    const res = await undo(user, call.id, applied.undo.token);

    expect(res.status).toBe(409);
    expect(res.body.message).toBe(applyContactMessages.undoChanged);
    expect((await getContact(user, applied.contact._id)).body.data).toMatchObject({ name: 'Ana García Ruiz' });
  });

  it("refuses a malformed token, an unknown one and another call's", async () => {
    const user = await paidUser();
    const { call } = await savedPatientCall(user);
    const second = await seedCall(user.userId, { summary: SUMMARY, summaryStatus: 'completed' });
    const applied = (await apply(user, call.id, { fields: ['email'] })).body.data!;

    const malformed = await undo(user, call.id, 'not a token!');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe(applyContactMessages.tokenInvalid);
    expect((await api('POST', `${base(call.id)}/undo`, { token: user.token, body: { token: applied.undo.token, extra: 1 } })).status).toBe(400);
    expect((await undo(user, call.id, 'A'.repeat(24))).status).toBe(409);
    expect((await undo(user, second.id, applied.undo.token)).status).toBe(409);
    // Still usable on its own call.
    expect((await undo(user, call.id, applied.undo.token)).status).toBe(200);
  });
});
