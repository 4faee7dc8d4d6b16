/**
 * What follows a booking's change (issue 30), over in-memory fakes: the listener runner, the
 * reminder's schedule and its sweeper (one claim per reminder however many runs overlap), the
 * customer's WhatsApp confirmation (text inside the 24-hour window, the chosen template outside it,
 * none without one; once per change) and the owner's e-mail for the agent's changes.
 */
import { describe, expect, it } from 'vitest';
import type { Booking, BookingSettings } from '../../../src/contract/bookings.js';
import type { WhatsAppTemplate } from '../../../src/contract/whatsapp-templates.js';
import { runBookingChange } from '../../../src/domain/bookings/change-runner.js';
import type { BookingCustomerMessage, BookingCustomerMessageStore } from '../../../src/domain/bookings/customer-messages.js';
import { bookingChangeEmail, ownerEmailListener, type BookingChangeNotice } from '../../../src/domain/bookings/owner-email.js';
import type { BookingChange, BookingChangeListener } from '../../../src/domain/bookings/ports.js';
import { createReminderSweeper, reminderScheduler, sendDueReminder, type ReminderEntry, type ReminderStore } from '../../../src/domain/bookings/reminders.js';
import type { StoredConversation, StoredMessage } from '../../../src/domain/conversations/ports.js';
import { NotFoundError, ServiceUnavailableError } from '../../../src/domain/errors.js';
import { bookingMessageText, createBookingMessages } from '../../../src/domain/whatsapp/booking-messages.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-12-01T09:00:00.000Z');

const booking = (over: Partial<Booking> = {}): Booking => ({
  _id: 'bk1',
  serviceId: 'svc1',
  serviceName: 'Limpieza dental',
  staffId: 'st1',
  staffName: 'Dra. García',
  // Tuesday 3 December 2026, 10:30 in Madrid.
  start: '2026-12-03T09:30:00.000Z',
  end: '2026-12-03T10:00:00.000Z',
  timeZone: 'Europe/Madrid',
  status: 'confirmed',
  customer: { name: 'Ana Pérez', phone: '+34600111222', contactId: 'c1' },
  channel: 'whatsapp',
  conversationId: null,
  callId: null,
  agentId: 'ag1',
  bookedBy: 'agent',
  notes: '',
  priceCents: null,
  currency: 'EUR',
  createdAt: '2026-12-01T08:00:00.000Z',
  updatedAt: '2026-12-01T08:00:00.000Z',
  cancelledAt: null,
  ...over,
});

const settings = (over: Partial<BookingSettings> = {}): BookingSettings => ({
  timeZone: 'Europe/Madrid',
  minNoticeMinutes: 0,
  maxAdvanceDays: 60,
  slotStepMinutes: 15,
  closures: [],
  remindersEnabled: true,
  reminderHours: 24,
  confirmationTemplate: null,
  reminderTemplate: null,
  emailOwner: false,
  updatedAt: null,
  ...over,
});

const change = (kind: BookingChange['kind'], b: Booking, over: Partial<BookingChange> = {}): BookingChange => ({ kind, booking: b, actor: { by: 'agent', channel: 'whatsapp', customerPhone: b.customer.phone }, ...over });

/** The bookings core as far as these listeners read it. */
function core(initial: Booking[], s: BookingSettings = settings()) {
  const rows = new Map(initial.map((b) => [b._id, b]));
  return {
    rows,
    current: s,
    async get(_u: string, id: string) {
      const b = rows.get(id);
      if (!b) throw new NotFoundError('Booking not found');
      return b;
    },
    async settings() {
      return this.current;
    },
  };
}

describe('runBookingChange', () => {
  it('runs every listener even when one fails, then throws the first failure so the change is retried', async () => {
    const ran: string[] = [];
    const listener = (name: string, fail = false): BookingChangeListener => ({
      name,
      async handle() {
        ran.push(name);
        if (fail) throw new Error(`${name} down`);
      },
    });
    await expect(runBookingChange([listener('a'), listener('google', true), listener('c')], 'u1', change('created', booking()))).rejects.toThrow('google down');
    expect(ran).toEqual(['a', 'google', 'c']);
    await expect(runBookingChange([listener('a'), listener('c')], 'u1', change('created', booking()))).resolves.toEqual({ done: ['a', 'c'], failed: [] });
  });
});

class MemoryReminders implements ReminderStore {
  items = new Map<string, ReminderEntry & { claim?: string; claimUntil?: number }>();
  async put(entry: ReminderEntry) {
    this.items.set(entry.bookingId, { ...entry });
  }
  async remove(_u: string, bookingId: string) {
    this.items.delete(bookingId);
  }
  async due(since: number, now: number) {
    return [...this.items.values()].filter((e) => Date.parse(e.dueAt) <= now && Date.parse(e.dueAt) >= since).map(({ claim: _c, claimUntil: _u, ...e }) => e);
  }
  async claim(entry: ReminderEntry, runId: string, now: number, leaseUntil: number) {
    // One await before the check-and-set, as two overlapping runs would interleave; the set itself is atomic (a conditional write).
    await Promise.resolve();
    const item = this.items.get(entry.bookingId);
    if (!item || item.start !== entry.start || (item.claim && (item.claimUntil ?? 0) >= now)) return false;
    item.claim = runId;
    item.claimUntil = leaseUntil;
    return true;
  }
  async done(entry: ReminderEntry, runId: string) {
    if (this.items.get(entry.bookingId)?.claim === runId) this.items.delete(entry.bookingId);
  }
}

describe('reminders', () => {
  const isNotFound = (e: unknown) => e instanceof NotFoundError;

  it('keeps one reminder per booking, N hours before its current start: moved with it, dropped when cancelled, none when booked after its reminder time', async () => {
    const b = booking();
    const bookings = core([b]);
    const store = new MemoryReminders();
    const scheduler = reminderScheduler({ bookings, store, isNotFound, now: () => NOW });
    await scheduler.handle('u1', change('created', b));
    expect(store.items.get('bk1')).toMatchObject({ start: b.start, dueAt: '2026-12-02T09:30:00.000Z' });

    const moved = booking({ start: '2026-12-04T11:00:00.000Z', end: '2026-12-04T11:30:00.000Z', updatedAt: '2026-12-01T08:05:00.000Z' });
    bookings.rows.set('bk1', moved);
    // Out of order: the older 'created' change arrives after the move; the booking as it is now decides.
    await scheduler.handle('u1', change('created', b));
    expect(store.items.get('bk1')).toMatchObject({ start: moved.start, dueAt: '2026-12-03T11:00:00.000Z' });

    bookings.rows.set('bk1', { ...moved, status: 'cancelled' });
    await scheduler.handle('u1', change('cancelled', moved));
    expect(store.items.has('bk1')).toBe(false);

    // Starts in 10 hours: its 24-hour reminder time has passed.
    const soon = booking({ _id: 'bk2', start: new Date(NOW + 10 * HOUR).toISOString() });
    bookings.rows.set('bk2', soon);
    await scheduler.handle('u1', change('created', soon));
    expect(store.items.has('bk2')).toBe(false);

    bookings.current = settings({ remindersEnabled: false });
    await scheduler.handle('u1', change('created', b));
    expect(store.items.has('bk1')).toBe(false);
  });

  it('queues a due reminder once when two runs overlap, and a run after the lease takes over one a dead run left', async () => {
    const store = new MemoryReminders();
    await store.put({ userId: 'u1', bookingId: 'bk1', start: '2026-12-03T09:30:00.000Z', dueAt: '2026-12-02T09:30:00.000Z' });
    await store.put({ userId: 'u1', bookingId: 'bk9', start: '2026-12-09T09:30:00.000Z', dueAt: '2026-12-08T09:30:00.000Z' });
    const queued: unknown[] = [];
    let run = 0;
    const sweeper = createReminderSweeper({ store, queue: { enqueue: async (jobs) => void queued.push(...jobs) }, newRunId: () => `run${++run}` });
    const at = Date.parse('2026-12-02T09:31:00.000Z');
    const [a, b] = await Promise.all([sweeper.sweep(at), sweeper.sweep(at)]);
    expect(queued).toEqual([{ userId: 'u1', reminder: { bookingId: 'bk1', start: '2026-12-03T09:30:00.000Z', at: '2026-12-02T09:31:00.000Z' } }]);
    expect(a.queued + b.queued).toBe(1);
    expect(a.skipped + b.skipped).toBe(1);
    expect(store.items.has('bk1')).toBe(false);
    // Not due yet: still there.
    expect(store.items.has('bk9')).toBe(true);

    // A run that died after its claim (the queue refused): the next run within the lease skips it, one after takes it.
    await store.put({ userId: 'u1', bookingId: 'bk3', start: '2026-12-03T12:00:00.000Z', dueAt: '2026-12-02T12:00:00.000Z' });
    const failing = createReminderSweeper({ store, queue: { enqueue: async () => Promise.reject(new Error('SQS down')) }, newRunId: () => 'dead' });
    const noon = Date.parse('2026-12-02T12:00:00.000Z');
    expect(await failing.sweep(noon)).toMatchObject({ failed: 1, queued: 0 });
    expect(await sweeper.sweep(noon + 60_000)).toMatchObject({ skipped: 1, queued: 0 });
    expect(await sweeper.sweep(noon + 6 * 60_000)).toMatchObject({ queued: 1 });
  });

  it('sends a due reminder only for a booking still confirmed at that start, before it begins, and puts back one the owner has since shortened', async () => {
    const b = booking();
    const bookings = core([b]);
    const sent: string[] = [];
    const store = new MemoryReminders();
    // The run found it due at its time, a day before the start.
    const at = '2026-12-02T09:31:00.000Z';
    const deps = { bookings, store, isNotFound, send: async (_u: string, x: Booking) => void sent.push(x._id), now: () => Date.parse(at) + 5_000 };
    expect(await sendDueReminder(deps, 'u1', { bookingId: 'bk1', start: '2026-12-02T09:30:00.000Z', at })).toBe('stale');
    expect(await sendDueReminder(deps, 'u1', { bookingId: 'gone', start: b.start, at })).toBe('gone');
    expect(await sendDueReminder({ ...deps, now: () => Date.parse(b.start) + 1 }, 'u1', { bookingId: 'bk1', start: b.start, at })).toBe('past');
    // The owner shortened the reminder to 2 hours after this one was scheduled: put back at the new time, not sent now.
    bookings.current = settings({ reminderHours: 2 });
    expect(await sendDueReminder(deps, 'u1', { bookingId: 'bk1', start: b.start, at })).toBe('rescheduled');
    expect(store.items.get('bk1')).toMatchObject({ dueAt: '2026-12-03T07:30:00.000Z' });
    bookings.current = settings();
    expect(await sendDueReminder(deps, 'u1', { bookingId: 'bk1', start: b.start, at })).toBe('sent');
    bookings.rows.set('bk1', { ...b, status: 'cancelled' });
    expect(await sendDueReminder(deps, 'u1', { bookingId: 'bk1', start: b.start, at })).toBe('stale');
    bookings.current = settings({ remindersEnabled: false });
    bookings.rows.set('bk1', b);
    expect(await sendDueReminder(deps, 'u1', { bookingId: 'bk1', start: b.start, at })).toBe('disabled');
    expect(sent).toEqual(['bk1']);
  });
});

class MemoryRecords implements BookingCustomerMessageStore {
  rows = new Map<string, BookingCustomerMessage>();
  async claim(_u: string, bookingId: string, key: string, kind: BookingCustomerMessage['kind'], at: string) {
    const k = `${bookingId}#${key}`;
    if (this.rows.has(k)) return false;
    this.rows.set(k, { kind, state: 'sending', reason: null, error: null, via: null, conversationId: null, at });
    return true;
  }
  async settle(_u: string, bookingId: string, key: string, outcome: Omit<BookingCustomerMessage, 'kind'>) {
    const k = `${bookingId}#${key}`;
    this.rows.set(k, { ...this.rows.get(k)!, ...outcome });
  }
  async release(_u: string, bookingId: string, key: string) {
    if (this.rows.get(`${bookingId}#${key}`)?.state === 'sending') this.rows.delete(`${bookingId}#${key}`);
  }
  async list() {
    return [...this.rows.values()];
  }
}

const conversation = (lastInboundAt: string | null): StoredConversation => ({
  id: '01JCONVERSATION0000000000A',
  status: 'active',
  notes: '',
  escalationReason: '',
  customerWaId: '34600111222',
  customerPhone: '+34600111222',
  customerName: 'Ana',
  contactId: 'c1',
  phoneNumberId: 'pn1',
  lastMessage: null,
  lastAgent: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  lastMessageAt: '2026-11-01T00:00:00.000Z',
  lastInboundAt,
  closedAt: null,
  escalatedAt: null,
  messageCount: 1,
});

const approved: WhatsAppTemplate = { name: 'cita_confirmada', language: 'es', category: 'UTILITY', body: 'Hola {{1}}, tu cita de {{2}} con {{3}} el {{4}} está {{5}}.', parameters: ['1', '2', '3', '4', '5'], parameterCount: 5 };

function whatsapp(options: { lastInboundAt: string | null; settings?: BookingSettings; fail?: Error[]; b?: Booking }) {
  const b = options.b ?? booking();
  const bookings = core([b], options.settings ?? settings());
  const records = new MemoryRecords();
  const sends: Array<{ to: string; text?: string; template?: { name: string; parameters: string[] } }> = [];
  const stored = new Map<string, StoredMessage>();
  const fail = options.fail ?? [];
  const conv = conversation(options.lastInboundAt);
  const openedFor: Array<{ contactId: string }> = [];
  let ids = 0;
  const messages = createBookingMessages({
    bookings,
    users: { get: async () => ({ language: 'es' }) },
    channels: {
      forUser: async () => ({
        phoneNumber: '+34910000000',
        phoneNumberId: 'pn1',
        async sendText(to, text) {
          const error = fail.shift();
          if (error) throw error;
          sends.push({ to, text });
          return { messageId: `wamid.${sends.length}` };
        },
        listTemplates: async () => [approved],
        async sendTemplate(to, template) {
          sends.push({ to, template: { name: template.name, parameters: template.parameters } });
          return { messageId: `wamid.${sends.length}` };
        },
      }),
    },
    conversations: {
      findOrOpen: async (_u, who) => {
        openedFor.push(who);
        return { conversation: conv, opened: false };
      },
      get: async () => conv,
      touch: async () => conv,
    },
    latestConversation: async () => conv,
    messages: {
      insertOutbound: async (_u, m) => void stored.set(m.id, m),
      markSent: async (_u, id, wamid) => {
        const m = { ...stored.get(id)!, status: 'sent' as const, waMessageId: wamid };
        stored.set(id, m);
        return m;
      },
      markFailed: async (_u, id, error) => {
        const m = { ...stored.get(id)!, status: 'failed' as const, error };
        stored.set(id, m);
        return m;
      },
      remove: async (_u, id) => stored.delete(id),
    },
    usage: { reserve: async () => 1, release: async () => undefined },
    records,
    isNotFound: (e) => e instanceof NotFoundError,
    newId: () => `01JMSG${String(++ids).padStart(20, '0')}`,
    now: () => NOW,
  });
  return { b, bookings, records, sends, stored, openedFor, messages, confirmation: messages.confirmation() };
}

describe('the customer’s WhatsApp confirmation', () => {
  it('inside the 24-hour window: a text in the account’s language, stored in the conversation, once per change', async () => {
    const w = whatsapp({ lastInboundAt: new Date(NOW - 2 * HOUR).toISOString() });
    await w.confirmation.handle('u1', change('created', w.b));
    await w.confirmation.handle('u1', change('created', w.b));
    expect(w.sends).toEqual([{ to: '34600111222', text: 'Tu cita de Limpieza dental (Dra. García) está confirmada para el jueves 3 de diciembre a las 10:30.' }]);
    expect([...w.stored.values()]).toMatchObject([{ fromMe: true, sentBy: 'agent', status: 'sent', type: 'chat', body: w.sends[0]!.text }]);
    expect(await w.records.list()).toMatchObject([{ kind: 'created', state: 'sent', via: 'text' }]);
  });

  it('an agent’s booking told without a contact: the conversation gets the contact linked since (the contactLinker ran first)', async () => {
    const told = booking({ customer: { name: 'Ana Pérez', phone: '+34600111222', contactId: null } });
    const w = whatsapp({ lastInboundAt: new Date(NOW - 2 * HOUR).toISOString(), b: booking() });
    await w.confirmation.handle('u1', change('created', told));
    expect(w.openedFor).toMatchObject([{ contactId: 'c1' }]);
    expect(w.sends).toHaveLength(1);
  });

  it('outside the window: the chosen template with its parameters; none chosen: not sent, and the record says why', async () => {
    const withTemplate = whatsapp({ lastInboundAt: new Date(NOW - 30 * HOUR).toISOString(), settings: settings({ confirmationTemplate: { name: 'cita_confirmada', language: 'es' } }) });
    await withTemplate.confirmation.handle('u1', change('created', withTemplate.b));
    expect(withTemplate.sends).toEqual([{ to: '34600111222', template: { name: 'cita_confirmada', parameters: ['Ana Pérez', 'Limpieza dental', 'Dra. García', 'jueves 3 de diciembre a las 10:30', 'confirmada'] } }]);
    expect([...withTemplate.stored.values()][0]).toMatchObject({ type: 'template', body: 'Hola Ana Pérez, tu cita de Limpieza dental con Dra. García el jueves 3 de diciembre a las 10:30 está confirmada.' });

    const none = whatsapp({ lastInboundAt: null });
    await none.confirmation.handle('u1', change('created', none.b));
    expect(none.sends).toEqual([]);
    expect(none.stored.size).toBe(0);
    expect(await none.records.list()).toMatchObject([{ kind: 'created', state: 'not_sent', reason: 'no_template' }]);

    const unknown = whatsapp({ lastInboundAt: null, settings: settings({ confirmationTemplate: { name: 'borrada', language: 'es' } }) });
    await unknown.confirmation.handle('u1', change('created', unknown.b));
    expect(await unknown.records.list()).toMatchObject([{ state: 'not_sent', reason: 'template_not_approved' }]);
  });

  it('tells a move with the old time, a cancellation, and nothing for a change already overtaken by a later one', async () => {
    const before = booking();
    const moved = booking({ start: '2026-12-04T11:00:00.000Z', updatedAt: '2026-12-01T08:05:00.000Z' });
    const w = whatsapp({ lastInboundAt: new Date(NOW - HOUR).toISOString(), b: moved });
    // The 'created' change of the booking as it was: it has moved since, so the move's message tells the latest.
    await w.confirmation.handle('u1', change('created', before));
    await w.confirmation.handle('u1', change('moved', moved, { before }));
    expect(w.sends.map((s) => s.text)).toEqual(['Tu cita de Limpieza dental (Dra. García) ha cambiado: ahora es el viernes 4 de diciembre a las 12:00 (antes, el jueves 3 de diciembre a las 10:30).']);
    expect(bookingMessageText('cancelled', before, 'en')).toBe('Your Limpieza dental appointment (Dra. García) on Thursday 3 December at 10:30 is cancelled.');
    expect(bookingMessageText('reminder', before, 'es')).toBe(
      'Recordatorio: tienes cita de Limpieza dental (Dra. García) el jueves 3 de diciembre a las 10:30. Responde a este mensaje si necesitas cambiarla o cancelarla.',
    );
  });

  it('WhatsApp unavailable for now: the try is removed and released, and the retry sends it once', async () => {
    const w = whatsapp({ lastInboundAt: new Date(NOW - HOUR).toISOString(), fail: [new ServiceUnavailableError('WhatsApp is temporarily unavailable')] });
    await expect(w.confirmation.handle('u1', change('created', w.b))).rejects.toThrow('temporarily unavailable');
    expect(w.stored.size).toBe(0);
    await w.confirmation.handle('u1', change('created', w.b));
    await w.confirmation.handle('u1', change('created', w.b));
    expect(w.sends).toHaveLength(1);
    expect([...w.stored.values()]).toMatchObject([{ status: 'sent' }]);

    // On the queue's last try the failure is kept for good: the message failed with WhatsApp's words, the record says so.
    const last = whatsapp({ lastInboundAt: new Date(NOW - HOUR).toISOString(), fail: [new ServiceUnavailableError('WhatsApp is temporarily unavailable')] });
    await last.confirmation.handle('u1', change('created', last.b), { finalAttempt: true });
    expect([...last.stored.values()]).toMatchObject([{ status: 'failed', error: 'WhatsApp is temporarily unavailable' }]);
    expect(await last.records.list()).toMatchObject([{ state: 'failed', error: 'WhatsApp is temporarily unavailable' }]);
  });
});

describe('the owner’s e-mail', () => {
  it('queues one e-mail per change the agent made when the owner asked for them, and renders it in the owner’s language', async () => {
    const b = booking();
    const notices = new Map<string, BookingChangeNotice>();
    const queued: string[] = [];
    let s = settings({ emailOwner: true });
    const listener = ownerEmailListener({
      bookings: { settings: async () => s },
      notices: { putOnce: async (n) => (notices.has(n.id) ? false : (notices.set(n.id, n), true)), get: async (_u, id) => notices.get(id) ?? null },
      emails: { queue: async (ref) => void queued.push(ref.subjectId) },
      now: () => NOW,
    });
    await listener.handle('u1', change('created', b));
    await listener.handle('u1', change('created', b, { actor: { by: 'owner', channel: 'dashboard' } }));
    expect(queued).toHaveLength(1);
    const notice = notices.get(queued[0]!)!;
    const es = bookingChangeEmail(notice, 'es', 'https://app.example.com');
    expect(es.subject).toBe('Nueva cita: Ana Pérez, Limpieza dental, jueves 3 de diciembre a las 10:30');
    expect(es.text).toContain('Cliente: Ana Pérez (+34600111222)');
    expect(es.text).toContain('Por: WhatsApp');
    expect(es.text).toContain('https://app.example.com/bookings?booking=bk1');
    expect(bookingChangeEmail(notice, 'en', 'https://app.example.com').subject).toBe('New booking: Ana Pérez, Limpieza dental, Thursday 3 December at 10:30');
    s = settings({ emailOwner: false });
    await listener.handle('u1', change('cancelled', { ...b, status: 'cancelled', updatedAt: '2026-12-01T09:00:00.000Z' }));
    expect(queued).toHaveLength(1);
  });
});
