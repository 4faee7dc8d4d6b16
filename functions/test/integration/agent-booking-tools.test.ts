/**
 * The agent's built-in booking tools (issue 30) end to end on the local stack, for a Spanish clinic
 * (Europe/Madrid, a Spanish agent): the Bookings switch in the agents API; WhatsApp with signed
 * deliveries through the webhook, queue and worker (find_slots → book → find_my_bookings →
 * reschedule → cancel_booking, each checked in the bookings API); a streamed call through the
 * relay simulator that books for the caller's number; and the Test Agent chat, which books for the
 * owner's profile phone. The fake OpenAI calls a tool when the customer's message names it, with
 * its key=value arguments (local/fake-openai/brain.ts rule 3), and says the tool's result back
 * (rule 1: "Tool <name> returned: …").
 */
import { describe, expect, it } from 'vitest';
import type { Agent, ChatReply } from '../../src/contract/agents.js';
import type { Booking } from '../../src/contract/bookings.js';
import { RELAY_FILLERS } from '../../src/domain/voice/relay/session.js';
import { simulateCall } from '../../local/fake-twilio/call-simulator.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, provided, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { addDays, bookingsOf, clinic, clinicVoice, localOf, must, sayOnWhatsApp as say, weekdayAhead, withoutAiNotice, type Clinic } from '../support/bookings.js';
import { callerNumber } from '../support/seed-calls.js';
import { connectWhatsApp, graphSends, metaDelivery, postWebhook, randomDigits, signMetaBody, textMessage, waCustomer, type ConnectedWhatsApp } from '../support/whatsapp.js';

describe('the Bookings switch on the agent', () => {
  it('is off for a new agent, PUT turns it on and off, anything but a boolean is a 400 that changes nothing', async () => {
    const { token } = await subscribedUser('starter');
    const agent = await createAnsweringAgent(token);
    expect(agent.bookingsEnabled).toBe(false);
    expect((await must<Agent>(api('PUT', `/api/agents/${agent._id}`, { token, body: { bookingsEnabled: true } }))).bookingsEnabled).toBe(true);
    const bad = await api('PUT', `/api/agents/${agent._id}`, { token, body: { bookingsEnabled: 'yes' } });
    expect(bad.status).toBe(400);
    expect((await must<Agent>(api('GET', `/api/agents/${agent._id}`, { token }))).bookingsEnabled).toBe(true);
    expect((await must<Agent>(api('PUT', `/api/agents/${agent._id}`, { token, body: { bookingsEnabled: false } }))).bookingsEnabled).toBe(false);
    // The names are the built-ins': a custom tool cannot take them.
    const tool = await api('POST', `/api/agents/${agent._id}/tools`, {
      token,
      body: { name: 'find_slots', description: 'x', endpoint: 'https://example.com/slots', method: 'GET', properties: {}, required: [] },
    });
    expect(tool.status).toBe(400);
  });
});

describe('WhatsApp: the agent finds, books, lists, moves and cancels for the number that writes', () => {
  async function whatsapp(c: Clinic): Promise<ConnectedWhatsApp> {
    return connectWhatsApp(c.token);
  }

  it('every tool, with the booking in the API after each step; another number sees none of it', async () => {
    const c = await clinic();
    const wa = await whatsapp(c);
    const ana = waCustomer('Ana Pérez', `346${randomDigits(8)}`);
    const phone = `+${ana.waId}`;
    const tuesday = weekdayAhead(2);
    const wednesday = addDays(tuesday, 1);

    const slots = await say(wa, ana, `find_slots service="limpieza dental" from=${tuesday} to=${tuesday}`, 'find_slots');
    expect(slots).toContain(`Free times for Limpieza dental (30 min)`);
    expect(slots).toContain(`a las 09:00, con Dra. García [start=${tuesday}T09:00 staff_id=${c.staff._id}]`);
    expect(await bookingsOf(c)).toEqual([]);

    const booked = await say(wa, ana, `book start=${tuesday}T10:30 service=Limpieza customer_name="Ana Pérez" customer_confirmed=true`, 'book');
    expect(booked).toMatch(/^Tool book returned: Booked: Limpieza dental, martes \d+ de \w+ a las 10:30, with Dra\. García, for Ana Pérez \[booking_id=/);
    const [booking, ...none] = await bookingsOf(c);
    expect(none).toEqual([]);
    expect(booking).toMatchObject({ status: 'confirmed', serviceId: c.service._id, staffId: c.staff._id, channel: 'whatsapp', bookedBy: 'agent', agentId: c.agent._id, customer: { name: 'Ana Pérez', phone } });
    expect(localOf(booking!.start)).toBe(`${tuesday}T10:30`);
    expect(booking!.conversationId).toBeTruthy();

    const mine = await say(wa, ana, 'find_my_bookings', 'find_my_bookings');
    expect(mine).toContain(`a las 10:30, con Dra. García [booking_id=${booking!._id}]`);

    // Another customer can neither see nor change Ana's booking.
    const luis = waCustomer('Luis', `346${randomDigits(8)}`);
    expect(await say(wa, luis, 'find_my_bookings', 'find_my_bookings')).toContain('This customer has no upcoming appointments.');
    expect(await say(wa, luis, `cancel_booking booking_id=${booking!._id} customer_confirmed=true`, 'cancel_booking')).toContain('No appointment of this customer has that booking_id');
    // A slot Ana holds is no longer free for Luis: the next free ones are offered.
    const taken = await say(wa, luis, `book start=${tuesday}T10:30 service=Limpieza customer_name=Luis customer_confirmed=true`, 'book');
    expect(taken).toContain('That time is no longer free. The nearest free times now:');
    expect((await bookingsOf(c)).filter((b) => b.status === 'confirmed')).toHaveLength(1);

    const moved = await say(wa, ana, `reschedule booking_id=${booking!._id} start=${wednesday}T12:00 customer_confirmed=true`, 'reschedule');
    expect(moved).toMatch(/Moved: Limpieza dental is now miércoles \d+ de \w+ a las 12:00/);
    const afterMove = (await bookingsOf(c)).find((b) => b._id === booking!._id)!;
    expect(localOf(afterMove.start)).toBe(`${wednesday}T12:00`);

    const cancelled = await say(wa, ana, `cancel_booking booking_id=${booking!._id} customer_confirmed=true`, 'cancel_booking');
    expect(cancelled).toContain('Cancelled: Limpieza dental, miércoles');
    expect((await bookingsOf(c)).find((b) => b._id === booking!._id)).toMatchObject({ status: 'cancelled' });
    expect(await say(wa, ana, 'find_my_bookings', 'find_my_bookings')).toContain('This customer has no upcoming appointments.');
    // Ten WhatsApp round trips through the webhook, the queue and the worker.
  }, 120_000);

  it('a reply to a reminder reaches the agent with the booking in context (booked by the owner with the phone typed without +34)', async () => {
    const c = await clinic();
    const wa = await whatsapp(c);
    const digits = `6${randomDigits(8)}`;
    const ana = waCustomer('Ana', `34${digits}`);
    const friday = weekdayAhead(5);
    const booking = await must<Booking>(
      api('POST', '/api/bookings', { token: c.token, body: { serviceId: c.service._id, start: `${friday}T10:00`, customer: { name: 'Ana', phone: `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}` } } }),
      201,
    );
    const before = (await graphSends(wa.phoneId)).length;
    const body = metaDelivery(wa, { messages: [textMessage(ana, 'No puedo ir, cancela')] });
    expect((await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret))).status).toBe(200);
    await until(async () => (await graphSends(wa.phoneId)).slice(before).find((m) => m.to === ana.waId && withoutAiNotice(m.text ?? '').startsWith('Echo: No puedo ir')), 'the reply', 30_000);
    const res = await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(c.key)}&path=/v1/chat/completions`);
    const requests = ((await res.json()) as { requests: { body: { messages: { role: string; content: string }[] } }[] }).requests;
    const system = requests.at(-1)!.body.messages[0]!.content;
    expect(system).toContain(`This customer's upcoming appointments (a message like "I can't come" or "cancel" is most likely about one of them):`);
    expect(system).toMatch(new RegExp(`- Limpieza dental, viernes \\d+ de \\w+ a las 10:00, con Dra\\. García \\[booking_id=${booking._id}\\]`));
  });
});

describe('a streamed call books for the caller’s number', () => {
  it('the relay simulator says book; the booking is the caller’s, from the call', async () => {
    const c = await clinic();
    const { accountSid, authToken, number, setup } = await clinicVoice(c.token, { conversationMode: 'streaming' });
    const caller = callerNumber();
    const thursday = weekdayAhead(4);

    const call = await simulateCall({
      voiceUrl: setup.webhookUrl,
      statusCallbackUrl: setup.statusCallbackUrl,
      accountSid,
      authToken,
      from: caller,
      to: number,
      turns: [{ speech: `book start=${thursday}T11:00 service=Limpieza customer_name="Marta Gil" customer_confirmed=true`, confidence: 0.9 }],
      twilioApiUrl: provided('twilioApiUrl'),
    });

    const turn = call.relaySessions[0]!.turns[0]!;
    // The filler while the tool runs, then the tool's answer.
    expect(turn.heard.startsWith(RELAY_FILLERS.es)).toBe(true);
    expect(turn.heard).toMatch(/Booked: Limpieza dental, jueves \d+ de \w+ a las 11:00/);
    const [booking] = await bookingsOf(c);
    expect(booking).toMatchObject({ status: 'confirmed', channel: 'voice', bookedBy: 'agent', customer: { name: 'Marta Gil', phone: caller } });
    expect(booking!.callId).toBeTruthy();
    expect(localOf(booking!.start)).toBe(`${thursday}T11:00`);
  });
});

describe('the Test Agent chat books for the owner’s profile phone', () => {
  const chat = (c: Clinic, message: string) => api<ChatReply>('POST', `/api/agents/${c.agent._id}/chat`, { token: c.token, body: { message, messages: [] } });

  it('with a profile phone (typed without +34) it books for it; without one it books nothing', async () => {
    const c = await clinic({ phoneNumber: '612 345 678' });
    const friday = weekdayAhead(5);
    const res = await must<ChatReply>(chat(c, `book start=${friday}T09:30 service=Limpieza customer_name="Clínica Peña" customer_confirmed=true`));
    expect(res.toolCalls[0]).toMatchObject({ name: 'book', ok: true });
    const [booking] = await bookingsOf(c);
    expect(booking).toMatchObject({ channel: 'chat', bookedBy: 'agent', customer: { phone: '+34612345678' } });

    const noPhone = await clinic();
    const refused = await must<ChatReply>(chat(noPhone, `book start=${friday}T09:30 service=Limpieza customer_name=Ana customer_confirmed=true`));
    expect(refused.toolCalls[0]).toMatchObject({ name: 'book', ok: false });
    expect(refused.toolCalls[0]!.result).toMatch(/phone number is unknown/);
    expect(await bookingsOf(noPhone)).toEqual([]);
  });
});
