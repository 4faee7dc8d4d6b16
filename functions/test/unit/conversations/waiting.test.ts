/**
 * Customers' messages that got no answer (domain/conversations/waiting.ts, issue 34) over memory
 * ports: the owner told once per incident (an incident ends when the model answers again), and
 * "Answer waiting messages" refusing what the AI may not answer.
 */
import { describe, expect, it } from 'vitest';
import type { NoAnswerMarker, NoAnswerReason } from '../../../src/contract/no-answer.js';
import { noAnswerMessages } from '../../../src/contract/no-answer.js';
import { whatsappMessages } from '../../../src/contract/whatsapp.js';
import type { StoredConversation, StoredMessage } from '../../../src/domain/conversations/ports.js';
import {
  CLOSED_INCIDENT_MEMORY_MS,
  createNoAnswer,
  createWaitingAnswers,
  leftUnansweredOf,
  RESUME_CHECK_HOP_SECONDS,
  type ProviderIncidentStore,
} from '../../../src/domain/conversations/waiting.js';
import { ConflictError, NotFoundError } from '../../../src/domain/errors.js';
import { alertTexts } from '../../../src/domain/notifications/delivery.js';
import type { EscalationAlert, StoredNotification } from '../../../src/domain/notifications/ports.js';
import { conversation, hoursAgo, message, NOW } from '../conversations-service/fakes.js';

class MemoryIncidents implements ProviderIncidentStore {
  readonly open_ = new Map<string, string>();
  closes = 0;
  async open(userId: string, provider: string, _reason: NoAnswerReason, at: string) {
    const key = `${userId} ${provider}`;
    if (!this.open_.has(key)) this.open_.set(key, at);
    return { openedAt: this.open_.get(key)! };
  }
  async close(userId: string, provider: string) {
    this.closes++;
    this.open_.delete(`${userId} ${provider}`);
  }
}

function noAnswerSetup() {
  let clock = NOW.getTime();
  const marked: { id: string; marker: NoAnswerMarker }[] = [];
  const alerts: EscalationAlert[] = [];
  const incidents = new MemoryIncidents();
  const noAnswer = createNoAnswer({
    store: { markWaiting: async (_u: string, m: StoredMessage, marker: NoAnswerMarker) => void marked.push({ id: m.id, marker }) },
    incidents,
    alerts: { escalated: async (_u, alert) => void alerts.push(alert) },
    now: () => clock,
  });
  return { noAnswer, marked, alerts, incidents, tick: (ms: number) => (clock += ms) };
}

describe('no answer: the owner told once per incident', () => {
  it('twenty messages failing in one outage name one incident; an answer ends it and the next failure opens another', async () => {
    const { noAnswer, marked, alerts, incidents, tick } = noAnswerSetup();
    const conv = conversation();

    for (let i = 0; i < 20; i++) {
      await noAnswer.unanswered('u1', message(conv), 'openai', 'unavailable');
      tick(1000);
    }
    expect(marked).toHaveLength(20);
    expect(marked[0]!.marker).toEqual({ reason: 'unavailable', at: NOW.toISOString() });
    // Every alert names the incident's start: the notification store keeps one per key.
    expect(new Set(alerts.map((a) => `${a.kind}#${a.subjectId}#${a.occurrence}`))).toEqual(new Set([`messages_waiting#openai#${NOW.toISOString()}`]));
    expect(alerts[0]).toMatchObject({ contactName: 'ChatGPT', reason: 'unavailable' });

    await noAnswer.answered('u1', 'openai');
    tick(1000);
    await noAnswer.unanswered('u1', message(conv), 'openai', 'credentials');
    expect(new Set(alerts.map((a) => a.occurrence)).size).toBe(2);
    expect(alerts.at(-1)).toMatchObject({ reason: 'credentials' });
    expect(incidents.closes).toBe(1);
  });

  it('a container remembers a closed incident for a minute: replies do not delete it every time; a failure here forgets that', async () => {
    const { noAnswer, incidents, tick } = noAnswerSetup();
    const conv = conversation();

    await noAnswer.answered('u1', 'openai');
    await noAnswer.answered('u1', 'openai');
    expect(incidents.closes).toBe(1);
    tick(CLOSED_INCIDENT_MEMORY_MS);
    await noAnswer.answered('u1', 'openai');
    expect(incidents.closes).toBe(2);
    await noAnswer.unanswered('u1', message(conv), 'openai', 'unavailable');
    await noAnswer.answered('u1', 'openai');
    expect(incidents.closes).toBe(3);
    expect(incidents.open_.size).toBe(0);
  });

  it('the alert e-mail says why in the owner’s language and leads to the board’s answer action', () => {
    const n: StoredNotification = {
      id: 'N1',
      userId: 'u1',
      kind: 'messages_waiting',
      subjectId: 'openai',
      contactName: 'ChatGPT',
      reason: 'credentials',
      createdAt: NOW.toISOString(),
      readAt: null,
    };
    const es = alertTexts(n, 'es', 'https://app.example.com/');
    expect(es.subject).toBe('Mensajes de clientes sin responder');
    expect(es.text).toContain('Motivo: El proveedor de IA rechazó la clave de API');
    expect(es.text).toContain('Responder mensajes pendientes: https://app.example.com/conversations?waiting=1');
    expect(alertTexts({ ...n, reason: 'unavailable' }, 'en', 'https://app.example.com').text).toContain('Reason: The AI model could not be reached');
  });

  it('a failed notification leaves the message marked (logged); a failed mark is thrown (the job retries)', async () => {
    const errors: string[] = [];
    const conv = conversation();
    const told = createNoAnswer({
      store: { markWaiting: async () => undefined },
      incidents: { open: async () => Promise.reject(new Error('DynamoDB down')), close: async () => undefined },
      onError: (m) => void errors.push(m),
    });
    await told.unanswered('u1', message(conv), 'openai', 'unavailable');
    expect(errors).toHaveLength(1);

    const unmarked = createNoAnswer({ store: { markWaiting: async () => Promise.reject(new Error('DynamoDB down')) }, incidents: new MemoryIncidents() });
    await expect(unmarked.unanswered('u1', message(conv), 'openai', 'unavailable')).rejects.toThrow('DynamoDB down');
  });
});

describe('answer waiting messages', () => {
  function setup(conversations: StoredConversation[], listed = conversations.map((c) => c.id), recent: StoredMessage[] = []) {
    const queued: string[][] = [];
    const checks: { id: string; wroteAt: string; delaySeconds: number }[] = [];
    const forgotten: string[] = [];
    /** Messages markLeft handed over (it holds once per message, as the wamid's handled → waiting does). */
    const left = new Map<string, NoAnswerMarker>();
    const byId = new Map(conversations.map((c) => [c.id, c]));
    const answers = createWaitingAnswers({
      conversations: {
        get: async (_u, id) => byId.get(id) ?? null,
        getMany: async (_u, ids) => ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
      },
      messages: { recent: async (_u, id, limit) => recent.filter((m) => m.conversationId === id).slice(-limit) },
      store: {
        waitingConversations: async () => listed,
        forgetConversation: async (_u, id) => void forgotten.push(id),
        markLeft: async (_u, m, marker) => !left.has(m.id) && !!left.set(m.id, marker),
      },
      queue: {
        answerWaiting: async (_u, ids) => void queued.push([...ids]),
        resumeCheck: async (_u, id, wroteAt, delaySeconds) => void checks.push({ id, wroteAt, delaySeconds }),
      },
      now: () => NOW,
    });
    return { answers, queued, forgotten, left, checks };
  }
  const waiting = (over: Partial<StoredConversation> = {}, n = 1) =>
    conversation({ noAnswerIds: new Set(Array.from({ length: n }, (_, i) => `m${i}`)), noAnswerReason: 'unavailable', noAnswerAt: hoursAgo(1), ...over });

  it('queues one conversation’s waiting messages; nothing waiting is a no-op; an unknown id is 404', async () => {
    const two = waiting({}, 2);
    const none = conversation();
    const { answers, queued } = setup([two, none]);

    expect(await answers.answerConversation('u1', two.id)).toEqual({ message: noAnswerMessages.answering, data: { queued: 1, messages: 2, skipped: 0 } });
    expect(await answers.answerConversation('u1', none.id)).toEqual({ message: noAnswerMessages.nothingWaiting, data: { queued: 0, messages: 0, skipped: 0 } });
    await expect(answers.answerConversation('u1', 'NOPE')).rejects.toBeInstanceOf(NotFoundError);
    expect(queued).toEqual([[two.id]]);
  });

  it('refuses while a person answers, once the 24-hour window closed, and on a closed conversation', async () => {
    const human = waiting({ status: 'requires_human', escalatedAt: hoursAgo(1), humanAt: hoursAgo(1), aiPaused: true });
    const old = waiting({ lastInboundAt: hoursAgo(25) });
    const closed = waiting({ status: 'closed', closedAt: hoursAgo(1) });
    const { answers, queued } = setup([human, old, closed]);

    const refusal = (id: string) => answers.answerConversation('u1', id).catch((e: unknown) => e);
    expect(await refusal(human.id)).toEqual(new ConflictError(noAnswerMessages.takenOver));
    expect(await refusal(old.id)).toEqual(new ConflictError(whatsappMessages.windowClosed));
    expect(await refusal(closed.id)).toEqual(new ConflictError(noAnswerMessages.notOpen));
    expect(queued).toEqual([]);
  });

  it('all: the ones the AI may answer are queued in one go, the others counted as skipped, stale entries forgotten', async () => {
    const a = waiting({}, 2);
    const b = waiting();
    const human = waiting({ aiPaused: true, humanAt: hoursAgo(1) });
    const answered = conversation();
    const { answers, queued, forgotten } = setup([a, b, human, answered], [a.id, b.id, human.id, answered.id, 'GONE']);

    expect(await answers.answerAll('u1')).toEqual({ message: noAnswerMessages.answering, data: { queued: 2, messages: 3, skipped: 1 } });
    expect(queued).toEqual([[a.id, b.id]]);
    expect(forgotten.sort()).toEqual([answered.id, 'GONE'].sort());
    expect(await answers.count('u1')).toBe(3);
  });

  describe('Return to AI: what a person left unanswered (issue 29)', () => {
    const conv = conversation();
    const at = (h: number) => ({ createdAt: hoursAgo(h), timestamp: hoursAgo(h) });
    const customer = (body: string, h: number, over: Partial<StoredMessage> = {}) => message(conv, { body, ...at(h), ...over });
    const reply = (body: string, h: number, over: Partial<StoredMessage> = {}) => message(conv, { body, fromMe: true, status: 'sent', sentBy: 'human', ...at(h), ...over });

    it('the customer’s messages after the last reply; a failed send is no reply, a reaction no message', () => {
      const hola = customer('Hola', 5);
      const marta = reply('Soy Marta', 4);
      const cita = customer('Quería una cita', 3);
      const emoji = customer('👍', 2.5, { type: 'reaction' });
      const failed = reply('Te llamo', 2, { status: 'failed' });
      const manana = customer('¿Mañana?', 1);
      expect(leftUnansweredOf([hola, marta, cita, emoji, failed, manana]).map((m) => m.body)).toEqual(['Quería una cita', '¿Mañana?']);
      expect(leftUnansweredOf([hola, marta])).toEqual([]);
      expect(leftUnansweredOf([hola])).toEqual([hola]);
      expect(leftUnansweredOf([])).toEqual([]);
    });

    it('hands the last one to the agent once (one job); counts without handing over when closed or out of the window', async () => {
      const recent = [customer('Hola', 5), reply('Soy Marta', 4), customer('Quería una cita', 2), customer('¿Mañana a las 5?', 1)];
      const { answers, queued, left } = setup([conv], [], recent);
      expect(await answers.answerLeft('u1', conv)).toEqual({ leftUnanswered: 2, answering: true });
      expect([...left]).toEqual([[recent[3]!.id, { reason: 'taken_over', at: NOW.toISOString() }]]);
      expect(queued).toEqual([[conv.id]]);
      // A second press: already handed over.
      expect(await answers.answerLeft('u1', conv)).toEqual({ leftUnanswered: 2, answering: false });
      expect(queued).toEqual([[conv.id]]);

      for (const over of [{ lastInboundAt: hoursAgo(25) }, { status: 'closed' as const, closedAt: hoursAgo(1) }]) {
        const other = conversation(over);
        const mine = [message(other, { body: 'Hola', ...at(26) })];
        const s = setup([other], [], mine);
        expect(await s.answers.answerLeft('u1', other)).toEqual({ leftUnanswered: 1, answering: false });
        expect(s.queued).toEqual([]);
      }
      const answered = setup([conv], [], [customer('Hola', 2), reply('Hola', 1)]);
      expect(await answered.answers.answerLeft('u1', conv)).toEqual({ leftUnanswered: 0, answering: false });
    });

    it('the pause ending by itself: the resume check waits in hops until it ends, then hands over once; a newer message supersedes it', async () => {
      const wrote = hoursAgo(1);
      const recent = [customer('Hola', 5), reply('Soy Marta', 4), customer('¿Y el martes?', 1)];
      // The person replied 11 h 50 min ago: the pause (12 h by default) ends in 10 min, within one hop.
      const soon = conversation({ id: conv.id, aiPaused: true, humanAt: hoursAgo(11 + 50 / 60), lastInboundAt: wrote });
      const a = setup([soon], [], recent);
      expect(await a.answers.resumeCheck('u1', conv.id, wrote)).toBe('later');
      expect(a.checks).toEqual([{ id: conv.id, wroteAt: wrote, delaySeconds: 600 }]);
      // Hours away: one hop at most.
      const far = setup([conversation({ id: conv.id, aiPaused: true, humanAt: hoursAgo(2), lastInboundAt: wrote })], [], recent);
      expect(await far.answers.resumeCheck('u1', conv.id, wrote)).toBe('later');
      expect(far.checks.map((c) => c.delaySeconds)).toEqual([RESUME_CHECK_HOP_SECONDS]);
      expect([...a.queued, ...far.queued]).toEqual([]);

      // The idle hours passed (aiPaused still stored: the pause is decided where it is read).
      const ended = setup([conversation({ id: conv.id, aiPaused: true, humanAt: hoursAgo(13), lastInboundAt: wrote })], [], recent);
      expect(await ended.answers.resumeCheck('u1', conv.id, wrote)).toBe('answering');
      expect(ended.queued).toEqual([[conv.id]]);
      expect([...ended.left.keys()]).toEqual([recent[2]!.id]);
      // A second check (or the button) hands nothing over again.
      expect(await ended.answers.resumeCheck('u1', conv.id, wrote)).toBe('nothing_left');
      expect(ended.queued).toEqual([[conv.id]]);
      expect(ended.checks).toEqual([]);

      // Returned by the owner meanwhile: the button handed over what was left, the check does nothing.
      const returned = setup([conversation({ id: conv.id, aiPaused: false, humanAt: hoursAgo(2), lastInboundAt: wrote })], [], recent);
      expect(await returned.answers.resumeCheck('u1', conv.id, wrote)).toBe('returned');
      expect([...returned.queued, ...returned.checks, ...returned.left.keys()]).toEqual([]);

      // The customer wrote again after (its own check goes on), or the conversation is gone.
      const newer = setup([conversation({ id: conv.id, aiPaused: true, humanAt: hoursAgo(13), lastInboundAt: hoursAgo(0.5) })], [], recent);
      expect(await newer.answers.resumeCheck('u1', conv.id, wrote)).toBe('superseded');
      expect(await newer.answers.resumeCheck('u1', 'GONE', wrote)).toBe('gone');
      expect([...newer.queued, ...newer.checks]).toEqual([]);
    });
  });
});
