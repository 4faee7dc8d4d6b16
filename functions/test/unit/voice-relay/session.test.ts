import { describe, expect, it } from 'vitest';
import { VOICE_DEFAULTS } from '../../../src/contract/voice.js';
import type { ToolRecord } from '../../../src/domain/agents/ports.js';
import { ModelError } from '../../../src/domain/ai/ports.js';
import { replyLanguageInstruction } from '../../../src/domain/agents/runtime/prompt.js';
import { RELAY_FILLERS, languageOf } from '../../../src/domain/voice/relay/session.js';
import { gate, relaySetup, scriptedModel, RELAY_URL, USER } from './fakes.js';

const prompt = (voicePrompt: string) => ({ type: 'prompt', voicePrompt, lang: 'es-ES', last: true });
const tool = (name: string): ToolRecord => ({
  _id: 't1',
  agentId: 'a1',
  name,
  description: 'Looks it up',
  type: 'http_request',
  properties: {},
  required: [],
  endpoint: 'https://api.example/x',
  method: 'GET',
  headerKey: '',
  sealedHeaderValue: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('voice relay handshake', () => {
  it('accepts a signed handshake for a live streamed call and records the connection', async () => {
    const r = relaySetup();
    const url = `${RELAY_URL}?user=${USER}&call=${r.callId}`;

    const ok = await r.session.connect({ connectionId: 'c1', user: USER, call: r.callId, signature: `signed:${url}` });

    expect(ok).toBe(true);
    expect(r.connections.records.get('c1')).toMatchObject({ userId: USER, callId: r.callId });
  });

  it('refuses a forged signature, another user, an unknown or finished call, and stores nothing', async () => {
    const r = relaySetup();
    const signed = (user: string, call: string) => `signed:${RELAY_URL}?user=${user}&call=${call}`;
    const other = '11111111-2222-4333-8444-555555555555';
    r.calls.byId.set('01HZZZZZZZZZZZZZZZZZZZZZZZ', { ...r.call, id: '01HZZZZZZZZZZZZZZZZZZZZZZZ', status: 'completed' });

    const answers = await Promise.all([
      r.session.connect({ connectionId: 'a', user: USER, call: r.callId, signature: 'forged' }),
      r.session.connect({ connectionId: 'b', user: other, call: r.callId, signature: signed(other, r.callId) }),
      r.session.connect({ connectionId: 'c', user: USER, call: '01HXXXXXXXXXXXXXXXXXXXXXXX', signature: signed(USER, '01HXXXXXXXXXXXXXXXXXXXXXXX') }),
      r.session.connect({ connectionId: 'd', user: USER, call: '01HZZZZZZZZZZZZZZZZZZZZZZZ', signature: signed(USER, '01HZZZZZZZZZZZZZZZZZZZZZZZ') }),
      r.session.connect({ connectionId: 'e', user: 'x'.repeat(5000), call: r.callId, signature: 'x' }),
      r.session.connect({ connectionId: 'f', user: USER, call: r.callId, signature: undefined }),
    ]);

    expect(answers).toEqual([false, false, false, false, false, false]);
    expect(r.connections.records.size).toBe(0);
  });

  it('closes the connection when setup names another call', async () => {
    const r = relaySetup();
    await r.open();

    await r.send({ type: 'setup', sessionId: 'VX1', callSid: 'CAother', accountSid: 'AC1' });

    expect(r.posts.closed).toEqual([r.connectionId]);
    expect(r.connections.records.size).toBe(0);
  });

  it('ignores frames that are not ConversationRelay messages, never throwing', async () => {
    const r = relaySetup();
    await r.open();

    await r.session.frame(r.connectionId, 'not json', { arrivedAt: Date.now() });
    await r.session.frame(r.connectionId, JSON.stringify({ type: 'prompt' }), { arrivedAt: Date.now() });
    await r.session.frame(r.connectionId, JSON.stringify({ type: 'weird', x: 1 }), { arrivedAt: Date.now() });

    expect(r.posts.frames).toEqual([]);
    expect(r.stored().messages).toHaveLength(1);
    expect(r.infos.filter((m) => m.includes('ignored'))).toHaveLength(3);
  });
});

describe('voice relay turns', () => {
  it('streams the model’s first piece at once, then clause-sized tokens, and stores the turn with its latency', async () => {
    const { model } = scriptedModel([['Claro', ',', ' le', ' ayudo', '.', ' Tenemos', ' mesa', ' a', ' las', ' **nueve**', '.', ' ¿Le', ' va', ' bien', '?']]);
    const r = relaySetup({ model });
    await r.open();

    await r.send(prompt('Quiero reservar una mesa'));

    const texts = r.posts.texts;
    expect(texts.map((t) => t.token)).toEqual(['Claro', ', le ayudo.', ' Tenemos mesa a las nueve.', ' ¿Le va bien?']);
    expect(texts.map((t) => t.last)).toEqual([false, false, false, true]);
    const [welcome, user, agent] = r.stored().messages;
    expect(welcome!.content).toBe(VOICE_DEFAULTS.messageWelcome);
    expect(user).toMatchObject({ role: 'user', content: 'Quiero reservar una mesa' });
    expect(agent).toMatchObject({ role: 'agent', content: 'Claro, le ayudo. Tenemos mesa a las nueve. ¿Le va bien?' });
    expect(agent!.latency!.firstTokenMs).toBeGreaterThanOrEqual(0);
    expect(agent!.latency!.lastTokenMs).toBeGreaterThanOrEqual(agent!.latency!.firstTokenMs);
    expect(r.stored().latency).toEqual({ turns: 1, p50Ms: agent!.latency!.firstTokenMs, p95Ms: agent!.latency!.firstTokenMs });
  });

  it('gives the agent the transcript so far as history', async () => {
    const { model, requests } = scriptedModel([['Sí.']]);
    const r = relaySetup({ model });
    await r.open();

    await r.send(prompt('Hola'));
    await r.send(prompt('¿Abren mañana?'));

    const last = requests.at(-1)!.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]);
    expect(last).toEqual([
      ['assistant', VOICE_DEFAULTS.messageWelcome],
      ['user', 'Hola'],
      ['assistant', 'Sí.'],
      ['user', '¿Abren mañana?'],
    ]);
  });

  it('stops between posts when the caller interrupts and stores what was heard', async () => {
    const later = gate();
    const { model } = scriptedModel([['Tenemos tres menús.', ' El primero lleva pescado.', { gate: later.promise }, ' El segundo', ' lleva carne.', ' El tercero es vegetariano.']]);
    const r = relaySetup({ model });
    await r.open();
    r.posts.onPost = async (frame) => {
      if (frame.type !== 'text') return;
      if (frame.token.includes('menús')) later.open();
      // The caller speaks over the second clause: Twilio sends interrupt (a separate invocation).
      if (frame.token.includes('primero')) await r.send({ type: 'interrupt', utteranceUntilInterrupt: 'Tenemos tres menús. El primero', durationUntilInterruptMs: 1800 });
    };

    await r.send(prompt('¿Qué menús tienen?'));

    expect(r.posts.texts.map((t) => t.token)).toEqual(['Tenemos tres menús.', ' El primero lleva pescado.']);
    expect(r.posts.texts.every((t) => !t.last)).toBe(true);
    const agent = r.stored().messages[2]!;
    expect(agent).toMatchObject({ content: 'Tenemos tres menús. El primero', interrupted: true });
    expect(agent.latency).toBeDefined();
  });

  it('corrects the stored turn when the interrupt comes after the answer was fully sent', async () => {
    const r = relaySetup({ model: scriptedModel([['Abrimos a las nueve y cerramos a medianoche.']]).model });
    await r.open();
    await r.send(prompt('¿Horario?'));

    await r.send({ type: 'interrupt', utteranceUntilInterrupt: 'Abrimos a las nueve', durationUntilInterruptMs: 900 });

    expect(r.stored().messages[2]).toMatchObject({ content: 'Abrimos a las nueve', interrupted: true });
    expect(r.stored().messages[2]!.latency).toBeDefined();
  });

  it('ignores a repeated prompt frame while its answer is not over; the same words said after it are a new turn', async () => {
    const r = relaySetup({ model: scriptedModel([[{ wait: 20 }, 'Vale.']]).model });
    await r.open();

    await Promise.all([r.send(prompt('Reservar')), r.send(prompt('Reservar'))]);
    await r.send(prompt('Reservar'));

    expect(r.stored().messages.map((m) => m.content)).toEqual([VOICE_DEFAULTS.messageWelcome, 'Reservar', 'Vale.', 'Reservar', 'Vale.']);
    expect(r.posts.texts.filter((t) => t.last)).toHaveLength(2);
    expect(r.infos.filter((m) => m === 'Voice relay: a repeated prompt frame was ignored')).toHaveLength(1);
  });

  it('a repeated frame handled only after its answer ended, but that arrived before, is still the same frame: ignored', async () => {
    // The answer takes ≥ 20 ms, so it ends well after the duplicate's arrival (3 ms after the first's).
    const r = relaySetup({ model: scriptedModel([[{ wait: 20 }, 'Vale.'], ['Vale otra vez.']]).model });
    await r.open();
    const arrived = Date.now();

    await r.send(prompt('Reservar'), arrived);
    // The duplicate arrived 3 ms after the first, but its invocation ran once the answer was over (a busy moment).
    await r.send(prompt('Reservar'), arrived + 3);

    expect(r.stored().messages.map((m) => m.content)).toEqual([VOICE_DEFAULTS.messageWelcome, 'Reservar', 'Vale.']);
    expect(r.posts.texts.filter((t) => t.last)).toHaveLength(1);
    expect(r.infos).toContain('Voice relay: a repeated prompt frame was ignored');
    // Said again after the answer ended: a new turn.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await r.send(prompt('Reservar'));
    expect(r.stored().messages.map((m) => m.content)).toEqual([VOICE_DEFAULTS.messageWelcome, 'Reservar', 'Vale.', 'Reservar', 'Vale otra vez.']);
  });

  it('asks the model once the caller’s turn is stored, with the transcript the claim found as history', async () => {
    const { model, requests } = scriptedModel([['Claro.']]);
    const r = relaySetup({ model });
    await r.open();
    const slowClaim = gate();
    r.calls.claimGate = slowClaim.promise;

    const answered = r.send(prompt('¿Tienen terraza?'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toHaveLength(0);
    expect(r.posts.frames).toEqual([]);
    slowClaim.open();
    await answered;

    expect(r.posts.texts.map((t) => [t.token, t.last])).toEqual([
      ['Claro.', false],
      ['', true],
    ]);
    expect(r.stored().messages.map((m) => m.content)).toEqual([VOICE_DEFAULTS.messageWelcome, '¿Tienen terraza?', 'Claro.']);
  });

  it('a prompt whose call read lands before the previous prompt’s claim is still answered with both prompts', async () => {
    const { model, requests } = scriptedModel([[{ wait: 50 }, 'Vale.'], ['Mesa para cuatro, apuntado.']]);
    const r = relaySetup({ model });
    await r.open();
    const slowClaim = gate();
    r.calls.claimGate = slowClaim.promise;

    // Both frames are read while neither claim has landed (DynamoDB slow on the first write).
    const first = r.send(prompt('Quiero reservar una mesa'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = r.send(prompt('para cuatro personas'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    slowClaim.open();
    await Promise.all([first, second]);

    const answering = requests.find((q) => q.messages.at(-1)!.content === 'para cuatro personas')!;
    expect(answering.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Quiero reservar una mesa', 'para cuatro personas']);
    expect(r.stored().messages.map((m) => m.content).slice(0, 2)).toEqual([VOICE_DEFAULTS.messageWelcome, 'Quiero reservar una mesa']);
  });

  it('never asks the model for a repeated frame whose claim is refused, so none of its tools runs', async () => {
    const hold = gate();
    const { model, requests } = scriptedModel([[{ gate: hold.promise }, 'Vale.'], [{ tools: [{ id: 'c1', name: 'book_table', arguments: '{}' }] }], ['Reservado.']]);
    const r = relaySetup({ model, agentTools: [tool('book_table')] });
    await r.open();
    const first = r.send(prompt('Reserva para dos'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const slowClaim = gate();
    r.calls.claimGate = slowClaim.promise;

    // The same frame again while its answer is still being written: the model asks for the tool before the claim is refused.
    const repeated = r.send(prompt('Reserva para dos'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    slowClaim.open();
    await repeated;
    hold.open();
    await first;

    expect(requests).toHaveLength(1);
    expect(r.toolCalls).toEqual([]);
    expect(r.posts.texts.map((t) => [t.token, t.last])).toEqual([
      ['Vale.', false],
      ['', true],
    ]);
    expect(r.stored().messages.map((m) => m.content)).toEqual([VOICE_DEFAULTS.messageWelcome, 'Reserva para dos', 'Vale.']);
    expect(r.infos).toContain('Voice relay: a repeated prompt frame was ignored');
  });

  it('gives the caller’s words to the model once when the call read already holds them', async () => {
    const { model, requests } = scriptedModel([['Sí.']]);
    const r = relaySetup({ model });
    await r.open();
    // The call read lands after the turn's claim appended the caller's words.
    const read = r.calls.get.bind(r.calls);
    r.calls.get = async (userId, id) => (await new Promise((resolve) => setTimeout(resolve, 10)), read(userId, id));

    await r.send(prompt('¿Abren el domingo?'));

    const sent = requests[0]!.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]);
    expect(sent).toEqual([
      ['assistant', VOICE_DEFAULTS.messageWelcome],
      ['user', '¿Abren el domingo?'],
    ]);
  });

  it('speaks a filler as soon as a tool call starts, before the tool answers', async () => {
    const slow = gate();
    const { model } = scriptedModel([[{ tools: [{ id: 'c1', name: 'check_table', arguments: '{}' }] }], ['Hay mesa libre.']]);
    const r = relaySetup({ model, agentTools: [tool('check_table')], tool: async () => (await slow.promise, { ok: true, result: 'free' }) });
    await r.open();
    r.posts.onPost = (frame) => {
      if (frame.type === 'text' && frame.token === RELAY_FILLERS.es) setTimeout(slow.open, 30);
    };

    await r.send(prompt('¿Hay mesa?'));

    expect(r.posts.texts.map((t) => [t.token, t.last])).toEqual([
      [RELAY_FILLERS.es, false],
      [' Hay mesa libre.', true],
    ]);
    expect(r.toolCalls).toEqual(['check_table']);
    expect(r.stored().messages[2]!.content).toBe(`${RELAY_FILLERS.es} Hay mesa libre.`);
  });

  it('speaks the English filler on an English call, and none for escalate_to_human', async () => {
    const en = relaySetup({
      model: scriptedModel([[{ tools: [{ id: 'c1', name: 'check_table', arguments: '{}' }] }], ['Yes.']]).model,
      agentTools: [tool('check_table')],
      settings: { language: 'en-US' },
    });
    await en.open();
    await en.send(prompt('Any table?'));
    const esc = relaySetup({ model: scriptedModel([[{ tools: [{ id: 'e1', name: 'escalate_to_human', arguments: '{"reason":"wants a manager"}' }] }]]).model });
    await esc.open();
    await esc.send(prompt('Quiero hablar con el encargado'));

    expect(en.posts.texts[0]!.token).toBe(RELAY_FILLERS.en);
    expect(esc.posts.texts.map((t) => t.token)).toEqual([VOICE_DEFAULTS.messageFallback, '']);
  });

  it('hands over with the fallback message and an end frame with handoffData when a forwarding number is set', async () => {
    const r = relaySetup({
      model: scriptedModel([[{ tools: [{ id: 'e1', name: 'escalate_to_human', arguments: '{"reason":"wants a manager"}' }] }]]).model,
      settings: { escalationForwardNumber: '+34911111111' },
    });
    await r.open();

    await r.send(prompt('Quiero hablar con el encargado'));

    expect(r.posts.spoken).toBe(VOICE_DEFAULTS.messageFallback);
    const end = r.posts.frames.at(-1)!;
    expect(end.type).toBe('end');
    expect(JSON.parse((end as { handoffData: string }).handoffData)).toEqual({ reason: 'wants a manager', callId: r.callId });
    expect(r.stored()).toMatchObject({ escalated: true, escalationReason: 'wants a manager', endedByUs: false });
    expect(r.stored().messages[2]!.content).toBe(VOICE_DEFAULTS.messageFallback);
  });

  it('without a forwarding number marks the call escalated and keeps it going (no end frame)', async () => {
    const r = relaySetup({ model: scriptedModel([[{ tools: [{ id: 'e1', name: 'escalate_to_human', arguments: '{"reason":"complaint"}' }] }]]).model });
    await r.open();

    await r.send(prompt('Tengo una queja'));

    expect(r.posts.frames.some((f) => f.type === 'end')).toBe(false);
    expect(r.posts.texts.at(-1)!.last).toBe(true);
    expect(r.stored()).toMatchObject({ escalated: true, escalationReason: 'complaint', status: 'active' });
  });

  it('speaks the error message after a model error, stores the turns, and the call goes on', async () => {
    const r = relaySetup({ model: scriptedModel([['Un', { fail: new ModelError('unavailable', 'down') }], ['Ahora sí.']]).model });
    await r.open();

    await r.send(prompt('Hola'));
    await r.send(prompt('¿Me oye?'));

    expect(r.posts.texts.slice(0, 3).map((t) => [t.token, t.last])).toEqual([
      ['Un', false],
      [` ${VOICE_DEFAULTS.messageError}`, false],
      ['', true],
    ]);
    expect(r.stored().messages.map((m) => m.content)).toEqual([VOICE_DEFAULTS.messageWelcome, 'Hola', `Un ${VOICE_DEFAULTS.messageError}`, '¿Me oye?', 'Ahora sí.']);
    expect(r.errors).toHaveLength(1);
  });

  it('speaks the error message when the turn’s bound passes with the model still silent', async () => {
    const r = relaySetup({ model: scriptedModel([[{ wait: 600 }, 'Demasiado tarde.']]).model, turnMs: 50 });
    await r.open();

    await r.send(prompt('Hola'));

    expect(r.posts.texts.map((t) => t.token).join('')).toBe(VOICE_DEFAULTS.messageError);
    expect(r.posts.texts.at(-1)!.last).toBe(true);
    expect(r.stored().messages[2]!.content).toBe(VOICE_DEFAULTS.messageError);
  });

  it('speaks the error message without an agent or a ChatGPT integration', async () => {
    const noAgent = relaySetup({ agent: false });
    const noAi = relaySetup({ ai: false });
    await noAgent.open();
    await noAi.open();

    await noAgent.send(prompt('Hola'));
    await noAi.send(prompt('Hola'));

    for (const r of [noAgent, noAi]) {
      expect(r.posts.spoken).toBe(VOICE_DEFAULTS.messageError);
      expect(r.posts.texts.at(-1)!.last).toBe(true);
      expect(r.stored().messages[2]!.content).toBe(VOICE_DEFAULTS.messageError);
      expect(r.stored().status).toBe('active');
    }
  });

  it('says goodbye and ends the session (no handoff) once maxCallDuration has passed', async () => {
    const r = relaySetup({ createdAt: new Date(Date.now() - 301_000).toISOString(), settings: { maxCallDuration: 300, escalationForwardNumber: '+34911111111' } });
    await r.open();

    await r.send(prompt('Una cosa más'));

    expect(r.posts.spoken).toBe(VOICE_DEFAULTS.messageGoodbye);
    expect(r.posts.frames.at(-1)).toMatchObject({ type: 'end' });
    expect(r.posts.frames.at(-1)).not.toHaveProperty('handoffData');
    expect(r.stored()).toMatchObject({ endedByUs: true, endReason: 'max_duration' });
  });

  it('passes a keypad digit to the agent as the caller’s message, and stores it so', async () => {
    const { model, requests } = scriptedModel([['Ha elegido reservas.']]);
    const r = relaySetup({ model });
    await r.open();

    await r.send({ type: 'dtmf', digit: '1' });

    expect(requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'Tecla pulsada: 1' });
    expect(r.stored().messages[1]).toMatchObject({ role: 'user', content: 'Tecla pulsada: 1' });
  });

  it('stops posting when the caller is gone', async () => {
    const r = relaySetup({ model: scriptedModel([['Primera frase.', ' Segunda frase.', ' Tercera.']]).model });
    await r.open();
    r.posts.onPost = () => {
      r.posts.gone = true;
    };

    await r.send(prompt('Hola'));

    expect(r.posts.texts.map((t) => t.token)).toEqual(['Primera frase.']);
    expect(r.stored().messages[2]!.content).toBe('Primera frase.');
  });
});

describe('relay session: unanswered questions (issue 18)', () => {
  it('a caller question no passage supports is recorded with the call id after the answer was spoken', async () => {
    const recorded: unknown[] = [];
    const { model } = scriptedModel([['Lo siento, no tengo esa información.']]);
    const r = relaySetup({ model, knowledge: true, recordUnanswered: async (...args) => void (args[2] && recorded.push([...args, r.posts.texts.length])) });
    await r.open();

    await r.send(prompt('¿Tenéis aparcamiento para clientes?'));

    expect(recorded).toEqual([[USER, r.agent._id, { question: '¿Tenéis aparcamiento para clientes?' }, { channel: 'voice', callId: r.callId }, 1]]);
  });
});


describe('ConversationRelay as Twilio sends it (issue 28)', () => {
  it('acts on an interrupt whose durationUntilInterruptMs is a string, and on frames with fields it does not know', async () => {
    const later = gate();
    const { model } = scriptedModel([['Tenemos tres menús.', ' El primero lleva pescado.', { gate: later.promise }, ' El segundo lleva carne.']]);
    const r = relaySetup({ model });
    await r.open();
    r.posts.onPost = async (frame) => {
      if (frame.type !== 'text') return;
      if (frame.token.includes('menús')) later.open();
      if (frame.token.includes('primero')) {
        await r.send({ type: 'interrupt', utteranceUntilInterrupt: 'Tenemos tres menús.', durationUntilInterruptMs: '460', callSid: 'CA1', unknown: { nested: true } });
      }
    };

    await r.send({ ...prompt('¿Qué menús tienen?'), confidence: 0.9, interim: false, extra: [1, 2] });

    expect(r.posts.texts.map((t) => t.token)).toEqual(['Tenemos tres menús.', ' El primero lleva pescado.']);
    expect(r.stored().messages[2]).toMatchObject({ content: 'Tenemos tres menús.', interrupted: true });
  });

  it('answers and stores nothing for a prompt without a setup, before its setup, or after a setup naming another call', async () => {
    const r = relaySetup({ limits: { setupWaitMs: 60 } });
    await r.open({ setup: false });
    await r.send(prompt('Hola'));
    const setupAt = Date.now();
    await r.send({ type: 'setup', callSid: r.call.callSid }, setupAt);
    await r.send(prompt('¿Me oye?'), setupAt - 50);

    expect(r.posts.frames).toEqual([]);
    expect(r.stored().messages).toHaveLength(1);
    expect(r.infos.filter((m) => m.includes('before (or without) its connection’s setup'))).toHaveLength(2);

    const other = relaySetup();
    await other.open({ setup: false });
    await other.send({ type: 'setup', callSid: 'CA99999999999999999999999999999999' });
    await other.send(prompt('Hola'));
    expect(other.posts.closed).toEqual([other.connectionId]);
    expect(other.posts.texts).toEqual([]);
    expect(other.stored().messages).toHaveLength(1);
  });

  it('a prompt handled before its (earlier) setup waits for it and is answered', async () => {
    const r = relaySetup({ model: scriptedModel([['Sí, le oigo.']]).model });
    await r.open({ setup: false });
    const setupAt = Date.now();

    const answered = r.send(prompt('¿Me oye?'), setupAt + 1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    await r.send({ type: 'setup', callSid: r.call.callSid }, setupAt);
    await answered;

    expect(r.posts.spoken).toBe('Sí, le oigo.');
    expect(r.stored().messages.map((m) => m.content)).toEqual([VOICE_DEFAULTS.messageWelcome, '¿Me oye?', 'Sí, le oigo.']);
  });

  it('a new prompt while an answer streams ends it (stored as sent), and one answer streams at a time, with both prompts as context', async () => {
    const stuck = gate();
    const { model, requests } = scriptedModel([['Primero.', { gate: stuck.promise }, ' Segundo.'], ['Ahora le entiendo.']]);
    const r = relaySetup({ model, limits: { watchMs: 20 } });
    await r.open();
    let second: Promise<void> | null = null;
    r.posts.onPost = (frame) => {
      if (frame.type === 'text' && frame.token === 'Primero.') second = r.send(prompt('para cuatro personas'));
    };

    const first = r.send(prompt('Quiero reservar una mesa'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    await second;
    stuck.open();
    await first;

    expect(r.posts.texts.map((t) => [t.token, t.last])).toEqual([
      ['Primero.', false],
      ['Ahora le entiendo.', false],
      ['', true],
    ]);
    expect(r.stored().messages.map((m) => [m.content, m.interrupted ?? false])).toEqual([
      [VOICE_DEFAULTS.messageWelcome, false],
      ['Quiero reservar una mesa', false],
      ['Primero.', true],
      ['para cuatro personas', false],
      ['Ahora le entiendo.', false],
    ]);
    const context = requests[1]!.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(context).toEqual(['Quiero reservar una mesa', 'para cuatro personas']);
  });

  it('prompt.lang naming a language the call supports switches the voice before the answer (recognition stays on detection), which is in it', async () => {
    const { model, requests } = scriptedModel([['Yes, we do.'], ['Sure.'], ['Claro.']]);
    const r = relaySetup({ model, settings: { language: 'es-ES', additionalLanguages: ['en-US'] } });
    await r.open();

    await r.send({ ...prompt('Do you open on Sundays?'), lang: 'en-US' });
    await r.send({ ...prompt('And in the evening?'), lang: 'fr-FR' });
    await r.send({ ...prompt('¿Y el lunes?'), lang: 'es-ES' });

    expect(r.posts.frames.map((f) => (f.type === 'language' ? `language ${f.ttsLanguage}/${f.transcriptionLanguage}` : f.type === 'text' ? f.token : f.type))).toEqual([
      'language en-US/multi',
      'Yes, we do.',
      '',
      'Sure.',
      '',
      'language es-ES/multi',
      'Claro.',
      '',
    ]);
    const systems = requests.map((q) => q.messages[0]!.content);
    expect(systems[0]).toContain(replyLanguageInstruction('en-US'));
    expect(systems[1]).toContain(replyLanguageInstruction('en-US'));
    expect(systems[2]).toContain(replyLanguageInstruction('es-ES'));
    expect(r.stored().relayLanguage).toBe('es-ES');
  });

  it('automatic detection’s bare primary tags ("en", "es") switch to the supported language with that tag; one the call does not speak ("fr") changes nothing', async () => {
    const { model, requests } = scriptedModel([['Yes, we do.'], ['Sure.'], ['Claro.']]);
    const r = relaySetup({ model, settings: { language: 'es-ES', additionalLanguages: ['en-US'] } });
    await r.open();

    await r.send({ ...prompt('Do you open on Sundays?'), lang: 'en' });
    await r.send({ ...prompt('Et le soir ?'), lang: 'fr' });
    await r.send({ ...prompt('¿Y el lunes?'), lang: 'es' });

    expect(r.posts.frames.flatMap((f) => (f.type === 'language' ? [{ ttsLanguage: f.ttsLanguage, transcriptionLanguage: f.transcriptionLanguage }] : []))).toEqual([
      { ttsLanguage: 'en-US', transcriptionLanguage: 'multi' },
      { ttsLanguage: 'es-ES', transcriptionLanguage: 'multi' },
    ]);
    expect(r.posts.frames.findIndex((f) => f.type === 'language' && f.ttsLanguage === 'es-ES')).toBeGreaterThan(r.posts.frames.findIndex((f) => f.type === 'text' && f.token === 'Sure.'));
    const systems = requests.map((q) => q.messages[0]!.content);
    expect(systems.map((c) => [String(c).includes(replyLanguageInstruction('en-US')), String(c).includes(replyLanguageInstruction('es-ES'))])).toEqual([
      [true, false],
      [true, false],
      [false, true],
    ]);
    expect(r.stored().relayLanguage).toBe('es-ES');
  });

  it('a call in one language never switches, and its prompt says nothing of a reply language', async () => {
    const { model, requests } = scriptedModel([['Claro.']]);
    const r = relaySetup({ model });
    await r.open();

    await r.send({ ...prompt('Do you open on Sundays?'), lang: 'en-US' });

    expect(r.posts.frames.some((f) => f.type === 'language')).toBe(false);
    expect(requests[0]!.messages[0]!.content).not.toContain('Reply in');
  });

  it('sets interruptible and preemptible on every text: the answer may be cut, the filler and the hand-off message may not', async () => {
    const slow = gate();
    const { model } = scriptedModel([[{ tools: [{ id: 'c1', name: 'check_table', arguments: '{}' }] }], ['Hay mesa libre.']]);
    const r = relaySetup({ model, agentTools: [tool('check_table')], tool: async () => (await slow.promise, { ok: true, result: 'free' }) });
    await r.open();
    r.posts.onPost = (frame) => {
      if (frame.type === 'text' && frame.token === RELAY_FILLERS.es) setTimeout(slow.open, 10);
    };
    await r.send(prompt('¿Hay mesa?'));
    const handoff = relaySetup({
      model: scriptedModel([[{ tools: [{ id: 'e1', name: 'escalate_to_human', arguments: '{"reason":"wants a manager"}' }] }]]).model,
      settings: { escalationForwardNumber: '+34911111111' },
    });
    await handoff.open();
    await handoff.send(prompt('Quiero hablar con el encargado'));

    const flags = (texts: typeof r.posts.texts) => texts.map((t) => [t.token, t.interruptible, t.preemptible]);
    expect(flags(r.posts.texts)).toEqual([
      [RELAY_FILLERS.es, false, false],
      [' Hay mesa libre.', true, true],
    ]);
    expect(flags(handoff.posts.texts)).toEqual([
      [VOICE_DEFAULTS.messageFallback, false, false],
      ['', false, false],
    ]);
  });
});

describe('the language a prompt names (languageOf, issue 28)', () => {
  it('maps a bare primary tag to the main language when it has that tag, else to the first additional one with it', () => {
    expect(languageOf('en', ['es-ES', 'en-US'])).toBe('en-US');
    expect(languageOf('es', ['es-ES', 'en-US'])).toBe('es-ES');
    expect(languageOf('es', ['es-MX', 'es-ES'])).toBe('es-MX');
    expect(languageOf('es', ['es-ES', 'es-MX'])).toBe('es-ES');
    expect(languageOf('es', ['en-US', 'es-MX', 'es-ES'])).toBe('es-MX');
    expect(languageOf('en', ['en-GB', 'en-US'])).toBe('en-GB');
    expect(languageOf('EN', ['es-ES', 'en-GB'])).toBe('en-GB');
  });

  it('accepts a full tag as it is (any case), and one the call does not speak by its primary tag', () => {
    expect(languageOf('es-MX', ['es-ES', 'es-MX'])).toBe('es-MX');
    expect(languageOf('en-us', ['es-ES', 'en-US'])).toBe('en-US');
    expect(languageOf('en-AU', ['es-ES', 'en-US'])).toBe('en-US');
  });

  it('maps what the call does not speak, or nothing, to nothing', () => {
    expect(languageOf('fr', ['es-ES', 'en-US'])).toBeNull();
    expect(languageOf('fr-FR', ['es-ES', 'en-US'])).toBeNull();
    expect(languageOf('multi', ['es-ES', 'en-US'])).toBeNull();
    expect(languageOf('', ['es-ES'])).toBeNull();
    expect(languageOf(undefined, ['es-ES'])).toBeNull();
    expect(languageOf('en', [])).toBeNull();
  });
});
