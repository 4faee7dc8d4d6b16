/**
 * GET/PUT /api/dashboard/getting-started (issue 19) through the local gateway: each step turns
 * true from what the owner really did through the API (ChatGPT connected, an agent, a knowledge
 * entry or a scraped page, WhatsApp or Twilio connected, an answered Test Agent turn or a WhatsApp
 * conversation, a staff member and a service for bookings), and another account's data never counts.
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { GettingStarted, GettingStartedStepId } from '../../src/contract/getting-started.js';
import { api, provided } from '../support/api.js';
import { addUrls, agentsUser, call, connectChatGpt, createAgent, eventually, type AgentsUser } from '../support/agents-api.js';
import { webFixtures } from '../support/web-fixtures.js';
import { connectWhatsApp, metaDelivery, postWebhook, signMetaBody, textMessage, waCustomer } from '../support/whatsapp.js';

const PATH = '/api/dashboard/getting-started';

async function checklist(user: AgentsUser): Promise<GettingStarted> {
  const res = await call<GettingStarted>(user, 'GET', PATH);
  expect(res.status).toBe(200);
  return res.body.data!;
}

/** The ids of the steps done, in the checklist's order. */
const doneSteps = (c: GettingStarted): GettingStartedStepId[] => c.steps.filter((s) => s.done).map((s) => s.id);

const addEntry = (user: AgentsUser, agentId: string) =>
  call(user, 'POST', `/api/agents/${agentId}/entries`, { question: '¿Cuánto cuesta una limpieza?', answer: 'La limpieza dental cuesta 45 euros.' });

describe('GET /api/dashboard/getting-started', () => {
  it('a new account has every step to do, in order, and no agent to link to', async () => {
    const user = await agentsUser();

    const c = await checklist(user);

    expect(c).toEqual({
      steps: [
        { id: 'chatgpt', done: false },
        { id: 'agent', done: false },
        { id: 'knowledge', done: false },
        { id: 'channel', done: false },
        { id: 'test', done: false },
        { id: 'bookings', done: false },
      ],
      allDone: false,
      hidden: false,
      agentId: null,
    });
  });

  it('ticks each step as the owner does it: ChatGPT, an agent, a knowledge entry, WhatsApp, a test chat, bookings', async () => {
    const user = await agentsUser();

    await connectChatGpt(user);
    expect(doneSteps(await checklist(user))).toEqual(['chatgpt']);

    const agent = await createAgent(user, 'Recepción');
    const withAgent = await checklist(user);
    expect(doneSteps(withAgent)).toEqual(['chatgpt', 'agent']);
    expect(withAgent.agentId).toBe(agent._id);

    expect((await addEntry(user, agent._id)).status).toBe(201);
    expect(doneSteps(await checklist(user))).toEqual(['chatgpt', 'agent', 'knowledge']);

    await connectWhatsApp(user.token);
    expect(doneSteps(await checklist(user))).toEqual(['chatgpt', 'agent', 'knowledge', 'channel']);

    const reply = await call(user, 'POST', `/api/agents/${agent._id}/chat`, { message: '¿Cuánto cuesta una limpieza?', messages: [] });
    expect(reply.status).toBe(200);
    const done = await checklist(user);
    expect(doneSteps(done)).toEqual(['chatgpt', 'agent', 'knowledge', 'channel', 'test']);
    expect(done.allDone).toBe(false);

    // Bookings: a staff member alone is not enough; with a service they do, the step is done.
    const week = { mon: [{ start: '09:00', end: '14:00' }, { start: '16:00', end: '20:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    const staff = await call<{ _id: string }>(user, 'POST', '/api/bookings/staff', { name: 'Dra. García', weeklyHours: week });
    expect(staff.status).toBe(201);
    expect(doneSteps(await checklist(user))).not.toContain('bookings');
    const service = await call<{ _id: string }>(user, 'POST', '/api/bookings/services', { name: 'Limpieza dental', durationMinutes: 30, priceCents: 4500, staffIds: [staff.body.data!._id] });
    expect(service.status).toBe(201);
    const all = await checklist(user);
    expect(doneSteps(all)).toEqual(['chatgpt', 'agent', 'knowledge', 'channel', 'test', 'bookings']);
    expect(all.allDone).toBe(true);

    // Derived from the data, not from a click: the only service deleted, the step is to do again.
    expect((await call(user, 'DELETE', `/api/bookings/services/${service.body.data!._id}`)).status).toBe(200);
    expect(doneSteps(await checklist(user))).not.toContain('bookings');
  });

  it('a web page counts as knowledge once it is scraped, not while pending or when it failed', async () => {
    const user = await agentsUser();
    await connectChatGpt(user);
    const agent = await createAgent(user);
    const site = webFixtures();
    const failing = await site.route({ path: '/gone', status: 404 });
    const page = await site.route({ path: '/precios', headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html><head><title>Precios</title></head><body><p>Limpieza dental: 45 euros. Revisión gratuita los martes.</p></body></html>' });

    const [bad] = await addUrls(user, agent._id, failing);
    await eventually(async () => (await call<{ _id: string; status: string }[]>(user, 'GET', `/api/agents/${agent._id}/urls`)).body.data?.find((u) => u._id === bad!._id && u.status === 'failed'), 20_000);
    expect(doneSteps(await checklist(user))).not.toContain('knowledge');

    await addUrls(user, agent._id, page);

    await eventually(async () => doneSteps(await checklist(user)).includes('knowledge'), 20_000);
  });

  it('a connected Twilio Voice number counts as the channel step', async () => {
    const user = await agentsUser();
    const phoneNumber = `+1415${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
    const registered = await fetch(`${provided('twilioApiUrl')}/_test/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ numbers: [phoneNumber] }),
    });
    const account = (await registered.json()) as { accountSid: string; authToken: string };

    const setup = await api('POST', '/api/integrations/twilio-voice/setup', { token: user.token, body: { ...account, phoneNumber } });

    expect(setup.status).toBe(200);
    expect(doneSteps(await checklist(user))).toEqual(['channel']);
  });

  it('a WhatsApp conversation counts as testing the agent', async () => {
    const user = await agentsUser();
    const wa = await connectWhatsApp(user.token);
    const body = metaDelivery(wa, { messages: [textMessage(waCustomer('Lucía Peña'), 'Hola, ¿tenéis cita el martes?')] });

    const res = await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret));

    expect(res.status).toBe(200);
    await eventually(async () => doneSteps(await checklist(user)).includes('test'), 20_000);
    expect(doneSteps(await checklist(user))).toEqual(['channel', 'test']);
  });

  it("another account's integrations, agents, knowledge and chats never count", async () => {
    const [owner, stranger] = await Promise.all([agentsUser(), agentsUser()]);
    await connectChatGpt(stranger);
    const strangers = await createAgent(stranger);
    await addEntry(stranger, strangers._id);
    await connectWhatsApp(stranger.token);
    await call(stranger, 'POST', `/api/agents/${strangers._id}/chat`, { message: 'Hola', messages: [] });
    const week = { mon: [{ start: '09:00', end: '14:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    const staff = await call<{ _id: string }>(stranger, 'POST', '/api/bookings/staff', { name: 'Sillón 2', weeklyHours: week });
    await call(stranger, 'POST', '/api/bookings/services', { name: 'Revisión', durationMinutes: 20, staffIds: [staff.body.data!._id] });
    expect((await checklist(stranger)).allDone).toBe(true);

    // The owner naming the stranger's agent gets a 404 and marks nothing.
    const foreign = await call(owner, 'POST', `/api/agents/${strangers._id}/chat`, { message: 'Hola', messages: [] });

    expect(foreign.status).toBe(404);
    const c = await checklist(owner);
    expect(doneSteps(c)).toEqual([]);
    expect(c.agentId).toBeNull();
  });

  it('answers 401 without a token', async () => {
    const res = await api('GET', PATH);

    expect(res.status).toBe(401);
  });
});

describe('PUT /api/dashboard/getting-started', () => {
  it('hides the checklist and shows it again; the steps stay as they are', async () => {
    const user = await agentsUser();
    await connectChatGpt(user);

    const hidden = await call<GettingStarted>(user, 'PUT', PATH, { hidden: true });

    expect(hidden.status).toBe(200);
    expect(hidden.body.data).toMatchObject({ hidden: true, allDone: false });
    expect(await checklist(user)).toMatchObject({ hidden: true });
    expect(doneSteps(await checklist(user))).toEqual(['chatgpt']);
    expect((await call<GettingStarted>(user, 'PUT', PATH, { hidden: false })).body.data!.hidden).toBe(false);
    expect((await checklist(user)).hidden).toBe(false);
  });

  it('refuses a body without a boolean hidden with a clear 400', async () => {
    const user = await agentsUser();

    for (const body of [{}, { hidden: 'yes' }, { hidden: 1 }]) {
      const res = await call(user, 'PUT', PATH, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Hidden must be true or false');
    }
    expect((await checklist(user)).hidden).toBe(false);
  });
});
