/**
 * Issue 33: the customers' stop and start words (whole message, folded), the AI and recording
 * notices' texts, the AI notice on a WhatsApp conversation's first agent message only, a stop
 * word answered with its confirmation instead of the agent, and a call's opening (the recording
 * notice before anything else, the greeting saying it is an AI) on both call paths.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTICE_TEXTS, privacyMessages, type OptOutState } from '../../../src/contract/privacy.js';
import type { MessageRepository, StoredMessage } from '../../../src/domain/conversations/ports.js';
import { aiNotice, noticeText, recordingNotice, withNotice, type AccountNotices } from '../../../src/domain/privacy/notices.js';
import { mayBeOptOutWord, optOutWordOf } from '../../../src/domain/privacy/opt-outs.js';
import { defaultPrivacySettings } from '../../../src/domain/privacy/settings.js';
import { createAgentReply, hadAgentMessage, type AgentReplyDeps } from '../../../src/domain/whatsapp/agent-reply.js';
import { renderTwiml } from '../../../src/adapters/twilio/twiml.js';
import { agent, FakeEmbedder, MemoryRetriever, RecordingExecutor, ScriptedModel, settings, textReply } from '../runtime/fakes.js';
import { conversation, message } from '../conversations-service/fakes.js';
import { incomingParams, RELAY_URL, setup as callSetup, USER } from '../voice-call-loop/fakes.js';

const SPAIN: AccountNotices = { ...defaultPrivacySettings('ES'), business: 'Clínica Dental Sonrisa' };
const US: AccountNotices = { ...defaultPrivacySettings('US'), business: 'Smile Dental' };
const AI_ES = 'Estás hablando con un asistente de inteligencia artificial de Clínica Dental Sonrisa. Puedes pedir hablar con una persona en cualquier momento.';

describe('stop and start words', () => {
  const words = SPAIN.optOut;
  it('match the whole message whatever its case, accents, punctuation and spaces', () => {
    expect(optOutWordOf('Baja.', words)).toEqual({ action: 'stop', keyword: 'BAJA' });
    expect(optOutWordOf('baja ', words)).toEqual({ action: 'stop', keyword: 'BAJA' });
    expect(optOutWordOf('STOP!', words)).toEqual({ action: 'stop', keyword: 'STOP' });
    expect(optOutWordOf('  Bája 🙏', words)).toEqual({ action: 'stop', keyword: 'BAJA' });
    expect(optOutWordOf('Darme  de baja', words)).toEqual({ action: 'stop', keyword: 'DARME DE BAJA' });
    expect(optOutWordOf('alta', words)).toEqual({ action: 'start', keyword: 'ALTA' });
    expect(optOutWordOf('¡Start!', words)).toEqual({ action: 'start', keyword: 'START' });
  });
  it('a sentence that contains one is not one', () => {
    expect(optOutWordOf('dar me de baja', words)).toBeNull();
    expect(optOutWordOf('quiero darme de baja del tratamiento?', words)).toBeNull();
    expect(optOutWordOf('No me des de baja', words)).toBeNull();
    expect(optOutWordOf('', words)).toBeNull();
    expect(optOutWordOf('!!!', words)).toBeNull();
    expect(mayBeOptOutWord('¿Tenéis cita el martes por la tarde para una limpieza?')).toBe(false);
    expect(mayBeOptOutWord('Baja.')).toBe(true);
  });
  it("the account's own words count, folded the same way", () => {
    expect(optOutWordOf('No más', { stopKeywords: ['NO MAS'], startKeywords: ['SI'] })).toEqual({ action: 'stop', keyword: 'NO MAS' });
    expect(optOutWordOf('BAJA', { stopKeywords: ['NO MAS'], startKeywords: ['SI'] })).toBeNull();
  });
});

describe('notice texts', () => {
  it("in the language asked, with the business's name; off = none", () => {
    expect(aiNotice(SPAIN, 'es')).toBe(AI_ES);
    expect(aiNotice(SPAIN, 'es-ES')).toBe(AI_ES);
    expect(aiNotice(SPAIN, 'en-GB')).toBe(DEFAULT_NOTICE_TEXTS.ai.en.replace('{business}', 'Clínica Dental Sonrisa'));
    expect(aiNotice(US, 'en')).toBeNull();
    expect(recordingNotice(SPAIN, true, 'es-ES')).toBe('Esta llamada se está grabando.');
    expect(recordingNotice(SPAIN, false, 'es-ES')).toBeNull();
    expect(recordingNotice(US, true, 'en-US')).toBeNull();
  });
  it('no name known: the placeholder goes with the word before it, never shown raw', () => {
    expect(noticeText(DEFAULT_NOTICE_TEXTS.ai, 'es', '')).toBe('Estás hablando con un asistente de inteligencia artificial. Puedes pedir hablar con una persona en cualquier momento.');
    expect(noticeText({ en: '{business} uses an AI.', es: 'x' }, 'en', '')).toBe('uses an AI.');
  });
  it('goes before the message', () => {
    expect(withNotice('AI.', 'Hola')).toBe('AI.\n\nHola');
    expect(withNotice(null, 'Hola')).toBe('Hola');
  });
});

function whatsapp(notices: AccountNotices, history: StoredMessage[] = []) {
  const stored: StoredMessage[] = [];
  const sends: string[] = [];
  const optOuts = new Map<string, OptOutState>();
  let ids = 0;
  const deps: AgentReplyDeps = {
    conversations: { get: async () => null, touch: async () => null, escalate: async () => null } as unknown as AgentReplyDeps['conversations'],
    messages: {
      recent: async () => history,
      insertOutbound: async (_u: string, m: StoredMessage) => void stored.push(structuredClone(m)),
      markSent: async (_u: string, id: string, waMessageId: string) => Object.assign(stored.find((m) => m.id === id)!, { status: 'sent', waMessageId }),
      markFailed: async (_u: string, id: string, error: string) => Object.assign(stored.find((m) => m.id === id)!, { status: 'failed', error }),
      noteReply: async () => undefined,
    } as unknown as MessageRepository,
    agents: { get: async () => null, list: async () => [agent({ _id: 'a1', name: 'Sonia', language: 'es' })] },
    ai: { forUser: async () => ({ settings: settings(), chat: new ScriptedModel([textReply('Abrimos a las 9.')]), embedder: new FakeEmbedder() }) },
    retriever: new MemoryRetriever(),
    tools: new RecordingExecutor(),
    usage: { reserve: async () => 1, release: async () => undefined },
    graph: { sendText: async (_c, _to, text) => (sends.push(text), { messageId: `wamid.${sends.length}` }), getPhoneNumber: async () => ({ id: '1', displayPhoneNumber: '', verifiedName: '' }) },
    privacy: {
      notices: async () => notices,
      optOuts: { set: async (_a, e164, state) => void optOuts.set(e164, state), clear: async (_a, e164) => void optOuts.delete(e164) },
    },
    connection: async () => ({ credentials: { bearerToken: 't', businessId: 'b', phoneId: '1055' }, phoneNumber: '+15550100' }),
    newId: () => `ID${String(++ids).padStart(24, '0')}`,
    // The conversation fakes' clock.
    now: () => Date.parse('2026-03-18T12:00:00.000Z'),
  };
  return { replies: createAgentReply(deps), stored, sends, optOuts };
}

describe('WhatsApp: the AI notice and the stop words', () => {
  const conv = conversation();
  const CUSTOMER = { waId: '34612345678', phone: '+34612345678', name: 'Lucía' };

  it('the first agent message starts with the notice (stored so); a later one does not', async () => {
    const first = whatsapp(SPAIN);
    expect(await first.replies.answer('u1', conv, message(conv, { body: '¿A qué hora abrís?' }), CUSTOMER)).toBe('replied');
    expect(first.sends).toEqual([`${AI_ES}\n\nAbrimos a las 9.`]);
    expect(first.stored[0]!.body).toBe(first.sends[0]);

    const earlier = { ...first.stored[0]!, status: 'sent' as const };
    const second = whatsapp(SPAIN, [message(conv, { body: '¿A qué hora abrís?' }), earlier]);
    await second.replies.answer('u1', conv, message(conv, { body: '¿Y los sábados?' }), CUSTOMER);
    expect(second.sends).toEqual(['Abrimos a las 9.']);
  });

  it('decides "first" from the history: an earlier agent send that failed, a booking message or a confirmation carry no agent and do not count', () => {
    const asked = message(conv);
    expect(hadAgentMessage([message(conv, { fromMe: true, agent: { _id: 'a1', name: 'Sonia' }, status: 'failed' }), asked], asked)).toBe(false);
    expect(hadAgentMessage([message(conv, { fromMe: true, sentBy: 'agent' }), asked], asked)).toBe(false);
    expect(hadAgentMessage([message(conv, { fromMe: true, agent: { _id: 'a1', name: 'Sonia' }, status: 'read' }), asked], asked)).toBe(true);
  });

  it('an account outside the EU gets no notice by default', async () => {
    const us = whatsapp(US);
    await us.replies.answer('u1', conv, message(conv, { body: 'When do you open?' }), CUSTOMER);
    expect(us.sends).toEqual(['Abrimos a las 9.']);
  });

  it('"Baja." opts the number out and is answered with the confirmation, not by the agent; "ALTA" reverses it', async () => {
    const w = whatsapp(SPAIN);
    expect(await w.replies.answer('u1', conv, message(conv, { body: 'Baja.' }), CUSTOMER)).toBe('replied');
    expect(w.sends).toEqual([privacyMessages.optedOutReply.es]);
    expect(w.stored[0]).toMatchObject({ body: privacyMessages.optedOutReply.es, status: 'sent', fromMe: true });
    expect(w.stored[0]!.agent).toBeUndefined();
    expect(w.optOuts.get('+34612345678')).toMatchObject({ keyword: 'BAJA' });

    await w.replies.answer('u1', conv, message(conv, { body: 'alta' }), CUSTOMER);
    expect(w.sends.at(-1)).toBe(privacyMessages.optedInReply.es);
    expect(w.optOuts.size).toBe(0);
  });
});

describe('calls: the recording notice first, the greeting says it is an AI', () => {
  const welcome = 'Hola, gracias por llamar. ¿En qué puedo ayudarte?';

  it('Gather path: <Say> recording notice, then <Start><Recording>, then the greeting; both stored as agent turns', async () => {
    const { loop, calls } = callSetup({ settings: { language: 'es-ES', messageWelcome: welcome, enableRecording: true }, notices: async () => SPAIN });
    const script = await loop.incoming(USER, incomingParams);
    expect(script.steps.map((s) => s.kind)).toEqual(['say', 'record', 'gather']);
    expect(script.steps[0]).toEqual({ kind: 'say', text: 'Esta llamada se está grabando.' });
    expect(script.steps[2]).toMatchObject({ kind: 'gather', text: `${AI_ES} ${welcome}` });
    const twiml = renderTwiml(script);
    expect(twiml.indexOf('Esta llamada se está grabando.')).toBeLessThan(twiml.indexOf('<Start>'));
    const [call] = [...calls.byId.values()];
    expect(call!.messages.map((m) => [m.role, m.content])).toEqual([
      ['agent', 'Esta llamada se está grabando.'],
      ['agent', `${AI_ES} ${welcome}`],
    ]);
    // A retried incoming webhook answers the same opening.
    expect(await loop.incoming(USER, incomingParams)).toEqual(script);
    // The first turn's gather carries the transcript's length (2).
    expect((script.steps[2] as { actionUrl: string }).actionUrl).toContain('turn=2');
  });

  it('streamed path: the notice before the recording and the <Connect>, the AI notice in welcomeGreeting', async () => {
    const { loop } = callSetup({ relayUrl: RELAY_URL, settings: { language: 'es-ES', messageWelcome: welcome, enableRecording: true, conversationMode: 'streaming', voice: 'Polly.Lucia' }, notices: async () => SPAIN });
    const script = await loop.incoming(USER, incomingParams);
    expect(script.steps.map((s) => s.kind)).toEqual(['say', 'record', 'relay']);
    expect(script.steps[2]).toMatchObject({ welcomeGreeting: `${AI_ES} ${welcome}` });
  });

  it('not recorded: the greeting alone, with the AI notice; notices off: the welcome as it was', async () => {
    const spain = callSetup({ settings: { language: 'es-ES', messageWelcome: welcome, enableRecording: false }, notices: async () => SPAIN });
    expect((await spain.loop.incoming(USER, incomingParams)).steps).toEqual([expect.objectContaining({ kind: 'gather', text: `${AI_ES} ${welcome}` })]);
    const us = callSetup({ settings: { language: 'en-US', messageWelcome: 'Hello!', enableRecording: true }, notices: async () => US });
    expect((await us.loop.incoming(USER, incomingParams)).steps.map((s) => s.kind)).toEqual(['record', 'gather']);
    expect([...us.calls.byId.values()][0]!.messages.map((m) => m.content)).toEqual(['Hello!']);
  });
});
