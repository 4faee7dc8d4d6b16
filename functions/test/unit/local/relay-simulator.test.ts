/**
 * The call simulator's ConversationRelay mode against a scripted app: an HTTP server answering
 * the voice URL with <Connect><ConversationRelay>, its action URL and the status callback, and a
 * WebSocket server that checks the handshake's X-Twilio-Signature with the official SDK and
 * answers prompts with text tokens at a set pace.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { WebSocketServer, type WebSocket } from 'ws';
import { simulateCall, type ScriptTurn } from '../../../local/fake-twilio/call-simulator.js';

const authToken = 'a'.repeat(32);
const accountSid = `AC${'1'.repeat(32)}`;
let server: Server;
let base: string;
let relayUrl: string;

/** What the scripted app does, per test. */
interface AppScript {
  /** Tokens answered to a prompt or a digit; default: two tokens. */
  answer: (said: string) => string[];
  tokenMs: number;
  /** Sent instead of an answer when the caller says this. */
  endOn?: { said: string; handoffData?: string };
  /** The action URL's TwiML for a session that ended. */
  actionTwiml: (params: URLSearchParams) => string;
  /** Sends this unreadable frame right after setup. */
  garbage?: string;
  /** Keeps sending the answer after an interrupt. */
  ignoreInterrupts?: boolean;
  /** Sends a language message (to this language; transcription to `transcription`, default the same) before answering the caller saying `said`. */
  switchOn?: { said: string; language: string; transcription?: string };
  /** More attributes of the <ConversationRelay> noun (e.g. automatic language detection). */
  nounAttrs?: string;
  /** Flags put on every text frame. */
  flags?: { interruptible?: boolean; preemptible?: boolean };
}
let script: AppScript;

/** What the app saw. */
let seen: {
  handshake: { url: string; signatureValid: boolean } | null;
  frames: Record<string, unknown>[];
  action: { params: URLSearchParams; signatureValid: boolean }[];
  status: URLSearchParams[];
};

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body);
}

/** The app's side of a session: tokens paced at tokenMs, stopped by an interrupt. */
function serveSession(ws: WebSocket): void {
  let turn = 0;
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Record<string, unknown>;
    seen.frames.push(frame);
    if (frame.type === 'setup' && script.garbage) ws.send(script.garbage);
    if (frame.type === 'interrupt' && !script.ignoreInterrupts) turn++;
    if (frame.type !== 'prompt' && frame.type !== 'dtmf') return;
    const said = String(frame.voicePrompt ?? frame.digit);
    if (script.endOn?.said === said) {
      ws.send(JSON.stringify({ type: 'end', ...(script.endOn.handoffData ? { handoffData: script.endOn.handoffData } : {}) }));
      return;
    }
    if (script.switchOn?.said === said) {
      ws.send(JSON.stringify({ type: 'language', ttsLanguage: script.switchOn.language, transcriptionLanguage: script.switchOn.transcription ?? script.switchOn.language }));
    }
    const mine = ++turn;
    const tokens = script.answer(said);
    void (async () => {
      for (let i = 0; i < tokens.length; i++) {
        await sleep(script.tokenMs);
        if (turn !== mine || ws.readyState !== ws.OPEN) return;
        ws.send(JSON.stringify({ type: 'text', token: tokens[i], last: i === tokens.length - 1, ...script.flags }));
      }
    })();
  });
}

beforeAll(async () => {
  const wss = new WebSocketServer({ noServer: true });
  server = createServer((req, res) => {
    void (async () => {
      const url = `${base}${req.url}`;
      const params = await readForm(req);
      const signatureValid = twilio.validateRequest(authToken, String(req.headers['x-twilio-signature']), url, Object.fromEntries(params));
      res.writeHead(200, { 'content-type': 'text/xml' });
      if (req.url === '/voice') {
        res.end(
          `<?xml version="1.0" encoding="UTF-8"?><Response><Connect action="/relay-action?call=c1">` +
            `<ConversationRelay url="${xml(relayUrl)}" welcomeGreeting="Hola, soy Sonia." language="es-ES" dtmfDetection="true" interruptible="any"${script.nounAttrs ?? ''}>` +
            `<Parameter name="callId" value="c1"/><Language code="en-US" ttsProvider="Amazon" voice="Joanna-Neural"/></ConversationRelay></Connect></Response>`,
        );
      } else if (req.url?.startsWith('/relay-action')) {
        seen.action.push({ params, signatureValid });
        res.end(script.actionTwiml(params));
      } else {
        seen.status.push(params);
        res.end('<Response/>');
      }
    })();
  });
  server.on('upgrade', (req, socket, head) => {
    const url = `${base.replace(/^http/, 'ws')}${req.url}`;
    const signatureValid = twilio.validateRequest(authToken, String(req.headers['x-twilio-signature']), url, {});
    seen.handshake = { url, signatureValid };
    if (!signatureValid) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, serveSession);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  relayUrl = `${base.replace(/^http/, 'ws')}/relay?user=u%201&call=c1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = { handshake: null, frames: [], action: [], status: [] };
  script = {
    answer: (said) => [`Sobre «${said}»: `, 'abrimos a las nueve.'],
    tokenMs: 20,
    actionTwiml: () => '<Response><Hangup/></Response>',
  };
});

const play = (turns: ScriptTurn[], extra: Partial<Parameters<typeof simulateCall>[0]> = {}) =>
  simulateCall({
    voiceUrl: `${base}/voice`,
    statusCallbackUrl: `${base}/status`,
    accountSid,
    authToken,
    from: '+34600111222',
    to: '+34910000000',
    turns,
    relay: { turnTimeoutMs: 3000, interruptSettleMs: 150 },
    ...extra,
  });

describe('call simulator: ConversationRelay', () => {
  it('opens the signed socket, sends setup, plays each prompt and reports its latency; the caller hangs up after the script', async () => {
    const call = await play([
      { speech: '¿Abrís el sábado?', confidence: 0.9 },
      { speech: '¿Y el domingo?', confidence: 0.9 },
      { speech: 'Gracias', confidence: 0.9 },
    ]);

    expect(seen.handshake).toEqual({ url: relayUrl, signatureValid: true });
    expect(seen.frames[0]).toMatchObject({
      type: 'setup',
      sessionId: expect.stringMatching(/^VX[0-9a-f]{32}$/),
      callSid: call.callSid,
      accountSid,
      from: '+34600111222',
      to: '+34910000000',
      callType: 'PSTN',
      direction: 'inbound',
      customParameters: { callId: 'c1' },
    });
    expect(seen.frames.filter((f) => f.type === 'prompt')).toEqual([
      { type: 'prompt', voicePrompt: '¿Abrís el sábado?', lang: 'es-ES', last: true },
      { type: 'prompt', voicePrompt: '¿Y el domingo?', lang: 'es-ES', last: true },
      { type: 'prompt', voicePrompt: 'Gracias', lang: 'es-ES', last: true },
    ]);
    const [session] = call.relaySessions;
    expect(session?.turns.map((t) => ({ turn: t.turn, tokens: t.tokens, heard: t.heard, interrupted: t.interrupted, timedOut: t.timedOut }))).toEqual([
      { turn: 0, tokens: 2, heard: 'Sobre «¿Abrís el sábado?»: abrimos a las nueve.', interrupted: false, timedOut: false },
      { turn: 1, tokens: 2, heard: 'Sobre «¿Y el domingo?»: abrimos a las nueve.', interrupted: false, timedOut: false },
      { turn: 2, tokens: 2, heard: 'Sobre «Gracias»: abrimos a las nueve.', interrupted: false, timedOut: false },
    ]);
    for (const t of session!.turns) {
      expect(t.firstTokenMs).toBeGreaterThanOrEqual(15);
      expect(t.lastTokenMs).toBeGreaterThanOrEqual(t.firstTokenMs! + 15);
    }
    expect(call.events[0]).toMatchObject({ verb: 'Connect/ConversationRelay', text: relayUrl, attrs: { action: '/relay-action?call=c1' } });
    expect(call.events[1]).toEqual({ verb: 'ConversationRelay/Say', text: 'Hola, soy Sonia.', attrs: { source: 'greeting' } });
    expect(session?.status).toBe('completed');
    expect(call.ended).toBe('caller');
    expect(seen.action).toHaveLength(1);
    expect(Object.fromEntries(seen.action[0]!.params)).toMatchObject({ CallStatus: 'completed', SessionStatus: 'completed', SessionId: session!.sessionId, CallSid: call.callSid });
    expect(seen.action[0]!.signatureValid).toBe(true);
    expect(seen.status.map((p) => p.get('CallStatus'))).toEqual(['completed']);
  });

  it('barges in after n tokens: interrupt carries what was heard, the answer stops, and the next prompt follows', async () => {
    script.answer = (said) => (said === 'Cuéntame todo' ? ['Uno, ', 'dos, ', 'tres, ', 'cuatro, ', 'cinco, ', 'seis.'] : ['Vale.']);
    script.tokenMs = 30;

    const call = await play([{ speech: 'Cuéntame todo', confidence: 0.9, interruptAfterTokens: 2 }, { speech: 'Para', confidence: 0.9 }]);

    const interrupt = seen.frames.find((f) => f.type === 'interrupt');
    expect(interrupt).toEqual({ type: 'interrupt', utteranceUntilInterrupt: 'Uno, dos, ', durationUntilInterruptMs: expect.any(Number) });
    const [first, second] = call.relaySessions[0]!.turns;
    expect(first).toMatchObject({ interrupted: true, tokens: 2, heard: 'Uno, dos, ', tokensAfterInterrupt: 0, interruptToLastTokenMs: 0, timedOut: false });
    expect(second).toMatchObject({ said: 'Para', heard: 'Vale.', interrupted: false });
    const order = seen.frames.map((f) => f.type);
    expect(order.indexOf('interrupt')).toBeLessThan(order.lastIndexOf('prompt'));
  });

  it('counts the tokens an app still sends after the interrupt, and how long after it the last one came', async () => {
    script.answer = () => ['a ', 'b ', 'c ', 'd.'];
    script.tokenMs = 40;
    script.ignoreInterrupts = true;

    const call = await play([{ speech: 'x', confidence: 0.9, interruptAfterTokens: 1 }], { relay: { turnTimeoutMs: 3000, interruptSettleMs: 500 } });

    const [turn] = call.relaySessions[0]!.turns;
    expect(turn).toMatchObject({ interrupted: true, tokens: 1, heard: 'a ', tokensAfterInterrupt: 3 });
    expect(turn!.interruptToLastTokenMs).toBeGreaterThanOrEqual(100);
  });

  it('sends a keypress as a dtmf frame (dtmfDetection on) and collects its answer', async () => {
    const call = await play([{ dtmf: '1' }]);

    expect(seen.frames.filter((f) => f.type === 'dtmf')).toEqual([{ type: 'dtmf', digit: '1' }]);
    expect(call.relaySessions[0]!.turns[0]).toMatchObject({ kind: 'dtmf', said: '1', tokens: 2, heard: 'Sobre «1»: abrimos a las nueve.' });
  });

  it('on an end frame with handoff data: closes the socket, posts the action (ended + HandoffData) and dials what it answers', async () => {
    const handoffData = JSON.stringify({ reason: 'caller asked for a human', callId: 'c1' });
    script.endOn = { said: 'Quiero hablar con una persona', handoffData };
    script.actionTwiml = (params) => (params.get('HandoffData') ? '<Response><Dial>+34600999888</Dial></Response>' : '<Response><Hangup/></Response>');

    const call = await play([
      { speech: 'Hola', confidence: 0.9 },
      { speech: 'Quiero hablar con una persona', confidence: 0.9 },
      { speech: 'never said', confidence: 0.9 },
    ]);

    const session = call.relaySessions[0]!;
    expect(session).toMatchObject({ status: 'ended', handoffData, turnsUsed: 2, closeCode: 1000 });
    expect(Object.fromEntries(seen.action[0]!.params)).toMatchObject({
      CallStatus: 'in-progress',
      SessionStatus: 'ended',
      SessionId: session.sessionId,
      SessionDuration: expect.stringMatching(/^\d+$/),
      HandoffData: handoffData,
      CallSid: call.callSid,
      AccountSid: accountSid,
    });
    expect(seen.action[0]!.signatureValid).toBe(true);
    expect(call.events.filter((e) => e.verb === 'Dial')).toEqual([{ verb: 'Dial', text: '+34600999888', attrs: {} }]);
    expect(call.ended).toBe('dial');
    expect(seen.frames.filter((f) => f.type === 'prompt')).toHaveLength(2);
    expect(seen.status).toHaveLength(1);
  });

  it('a refused handshake fails the session: the action gets SessionStatus failed and its TwiML is played', async () => {
    script.actionTwiml = () => '<Response><Say>Lo siento, ha habido un error.</Say><Hangup/></Response>';

    const call = await play([{ speech: 'Hola', confidence: 0.9 }], { authToken: 'b'.repeat(32) });

    expect(seen.handshake?.signatureValid).toBe(false);
    expect(call.relaySessions[0]).toMatchObject({ status: 'failed', handshakeStatus: 403, turns: [] });
    expect(seen.action[0]!.params.get('SessionStatus')).toBe('failed');
    expect(call.events.filter((e) => e.verb === 'Say').map((e) => e.text)).toEqual(['Lo siento, ha habido un error.']);
    expect(call.ended).toBe('hangup');
  });

  it('answers a frame it cannot read with an error frame, as Twilio does, and goes on', async () => {
    script.garbage = '{"message": "Internal server error"}';

    const call = await play([{ speech: 'Hola', confidence: 0.9 }]);

    expect(seen.frames.find((f) => f.type === 'error')).toEqual({ type: 'error', description: expect.stringContaining('Internal server error') });
    expect(call.relaySessions[0]!.turns[0]).toMatchObject({ tokens: 2, timedOut: false });
  });

  it('speaks Twilio’s wire variants (issue 28): the interrupt’s duration as a string, unknown fields on every frame, the turn’s own lang', async () => {
    script.answer = () => ['Uno, ', 'dos, ', 'tres.'];
    script.tokenMs = 30;

    await play([{ speech: 'Cuenta', confidence: 0.9, interruptAfterTokens: 1 }, { speech: 'Hello', confidence: 0.9, lang: 'en-US' }], {
      relay: { turnTimeoutMs: 3000, interruptSettleMs: 150, wire: { interruptDuration: 'string', extraFields: true } },
    });

    const interrupt = seen.frames.find((f) => f.type === 'interrupt')!;
    expect(interrupt.durationUntilInterruptMs).toMatch(/^\d+$/);
    for (const f of seen.frames) expect(f).toHaveProperty('sequenceId');
    expect(seen.frames.filter((f) => f.type === 'prompt').map((f) => f.lang)).toEqual(['es-ES', 'en-US']);
  });

  it('switches languages on a language message naming a declared <Language> (later prompts carry it), answers an undeclared one with an error', async () => {
    script.switchOn = { said: 'Hello', language: 'en-US' };
    const call = await play([
      { speech: 'Hello', confidence: 0.9 },
      { speech: 'Thanks', confidence: 0.9 },
    ]);
    expect(seen.frames.filter((f) => f.type === 'prompt').map((f) => f.lang)).toEqual(['es-ES', 'en-US']);
    expect(call.relaySessions[0]!.events.filter((e) => e.kind === 'language').map((e) => e.text)).toEqual(['en-US/en-US']);
    expect(call.relaySessions[0]!.turns.map((t) => t.lang)).toEqual(['es-ES', 'en-US']);

    seen.frames = [];
    script.switchOn = { said: 'Bonjour', language: 'fr-FR' };
    const refused = await play([{ speech: 'Bonjour', confidence: 0.9 }, { speech: 'Merci', confidence: 0.9 }]);
    expect(seen.frames.find((f) => f.type === 'error')).toEqual({ type: 'error', description: expect.stringContaining('language not configured') });
    expect(refused.relaySessions[0]!.turns.map((t) => t.lang)).toEqual(['es-ES', 'es-ES']);
  });

  it('with transcriptionLanguage="multi" (Deepgram’s detection): prompts carry the primary tag of what the caller speaks, a language message keeping "multi" switches the voice, an undeclared language is refused', async () => {
    script.nounAttrs = ' transcriptionProvider="Deepgram" speechModel="nova-3-general" transcriptionLanguage="multi"';
    script.switchOn = { said: 'Hello', language: 'en-US', transcription: 'multi' };

    const call = await play([
      { speech: 'Hola', confidence: 0.9 },
      { speech: 'Hello', confidence: 0.9, lang: 'en-US' },
      { speech: 'Thanks', confidence: 0.9 },
    ]);

    expect(seen.frames.filter((f) => f.type === 'prompt').map((f) => f.lang)).toEqual(['es', 'en', 'en']);
    expect(call.relaySessions[0]!.events.filter((e) => e.kind === 'language').map((e) => e.text)).toEqual(['en-US/multi']);
    expect(seen.frames.some((f) => f.type === 'error')).toBe(false);

    seen.frames = [];
    script.switchOn = { said: 'Bonjour', language: 'fr-FR', transcription: 'multi' };
    const refused = await play([{ speech: 'Bonjour', confidence: 0.9, lang: 'fr-FR' }, { speech: 'Merci', confidence: 0.9 }]);
    expect(seen.frames.find((f) => f.type === 'error')).toEqual({ type: 'error', description: expect.stringContaining('language not configured') });
    expect(refused.relaySessions[0]!.events.some((e) => e.kind === 'language')).toBe(false);
    expect(refused.relaySessions[0]!.turns.map((t) => t.lang)).toEqual(['fr', 'fr']);

    // "multi" is a transcription language only: not a voice the noun declared.
    seen.frames = [];
    script.switchOn = { said: 'Hola', language: 'multi' };
    await play([{ speech: 'Hola', confidence: 0.9 }]);
    expect(seen.frames.find((f) => f.type === 'error')).toEqual({ type: 'error', description: expect.stringContaining('language not configured') });
  });

  it('reports each token’s flags, and does not barge in over a token that may not be interrupted', async () => {
    script.flags = { interruptible: false, preemptible: false };

    const call = await play([{ speech: 'Hola', confidence: 0.9, interruptAfterTokens: 1 }]);

    const [turn] = call.relaySessions[0]!.turns;
    expect(turn).toMatchObject({ interrupted: false, tokens: 2 });
    expect(turn!.texts.map((t) => [t.interruptible, t.preemptible])).toEqual([
      [false, false],
      [false, false],
    ]);
    expect(seen.frames.some((f) => f.type === 'interrupt')).toBe(false);
  });
});
