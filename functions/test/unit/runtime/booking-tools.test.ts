import { describe, expect, it } from 'vitest';
import { BUILT_IN_TOOL_NAMES, toolRequest } from '../../../src/contract/agents.js';
import { bookingToolSpecs, customerE164 } from '../../../src/domain/agents/runtime/booking-tools.js';
import { createAgentChat } from '../../../src/domain/agents/runtime/chat.js';
import { runAgent, type RunAgentInput } from '../../../src/domain/agents/runtime/run-agent.js';
import { agent, call, FakeEmbedder, MemoryRetriever, RecordingExecutor, ScriptedModel, settings, textReply, tool, toolsReply } from './fakes.js';
import { NOW, testClinic, USER, type TestClinic } from './booking-fakes.js';

const ANA = '+34600111222';
const LUIS = '+34600333444';

function turn(model: ScriptedModel, c: TestClinic, over: Partial<RunAgentInput> = {}): RunAgentInput {
  return {
    userId: USER,
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
    booking: { bookings: c.bookings, customerPhone: ANA, customerName: 'Ana', conversationId: 'conv1' },
    ...over,
  };
}

/** One tool call, then a closing text: the tool's result and the model's requests. */
async function oneCall(name: string, args: unknown, c: TestClinic, over: Partial<RunAgentInput> = {}) {
  const model = new ScriptedModel([toolsReply(call(name, args)), textReply('Hecho.')]);
  const reply = await runAgent(turn(model, c, over));
  return { result: reply.toolCalls[0]!, model, reply };
}

describe('booking tools: offered with the switch', () => {
  it('offers the five tools and the booking prompt only when the agent has Bookings on and the channel gave a customer', async () => {
    const c = await testClinic();
    const on = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn(on, c));
    expect(on.requests[0]!.tools?.map((t) => t.name)).toEqual(['search_knowledge', 'escalate_to_human', 'find_slots', 'book', 'find_my_bookings', 'reschedule', 'cancel_booking']);
    const system = on.requests[0]!.messages[0]!.content!;
    expect(system).toContain("Now it is 2026-11-30 09:00 in the business's time zone (Europe/Madrid)");
    expect(system).toContain('martes 2026-12-01');
    expect(system).toContain(`- Limpieza dental (30 min) [service_id=${c.ids.cleaning}]`);
    expect(system).not.toContain('Cirugía'); // not bookable by the agent
    expect(system).toContain('This customer has no upcoming appointments.');
    expect(system).toMatch(/only after they say yes/);

    const off = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn(off, c, { agent: agent({ bookingsEnabled: false }) }));
    expect(off.requests[0]!.tools?.map((t) => t.name)).not.toContain('book');
    expect(off.requests[0]!.messages[0]!.content).not.toContain('Appointments:');

    const noChannelCustomer = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn(noChannelCustomer, c, { booking: undefined }));
    expect(noChannelCustomer.requests[0]!.tools?.map((t) => t.name)).not.toContain('find_slots');
  });

  it('a custom tool stored under a booking tool name is left out while the built-in is on; the names are reserved for new tools', async () => {
    const c = await testClinic();
    const model = new ScriptedModel([toolsReply(call('book', { start: '2026-12-01T10:00', service: 'Limpieza', customer_name: 'Ana', customer_confirmed: true })), textReply('ok')]);
    const executor = new RecordingExecutor();
    await runAgent(turn(model, c, { agent: agent({ bookingsEnabled: true, tools: [tool({ name: 'book' })] }), tools: executor }));
    expect(model.requests[0]!.tools?.filter((t) => t.name === 'book')).toHaveLength(1);
    expect(executor.calls).toHaveLength(0);
    expect(await c.all()).toHaveLength(1);
    for (const name of bookingToolSpecs.map((spec) => spec.name)) {
      expect(BUILT_IN_TOOL_NAMES).toContain(name);
      const parsed = toolRequest.safeParse({ name, description: 'x', endpoint: 'https://example.com', method: 'GET', properties: {}, required: [] });
      expect(parsed.success, name).toBe(false);
    }
  });

  it('the context cannot be read: the turn goes on without the booking tools', async () => {
    const c = await testClinic();
    c.failNext.on = true;
    const errors: string[] = [];
    const model = new ScriptedModel([textReply('Hola')]);
    const reply = await runAgent(turn(model, c, { onError: (m) => errors.push(m) }));
    expect(reply.reply).toBe('Hola');
    expect(model.requests[0]!.tools?.map((t) => t.name)).not.toContain('book');
    expect(errors[0]).toMatch(/booking context/);
  });
});

describe('find_slots', () => {
  it('answers up to 5 nearest free slots in words with the codes book needs', async () => {
    const c = await testClinic();
    const { result } = await oneCall('find_slots', { service: 'limpieza', from: '2026-12-01', to: '2026-12-01' }, c);
    expect(result.ok).toBe(true);
    const lines = result.result.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(new RegExp(`^- martes 1 de diciembre a las 09:00, con (Dra\\. García|Dr\\. Pérez) \\[start=2026-12-01T09:00 staff_id=(${c.ids.garcia}|${c.ids.perez})\\]$`));
    expect(result.result).toContain(`Free times for Limpieza dental (30 min) [service_id=${c.ids.cleaning}]`);
  });

  it('a staff name narrows; an unknown service lists the services; a service the agent may not book is not offered; bad dates are named', async () => {
    const c = await testClinic();
    const perez = await oneCall('find_slots', { service: 'Limpieza dental', from: '2026-12-01', staff: 'perez' }, c);
    expect(perez.result.result).toContain(`con Dr. Pérez [start=2026-12-01T09:00 staff_id=${c.ids.perez}]`);
    expect(perez.result.result).not.toContain('García');
    const unknown = await oneCall('find_slots', { service: 'Masaje', from: '2026-12-01' }, c);
    expect(unknown.result).toMatchObject({ ok: false });
    expect(unknown.result.result).toContain('The services are: Limpieza dental, Revisión');
    const surgery = await oneCall('find_slots', { service: 'Cirugía', from: '2026-12-01' }, c);
    expect(surgery.result.result).not.toContain('Free times');
    const bad = await oneCall('find_slots', { service: 'Revisión', from: 'el martes' }, c);
    expect(bad.result.result).toMatch(/Invalid dates/);
    const none = await oneCall('find_slots', { service: 'Revisión' }, c);
    expect(none.result.result).toBe('Missing required parameter: from.');
  });

  it('a weekend with no slot offers the next free ones', async () => {
    const c = await testClinic();
    const { result } = await oneCall('find_slots', { service: 'Revisión', from: '2026-12-05', to: '2026-12-06' }, c);
    expect(result.result).toContain('No free times for Revisión (20 min) from 2026-12-05 to 2026-12-06');
    expect(result.result).toContain('lunes 7 de diciembre a las 09:00');
  });
});

describe('book', () => {
  const args = (c: TestClinic, over: Record<string, unknown> = {}) => ({ start: '2026-12-01T10:30', service: 'Limpieza dental', staff: c.ids.garcia, customer_name: 'Ana López', customer_confirmed: true, ...over });

  it("books for the channel's phone (never a phone from the model) with the actor of the channel", async () => {
    const c = await testClinic();
    const { result } = await oneCall('book', { ...args(c), phone: '+34999999999' }, c);
    expect(result).toMatchObject({ ok: true, name: 'book' });
    const [booking, ...others] = await c.all();
    expect(others).toEqual([]);
    expect(result.result).toBe(`Booked: Limpieza dental, martes 1 de diciembre a las 10:30, with Dra. García, for Ana López [booking_id=${booking!._id}]. Tell the customer it is booked.`);
    expect(booking).toMatchObject({ customer: { name: 'Ana López', phone: ANA }, start: '2026-12-01T09:30:00.000Z', staffId: c.ids.garcia, channel: 'whatsapp', bookedBy: 'agent', conversationId: 'conv1', agentId: 'agent1' });
    expect(c.actors[0]).toEqual({ by: 'agent', channel: 'whatsapp', conversationId: 'conv1', callId: null, agentId: 'agent1', customerPhone: ANA });
  });

  it("refuses without the customer's confirmation, and nothing is booked", async () => {
    const c = await testClinic();
    for (const confirmed of [false, undefined, 'yes']) {
      const { result } = await oneCall('book', args(c, { customer_confirmed: confirmed }), c);
      expect(result.ok).toBe(false);
      expect(result.result).toMatch(/^Not done: the customer has not confirmed\. Read the day, time and service back/);
    }
    expect(await c.all()).toEqual([]);
    expect(bookingToolSpecs.find((spec) => spec.name === 'book')!.parameters.required).toContain('customer_confirmed');
  });

  it('a slot taken between the offer and the booking answers "no longer free" with the next free slots', async () => {
    const c = await testClinic();
    await c.ownerBooks(c.ids.cleaning, c.ids.garcia, '2026-12-01T10:30', LUIS);
    const { result } = await oneCall('book', args(c), c);
    expect(result.ok).toBe(false);
    expect(result.result).toMatch(/^That time is no longer free\. The nearest free times now:\n- martes 1 de diciembre a las 09:00, con Dra\. García \[start=2026-12-01T09:00 staff_id=/);
    expect(result.result).not.toContain('start=2026-12-01T10:30');
    expect(await c.all()).toHaveLength(1);
  });

  it('a time outside the hours says why and offers free slots; a missing name asks for it; an unknown phone books nothing', async () => {
    const c = await testClinic();
    const late = await oneCall('book', args(c, { start: '2026-12-01T19:00' }), c);
    expect(late.result.result).toMatch(/^Not done: This time is outside the opening hours\. The nearest free times now:/);
    const noName = await oneCall('book', args(c, { customer_name: ' ' }), c);
    expect(noName.result.result).toBe('Missing required parameter: customer_name. Ask the customer for their name.');
    const hidden = await oneCall('book', args(c), c, { booking: { bookings: c.bookings, customerPhone: null } });
    expect(hidden.result.result).toMatch(/phone number is unknown on this channel/);
    expect(hidden.model.requests[0]!.messages[0]!.content).toMatch(/phone number is unknown here/);
    expect(await c.all()).toEqual([]);
  });

  it('a refused gate (a streamed turn not ours) changes nothing', async () => {
    const c = await testClinic();
    const { result } = await oneCall('book', args(c), c, { booking: { bookings: c.bookings, customerPhone: ANA, gate: async () => false } });
    expect(result.ok).toBe(false);
    expect(await c.all()).toEqual([]);
  });

  it('the booking system down: a text to apologise, never a thrown turn', async () => {
    const c = await testClinic();
    const model = new ScriptedModel([toolsReply(call('find_my_bookings', {})), textReply('Perdona')]);
    const input = turn(model, c);
    const reads = { n: 0 };
    const ofCustomer = c.bookings.ofCustomer;
    input.booking!.bookings = { ...c.bookings, ofCustomer: (...a) => (++reads.n === 2 ? Promise.reject(new Error('timeout')) : ofCustomer(...a)) };
    const reply = await runAgent(input);
    expect(reply.toolCalls[0]).toMatchObject({ ok: false });
    expect(reply.toolCalls[0]!.result).toMatch(/could not be reached/);
  });
});

describe("find_my_bookings, reschedule, cancel_booking: only the customer's own", () => {
  async function seeded() {
    const c = await testClinic();
    const mine = await c.ownerBooks(c.ids.cleaning, c.ids.garcia, '2026-12-01T10:30', ANA, 'Ana');
    const theirs = await c.ownerBooks(c.ids.cleaning, c.ids.perez, '2026-12-02T11:00', LUIS);
    return { c, mine, theirs };
  }

  it("find_my_bookings lists this phone's upcoming bookings only; the prompt has them too", async () => {
    const { c, mine } = await seeded();
    const { result, model } = await oneCall('find_my_bookings', {}, c);
    expect(result.result).toBe(`This customer's upcoming appointments:\n- Limpieza dental, martes 1 de diciembre a las 10:30, con Dra. García [booking_id=${mine._id}]`);
    expect(model.requests[0]!.messages[0]!.content).toContain(
      `upcoming appointments (a message like "I can't come" or "cancel" is most likely about one of them):\n- Limpieza dental, martes 1 de diciembre a las 10:30, con Dra. García [booking_id=${mine._id}]`,
    );
    const other = await oneCall('find_my_bookings', {}, c, { booking: { bookings: c.bookings, customerPhone: '+34600999000' } });
    expect(other.result.result).toBe('This customer has no upcoming appointments.');
  });

  it('another phone\'s booking is "not found" for reschedule and cancel, and stays as it was', async () => {
    const { c, theirs } = await seeded();
    const move = await oneCall('reschedule', { booking_id: theirs._id, start: '2026-12-03T09:00', customer_confirmed: true }, c);
    expect(move.result).toMatchObject({ ok: false, result: expect.stringMatching(/^No appointment of this customer has that booking_id/) });
    const cancel = await oneCall('cancel_booking', { booking_id: theirs._id, customer_confirmed: true }, c);
    expect(cancel.result.result).toMatch(/^No appointment of this customer has that booking_id/);
    expect((await c.all()).find((b) => b._id === theirs._id)).toMatchObject({ status: 'confirmed', start: '2026-12-02T10:00:00.000Z' });
  });

  it('reschedule moves after a yes; a taken time offers the next free ones', async () => {
    const { c, mine } = await seeded();
    const unconfirmed = await oneCall('reschedule', { booking_id: mine._id, start: '2026-12-03T09:00' }, c);
    expect(unconfirmed.result.result).toMatch(/has not confirmed/);
    const moved = await oneCall('reschedule', { booking_id: mine._id, start: '2026-12-03T09:00', customer_confirmed: true }, c);
    expect(moved.result).toMatchObject({ ok: true });
    expect(moved.result.result).toBe(`Moved: Limpieza dental is now jueves 3 de diciembre a las 09:00, with Dra. García [booking_id=${mine._id}]. Tell the customer.`);
    await c.ownerBooks(c.ids.cleaning, c.ids.garcia, '2026-12-04T09:00', LUIS);
    const taken = await oneCall('reschedule', { booking_id: mine._id, start: '2026-12-04T09:00', customer_confirmed: true }, c);
    expect(taken.result.result).toMatch(/^That time is no longer free\. The nearest free times now:\n- viernes 4 de diciembre a las 09:00, con Dr\. Pérez/);
    expect((await c.all()).find((b) => b._id === mine._id)!.start).toBe('2026-12-03T08:00:00.000Z');
  });

  it('cancel_booking cancels after a yes', async () => {
    const { c, mine } = await seeded();
    const unconfirmed = await oneCall('cancel_booking', { booking_id: mine._id, customer_confirmed: false }, c);
    expect(unconfirmed.result.result).toMatch(/has not confirmed/);
    expect((await c.all()).find((b) => b._id === mine._id)!.status).toBe('confirmed');
    const done = await oneCall('cancel_booking', { booking_id: mine._id, customer_confirmed: true }, c, { channel: 'voice', booking: { bookings: c.bookings, customerPhone: ANA, callId: 'call1' } });
    expect(done.result.result).toBe('Cancelled: Limpieza dental, martes 1 de diciembre a las 10:30. Tell the customer it is cancelled.');
    expect((await c.all()).find((b) => b._id === mine._id)!.status).toBe('cancelled');
    expect(c.actors.at(-1)).toMatchObject({ by: 'agent', channel: 'voice', callId: 'call1', customerPhone: ANA });
  });
});

describe('the customer comes from the channel', () => {
  it('customerE164: E.164 kept, digits of an old profile get their +, hidden caller ids and junk are no customer', () => {
    expect(customerE164('+34600111222')).toBe('+34600111222');
    expect(customerE164('34 600 111 222')).toBe('+34600111222');
    for (const hidden of ['+266696687', '+86282452253', 'anonymous', '', null, undefined, '600', '+0123456789']) expect(customerE164(hidden)).toBeNull();
  });

  it('the Test Agent chat books for the owner by the phone of their profile; without one it books nothing', async () => {
    const c = await testClinic();
    const chat = (phoneNumber: string) =>
      createAgentChat({
        agents: { get: async () => agent({ bookingsEnabled: true, language: 'es' }), list: async () => [] },
        ai: {
          forUser: async () => ({
            settings: settings(),
            chat: new ScriptedModel([toolsReply(call('book', { start: '2026-12-01T10:30', service: 'Limpieza', customer_name: 'Marta', customer_confirmed: true })), textReply('Reservado')]),
            embedder: new FakeEmbedder(),
          }),
        },
        retriever: new MemoryRetriever(),
        tools: new RecordingExecutor(),
        bookings: c.bookings,
        users: { get: async () => ({ name: 'Marta Ruiz', phoneNumber }) },
        now: () => NOW,
      });
    const booked = await chat('+34611222333').chat(USER, 'agent1', { message: 'Reserva', messages: [] });
    expect(booked.toolCalls[0]).toMatchObject({ name: 'book', ok: true });
    expect(await c.all()).toMatchObject([{ customer: { phone: '+34611222333', name: 'Marta' }, channel: 'chat' }]);
    const none = await chat('').chat(USER, 'agent1', { message: 'Reserva', messages: [] });
    expect(none.toolCalls[0]!.result).toMatch(/phone number is unknown/);
    expect(await c.all()).toHaveLength(1);
  });
});
