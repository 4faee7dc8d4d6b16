import { describe, expect, it } from 'vitest';
import { BUILT_IN_TOOL_NAMES, toolRequest } from '../../../src/contract/agents.js';
import { bookingToolSpecs, customerE164 } from '../../../src/domain/agents/runtime/booking-tools.js';
import { createAgentChat } from '../../../src/domain/agents/runtime/chat.js';
import { runAgent, type RunAgentInput } from '../../../src/domain/agents/runtime/run-agent.js';
import { agent, call, FakeEmbedder, MemoryRetriever, RecordingExecutor, ScriptedModel, settings, textReply, tool, toolsReply } from './fakes.js';
import { MemoryBookings } from './booking-fakes.js';

// Monday 30 November 2026, 08:00 in Madrid.
const NOW = Date.parse('2026-11-30T07:00:00Z');
const ANA = '+34600111222';
const LUIS = '+34600333444';

function turn(model: ScriptedModel, bookings: MemoryBookings, over: Partial<RunAgentInput> = {}): RunAgentInput {
  return {
    userId: 'u1',
    agent: agent({ bookingsEnabled: true, language: 'es' }),
    settings: settings(),
    model,
    embedder: new FakeEmbedder(),
    retriever: new MemoryRetriever(),
    tools: new RecordingExecutor(),
    history: [],
    message: 'Quiero una cita',
    channel: 'whatsapp',
    now: () => NOW,
    booking: { bookings, customerPhone: ANA, customerName: 'Ana', conversationId: 'conv1' },
    ...over,
  };
}

/** One tool call, then a closing text: the tool's result and the model's requests. */
async function oneCall(name: string, args: unknown, bookings: MemoryBookings, over: Partial<RunAgentInput> = {}) {
  const model = new ScriptedModel([toolsReply(call(name, args)), textReply('Hecho.')]);
  const reply = await runAgent(turn(model, bookings, over));
  return { result: reply.toolCalls[0]!, model, reply };
}

describe('booking tools: offered with the switch', () => {
  it('offers the five tools and the booking prompt only when the agent has Bookings on and the channel gave a customer', async () => {
    const bookings = new MemoryBookings(() => NOW);
    const on = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn(on, bookings));
    expect(on.requests[0]!.tools?.map((t) => t.name)).toEqual(['check_order', 'search_knowledge', 'escalate_to_human', 'find_slots', 'book', 'find_my_bookings', 'reschedule', 'cancel_booking'].filter((n) => n !== 'check_order'));
    const system = on.requests[0]!.messages[0]!.content!;
    expect(system).toContain('Now it is 2026-11-30 08:00 in the business\'s time zone (Europe/Madrid)');
    expect(system).toContain('martes 2026-12-01');
    expect(system).toContain('- Limpieza dental (30 min) [service_id=svc1]');
    expect(system).not.toContain('Cirugía'); // not bookable by the agent
    expect(system).toContain('This customer has no upcoming appointments.');
    expect(system).toMatch(/only after they say yes/);

    const off = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn(off, bookings, { agent: agent({ bookingsEnabled: false }) }));
    expect(off.requests[0]!.tools?.map((t) => t.name)).not.toContain('book');
    expect(off.requests[0]!.messages[0]!.content).not.toContain('Appointments:');

    const noChannelCustomer = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn(noChannelCustomer, bookings, { booking: undefined }));
    expect(noChannelCustomer.requests[0]!.tools?.map((t) => t.name)).not.toContain('find_slots');
  });

  it('a custom tool stored under a booking tool name is left out while the built-in is on; the names are reserved for new tools', async () => {
    const bookings = new MemoryBookings(() => NOW);
    const model = new ScriptedModel([toolsReply(call('book', { start: '2026-12-01T10:00', service: 'Limpieza', customer_name: 'Ana', customer_confirmed: true })), textReply('ok')]);
    const executor = new RecordingExecutor();
    await runAgent(turn(model, bookings, { agent: agent({ bookingsEnabled: true, tools: [tool({ name: 'book' })] }), tools: executor }));
    expect(model.requests[0]!.tools?.filter((t) => t.name === 'book')).toHaveLength(1);
    expect(executor.calls).toHaveLength(0);
    expect(bookings.bookings).toHaveLength(1);
    for (const name of bookingToolSpecs.map((s) => s.name)) {
      expect(BUILT_IN_TOOL_NAMES).toContain(name);
      const parsed = toolRequest.safeParse({ name, description: 'x', endpoint: 'https://example.com', method: 'GET', properties: {}, required: [] });
      expect(parsed.success, name).toBe(false);
    }
  });

  it('the context cannot be read: the turn goes on without the booking tools', async () => {
    const bookings = new MemoryBookings(() => NOW);
    bookings.failNext = true;
    const errors: string[] = [];
    const model = new ScriptedModel([textReply('Hola')]);
    const reply = await runAgent(turn(model, bookings, { onError: (m) => errors.push(m) }));
    expect(reply.reply).toBe('Hola');
    expect(model.requests[0]!.tools?.map((t) => t.name)).not.toContain('book');
    expect(errors[0]).toMatch(/booking context/);
  });
});

describe('find_slots', () => {
  it('answers up to 5 nearest free slots in words with the codes book needs', async () => {
    const bookings = new MemoryBookings(() => NOW);
    const { result } = await oneCall('find_slots', { service: 'limpieza', from: '2026-12-01', to: '2026-12-01' }, bookings);
    expect(result.ok).toBe(true);
    const lines = result.result.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('- martes 1 de diciembre a las 09:00, con Dra. García [start=2026-12-01T09:00 staff_id=st1]');
    expect(result.result).toContain('Free times for Limpieza dental (30 min) [service_id=svc1]');
  });

  it('a staff name narrows; an unknown service lists the services; a service the agent may not book is not offered; bad dates are named', async () => {
    const bookings = new MemoryBookings(() => NOW);
    const perez = await oneCall('find_slots', { service: 'Limpieza dental', from: '2026-12-01', staff: 'perez' }, bookings);
    expect(perez.result.result).toContain('con Dr. Pérez [start=2026-12-01T09:00 staff_id=st2]');
    expect(perez.result.result).not.toContain('García');
    const unknown = await oneCall('find_slots', { service: 'Masaje', from: '2026-12-01' }, bookings);
    expect(unknown.result).toMatchObject({ ok: false });
    expect(unknown.result.result).toContain('The services are: Limpieza dental, Revisión');
    const surgery = await oneCall('find_slots', { service: 'Cirugía', from: '2026-12-01' }, bookings);
    expect(surgery.result.result).not.toContain('Free times');
    const bad = await oneCall('find_slots', { service: 'Revisión', from: 'el martes' }, bookings);
    expect(bad.result.result).toMatch(/Invalid dates/);
    const none = await oneCall('find_slots', { service: 'Revisión' }, bookings);
    expect(none.result.result).toBe('Missing required parameter: from.');
  });

  it('a weekend with no slot offers the next free ones', async () => {
    const bookings = new MemoryBookings(() => NOW);
    const { result } = await oneCall('find_slots', { service: 'Revisión', from: '2026-12-05', to: '2026-12-06' }, bookings);
    expect(result.result).toContain('No free times for Revisión (20 min) from 2026-12-05 to 2026-12-06');
    expect(result.result).toContain('lunes 7 de diciembre a las 09:00');
  });
});

describe('book', () => {
  const args = { start: '2026-12-01T10:30', service: 'Limpieza dental', staff: 'st1', customer_name: 'Ana López', customer_confirmed: true };

  it('books for the channel\'s phone (never a phone from the model) with the actor of the channel', async () => {
    const bookings = new MemoryBookings(() => NOW);
    const { result } = await oneCall('book', { ...args, phone: '+34999999999' }, bookings);
    expect(result).toMatchObject({ ok: true, name: 'book' });
    expect(result.result).toBe('Booked: Limpieza dental, martes 1 de diciembre a las 10:30, with Dra. García, for Ana López [booking_id=bk1]. Tell the customer it is booked.');
    expect(bookings.bookings[0]).toMatchObject({ customer: { name: 'Ana López', phone: ANA }, start: '2026-12-01T09:30:00.000Z', staffId: 'st1' });
    expect(bookings.actors[0]).toEqual({ by: 'agent', channel: 'whatsapp', conversationId: 'conv1', callId: null, agentId: 'agent1', customerPhone: ANA });
  });

  it('refuses without the customer\'s confirmation, and nothing is booked', async () => {
    const bookings = new MemoryBookings(() => NOW);
    for (const confirmed of [false, undefined, 'yes']) {
      const { result } = await oneCall('book', { ...args, customer_confirmed: confirmed }, bookings);
      expect(result.ok).toBe(false);
      expect(result.result).toMatch(/^Not done: the customer has not confirmed\. Read the day, time and service back/);
    }
    expect(bookings.bookings).toHaveLength(0);
    expect(bookingToolSpecs.find((s) => s.name === 'book')!.parameters.required).toContain('customer_confirmed');
  });

  it('a slot taken between the offer and the booking answers "no longer free" with the next free slots', async () => {
    const bookings = new MemoryBookings(() => NOW);
    await bookings.book('u1', { serviceId: 'svc1', staffId: 'st1', start: '2026-12-01T10:30', customer: { name: 'Luis', phone: LUIS } }, { by: 'owner', channel: 'dashboard' });
    const { result } = await oneCall('book', args, bookings);
    expect(result.ok).toBe(false);
    expect(result.result).toMatch(/^That time is no longer free\. The nearest free times now:\n- martes 1 de diciembre a las 09:00, con Dra\. García \[start=2026-12-01T09:00 staff_id=st1\]/);
    expect(result.result).not.toContain('start=2026-12-01T10:30');
    expect(bookings.bookings).toHaveLength(1);
  });

  it('a time outside the hours says why and offers free slots; a missing name asks for it; an unknown phone books nothing', async () => {
    const bookings = new MemoryBookings(() => NOW);
    const late = await oneCall('book', { ...args, start: '2026-12-01T19:00' }, bookings);
    expect(late.result.result).toMatch(/^Not done: This time is outside the opening hours\. The nearest free times now:/);
    const noName = await oneCall('book', { ...args, customer_name: ' ' }, bookings);
    expect(noName.result.result).toBe('Missing required parameter: customer_name. Ask the customer for their name.');
    const hidden = await oneCall('book', args, bookings, { booking: { bookings, customerPhone: null } });
    expect(hidden.result.result).toMatch(/phone number is unknown on this channel/);
    expect(hidden.model.requests[0]!.messages[0]!.content).toMatch(/phone number is unknown here/);
    expect(bookings.bookings).toHaveLength(0);
  });

  it('a refused gate (a streamed turn not ours) changes nothing', async () => {
    const bookings = new MemoryBookings(() => NOW);
    const { result } = await oneCall('book', args, bookings, { booking: { bookings, customerPhone: ANA, gate: async () => false } });
    expect(result.ok).toBe(false);
    expect(bookings.bookings).toHaveLength(0);
  });

  it('the booking system down: a text to apologise, never a thrown turn', async () => {
    const bookings = new MemoryBookings(() => NOW);
    const model = new ScriptedModel([toolsReply(call('find_my_bookings', {})), textReply('Perdona')]);
    const input = turn(model, bookings);
    const original = bookings.ofCustomer.bind(bookings);
    let reads = 0;
    bookings.ofCustomer = async (...a) => (++reads === 2 ? Promise.reject(new Error('timeout')) : original(...a));
    const reply = await runAgent(input);
    expect(reply.toolCalls[0]).toMatchObject({ ok: false });
    expect(reply.toolCalls[0]!.result).toMatch(/could not be reached/);
  });
});

describe('find_my_bookings, reschedule, cancel_booking: only the customer\'s own', () => {
  async function seeded() {
    const bookings = new MemoryBookings(() => NOW);
    const mine = await bookings.book('u1', { serviceId: 'svc1', staffId: 'st1', start: '2026-12-01T10:30', customer: { name: 'Ana', phone: ANA } }, { by: 'owner', channel: 'dashboard' });
    const theirs = await bookings.book('u1', { serviceId: 'svc1', staffId: 'st2', start: '2026-12-02T11:00', customer: { name: 'Luis', phone: LUIS } }, { by: 'owner', channel: 'dashboard' });
    return { bookings, mine, theirs };
  }

  it('find_my_bookings lists this phone\'s upcoming bookings only; the prompt has them too', async () => {
    const { bookings, mine } = await seeded();
    const { result, model } = await oneCall('find_my_bookings', {}, bookings);
    expect(result.result).toBe(`This customer's upcoming appointments:\n- Limpieza dental, martes 1 de diciembre a las 10:30, con Dra. García [booking_id=${mine._id}]`);
    expect(model.requests[0]!.messages[0]!.content).toContain(`upcoming appointments (a message like "I can't come" or "cancel" is most likely about one of them):\n- Limpieza dental, martes 1 de diciembre a las 10:30, con Dra. García [booking_id=${mine._id}]`);
    const luis = await oneCall('find_my_bookings', {}, bookings, { booking: { bookings, customerPhone: '+34600999000' } });
    expect(luis.result.result).toBe('This customer has no upcoming appointments.');
  });

  it('another phone\'s booking is "not found" for reschedule and cancel, and stays as it was', async () => {
    const { bookings, theirs } = await seeded();
    const move = await oneCall('reschedule', { booking_id: theirs._id, start: '2026-12-03T09:00', customer_confirmed: true }, bookings);
    expect(move.result).toMatchObject({ ok: false, result: expect.stringMatching(/^No appointment of this customer has that booking_id/) });
    const cancel = await oneCall('cancel_booking', { booking_id: theirs._id, customer_confirmed: true }, bookings);
    expect(cancel.result.result).toMatch(/^No appointment of this customer has that booking_id/);
    expect(bookings.bookings.find((b) => b._id === theirs._id)).toMatchObject({ status: 'confirmed', start: '2026-12-02T10:00:00.000Z' });
  });

  it('reschedule moves after a yes; a taken time offers the next free ones', async () => {
    const { bookings, mine } = await seeded();
    const unconfirmed = await oneCall('reschedule', { booking_id: mine._id, start: '2026-12-03T09:00' }, bookings);
    expect(unconfirmed.result.result).toMatch(/has not confirmed/);
    const moved = await oneCall('reschedule', { booking_id: mine._id, start: '2026-12-03T09:00', customer_confirmed: true }, bookings);
    expect(moved.result).toMatchObject({ ok: true });
    expect(moved.result.result).toBe(`Moved: Limpieza dental is now jueves 3 de diciembre a las 09:00, with Dra. García [booking_id=${mine._id}]. Tell the customer.`);
    await bookings.book('u1', { serviceId: 'svc1', staffId: 'st1', start: '2026-12-04T09:00', customer: { name: 'Luis', phone: LUIS } }, { by: 'owner', channel: 'dashboard' });
    const taken = await oneCall('reschedule', { booking_id: mine._id, start: '2026-12-04T09:00', customer_confirmed: true }, bookings);
    expect(taken.result.result).toMatch(/^That time is no longer free\. The nearest free times now:\n- viernes 4 de diciembre a las 09:00, con Dr\. Pérez/);
    expect(bookings.bookings.find((b) => b._id === mine._id)!.start).toBe('2026-12-03T08:00:00.000Z');
  });

  it('cancel_booking cancels after a yes', async () => {
    const { bookings, mine } = await seeded();
    const unconfirmed = await oneCall('cancel_booking', { booking_id: mine._id, customer_confirmed: false }, bookings);
    expect(unconfirmed.result.result).toMatch(/has not confirmed/);
    expect(mine.status).toBe('confirmed');
    const done = await oneCall('cancel_booking', { booking_id: mine._id, customer_confirmed: true }, bookings, { channel: 'voice', booking: { bookings, customerPhone: ANA, callId: 'call1' } });
    expect(done.result.result).toBe('Cancelled: Limpieza dental, martes 1 de diciembre a las 10:30. Tell the customer it is cancelled.');
    expect(mine.status).toBe('cancelled');
    expect(bookings.actors.at(-1)).toMatchObject({ by: 'agent', channel: 'voice', callId: 'call1', customerPhone: ANA });
  });
});

describe('the customer comes from the channel', () => {
  it('customerE164: E.164 kept, digits of an old profile get their +, hidden caller ids and junk are no customer', () => {
    expect(customerE164('+34600111222')).toBe('+34600111222');
    expect(customerE164('34 600 111 222')).toBe('+34600111222');
    for (const hidden of ['+266696687', '+86282452253', 'anonymous', '', null, undefined, '600', '+0123456789']) expect(customerE164(hidden)).toBeNull();
  });

  it('the Test Agent chat books for the owner by the phone of their profile; without one it books nothing', async () => {
    const bookings = new MemoryBookings(() => NOW);
    const chat = (phoneNumber: string) =>
      createAgentChat({
        agents: { get: async () => agent({ bookingsEnabled: true, language: 'es' }), list: async () => [] },
        ai: {
          forUser: async () => ({
            settings: settings(),
            chat: new ScriptedModel([toolsReply(call('book', { start: '2026-12-01T10:30', service: 'Limpieza', customer_name: 'Marta', customer_confirmed: true })), textReply('Reservado')]),
            embedder: null,
          }),
        },
        retriever: new MemoryRetriever(),
        tools: new RecordingExecutor(),
        bookings,
        users: { get: async () => ({ name: 'Marta Ruiz', phoneNumber }) },
        now: () => NOW,
      });
    const booked = await chat('+34611222333').chat('u1', 'agent1', { message: 'Reserva', messages: [] });
    expect(booked.toolCalls[0]).toMatchObject({ name: 'book', ok: true });
    expect(bookings.bookings[0]).toMatchObject({ customer: { phone: '+34611222333', name: 'Marta' }, channel: 'chat' });
    const none = await chat('').chat('u1', 'agent1', { message: 'Reserva', messages: [] });
    expect(none.toolCalls[0]!.result).toMatch(/phone number is unknown/);
    expect(bookings.bookings).toHaveLength(1);
  });
});
