/**
 * Escalation alerts over in-memory ports: raised once per escalation (a retry with the same
 * occurrence writes and sends nothing), the e-mail/WhatsApp claimed once, a failure never thrown
 * to the escalating caller; the sender follows the inbox settings and the owner's language.
 */
import { describe, expect, it } from 'vitest';
import { INBOX_DEFAULTS, type InboxSettings } from '../../../src/contract/inbox.js';
import { notificationEmailRenderer } from '../../../src/domain/notifications/alert-email.js';
import { alertTexts, createAlertSender } from '../../../src/domain/notifications/delivery.js';
import type { EmailRef } from '../../../src/domain/notifications/emails.js';
import { alertKey, type NotificationRepository, type Recipient, type Recipients, type StoredNotification } from '../../../src/domain/notifications/ports.js';
import { createEscalationAlerts } from '../../../src/domain/notifications/raise.js';

function memoryRepo(): Pick<NotificationRepository, 'create' | 'byKey' | 'claimAlert'> & { items: StoredNotification[]; keys: Map<string, string>; claimed: Set<string> } {
  const items: StoredNotification[] = [];
  const keys = new Map<string, string>();
  const claimed = new Set<string>();
  return {
    items,
    keys,
    claimed,
    async create(n, key) {
      const k = `${n.userId}#${n.personId ?? n.userId}#${key}`;
      if (keys.has(k)) return false;
      keys.set(k, n.id);
      items.push(n);
      return true;
    },
    async byKey(userId, personId, key) {
      const id = keys.get(`${userId}#${personId}#${key}`);
      return items.find((n) => n.id === id) ?? null;
    },
    async claimAlert(_userId, _personId, id) {
      if (claimed.has(id)) return false;
      claimed.add(id);
      return true;
    },
  };
}

const alert = { kind: 'conversation_escalated' as const, subjectId: 'C1', contactName: 'Ana', reason: 'Refund', occurrence: '2026-11-26T01:00:00.000Z' };
let seq = 0;
const newId = () => `01J${String(++seq).padStart(23, '0')}`;

describe('escalation alerts', () => {
  it('a retried escalation (same occurrence) raises and sends once; a new occurrence raises again', async () => {
    const repo = memoryRepo();
    const sent: string[] = [];
    const alerts = createEscalationAlerts({ notifications: repo, sender: { send: async (n) => void sent.push(n.id) }, newId });

    await alerts.escalated('u1', alert);
    await alerts.escalated('u1', alert);
    await alerts.escalated('u1', { ...alert, occurrence: '2026-11-26T02:00:00.000Z' });

    expect(repo.items).toHaveLength(2);
    expect(sent).toEqual(repo.items.map((n) => n.id));
  });

  it('never throws to the escalating caller: a store failure is logged', async () => {
    const errors: string[] = [];
    const alerts = createEscalationAlerts({
      notifications: { ...memoryRepo(), create: () => Promise.reject(new Error('DynamoDB down')) },
      newId,
      onError: (message) => void errors.push(message),
    });

    await expect(alerts.escalated('u1', alert)).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
  });

  it('without a sender only the notification is written; sendPending sends it later, once', async () => {
    const repo = memoryRepo();
    const sent: string[] = [];
    const writeOnly = createEscalationAlerts({ notifications: repo, newId });
    const worker = createEscalationAlerts({ notifications: repo, sender: { send: async (n) => void sent.push(n.subjectId) }, newId });
    const call = { kind: 'call_escalated' as const, subjectId: 'CALL1', contactName: '', reason: 'Owner', occurrence: '' };

    await writeOnly.escalated('u1', call);
    expect(sent).toEqual([]);
    expect(await worker.sendPending('u1', call)).toBe(true);
    expect(await worker.sendPending('u1', call)).toBe(false);
    expect(await worker.sendPending('u1', { ...call, subjectId: 'OTHER' })).toBe(false);
    expect(sent).toEqual(['CALL1']);
    expect(repo.keys.has(`u1#u1#${alertKey(call)}`)).toBe(true);
  });
});

describe('alert sender', () => {
  const notification: StoredNotification = { id: 'N1', userId: 'u1', kind: 'conversation_escalated', subjectId: 'C 1', contactName: 'José Núñez', reason: 'Quiere factura', createdAt: '', readAt: null };

  function sender(settings: Partial<InboxSettings>, options: { language?: string; connected?: boolean; whatsappFails?: boolean } = {}) {
    const mails: EmailRef[] = [];
    const texts: Array<{ to: string; text: string }> = [];
    const errors: string[] = [];
    const s = createAlertSender({
      settings: { get: async () => ({ ...INBOX_DEFAULTS, ...settings }) },
      users: { get: async () => ({ email: 'owner@example.com', language: options.language ?? 'en' }) },
      emails: {
        queue: async (ref) => {
          mails.push(ref);
          return null;
        },
      },
      whatsapp: {
        connection: async () => (options.connected === false ? null : { credentials: 'creds' }),
        sendText: async (_c, to, text) => {
          if (options.whatsappFails) throw Object.assign(new Error('Re-engagement message'), { code: 131047 });
          texts.push({ to, text });
        },
      },
      appUrl: 'https://app.example.com/',
      onError: (message) => void errors.push(message),
    });
    return { s, mails, texts, errors };
  }

  it('queues the alert e-mail by default (issue 34: it waits for SES), rendered from the notification in the owner’s language with a link that opens the conversation', async () => {
    const { s, mails, texts } = sender({}, { language: 'es' });
    await s.send(notification);
    expect(mails).toEqual([{ kind: 'notification', userId: 'u1', subjectId: 'N1' }]);
    expect(texts).toEqual([]);
    const render = notificationEmailRenderer({ notifications: { get: async (_u, _p, id) => (id === 'N1' ? notification : null) }, appUrl: 'https://app.example.com/' });
    const mail = await render(mails[0]!, { email: 'owner@example.com', language: 'es' });
    expect(mail?.subject).toBe('Conversación escalada: José Núñez');
    expect(mail?.text).toContain('Motivo: Quiere factura');
    expect(mail?.text).toContain('https://app.example.com/conversations?open=C%201');
    expect(await render({ ...mails[0]!, subjectId: 'GONE' }, { email: 'owner@example.com', language: 'es' })).toBeNull();
  });

  it('alertByEmail off and a WhatsApp number: only the WhatsApp text, to the number’s digits', async () => {
    const { s, mails, texts } = sender({ alertByEmail: false, alertWhatsappNumber: '+34 612 345 678' });
    await s.send(notification);
    expect(mails).toEqual([]);
    expect(texts).toEqual([{ to: '34612345678', text: expect.stringContaining('*Conversation escalated: José Núñez*') }]);
  });

  it('Meta refusing the free-form text (closed 24-hour window) is logged; the e-mail still goes', async () => {
    const { s, mails, errors } = sender({ alertWhatsappNumber: '+34612345678' }, { whatsappFails: true });
    await expect(s.send(notification)).resolves.toBeUndefined();
    expect(mails).toHaveLength(1);
    expect(errors).toEqual(['Escalation alert by WhatsApp failed']);
  });

  it('a call links to its page; an unknown name says so', () => {
    const t = alertTexts({ ...notification, kind: 'call_escalated', subjectId: 'K1', contactName: ' ' }, 'en', 'https://app.example.com');
    expect(t.subject).toBe('Call escalated: Unknown contact');
    expect(t.text).toContain('https://app.example.com/voice-conversations/K1');
  });
});

describe('a call’s alert at its end (call-summary worker)', () => {
  const call = { id: 'CALL9', userId: 'u1', contact: { _id: null, name: 'Íñigo', phoneNumber: '+34600000000' }, phoneNumber: '+34600000000', escalated: true, escalationReason: 'Owner' };

  it('raises the notification a streamed call left to the worker and sends it once; a call that was not escalated alerts nothing', async () => {
    const { sendCallAlert } = await import('../../../src/domain/voice/call-alert.js');
    const repo = memoryRepo();
    const sent: string[] = [];
    const alerts = createEscalationAlerts({ notifications: repo, sender: { send: async (n) => void sent.push(n.contactName) }, newId });

    await sendCallAlert(alerts, call);
    await sendCallAlert(alerts, call);
    await sendCallAlert(alerts, { ...call, id: 'CALL10', escalated: false });

    expect(repo.items.map((n) => [n.kind, n.subjectId, n.reason])).toEqual([['call_escalated', 'CALL9', 'Owner']]);
    expect(sent).toEqual(['Íñigo']);
  });
});

describe('alerts for a team (issue 32)', () => {
  const people: Recipient[] = [
    { personId: 'u1', email: 'owner@example.com', language: 'en' },
    { personId: 'p-lucia', email: 'lucia@example.es', language: 'es' },
    { personId: 'p-marc', email: 'marc@example.com', language: 'en' },
  ];
  const recipients: Recipients = {
    list: async () => people,
    get: async (_a, id) => people.find((p) => p.personId === id) ?? null,
  };

  it('an assigned conversation tells its assignee alone; unassigned, every member; a retry sends nobody anything twice', async () => {
    const repo = memoryRepo();
    const sent: string[] = [];
    const alerts = createEscalationAlerts({ notifications: repo, recipients, sender: { send: async (n) => void sent.push(n.personId ?? n.userId) }, newId });

    await alerts.escalated('u1', { ...alert, assignee: 'p-lucia' });
    await alerts.escalated('u1', { ...alert, assignee: 'p-lucia' });
    expect(sent).toEqual(['p-lucia']);
    expect(repo.items.map((n) => n.personId)).toEqual(['p-lucia']);

    await alerts.escalated('u1', { ...alert, occurrence: 'second', assignee: null });
    await alerts.escalated('u1', { ...alert, occurrence: 'second', assignee: null });
    // The account's own person keeps the keys of before: no personId on theirs.
    expect(sent.slice(1).sort()).toEqual(['p-lucia', 'p-marc', 'u1']);
    expect(repo.items.slice(1).map((n) => n.personId ?? null).sort()).toEqual([null, 'p-lucia', 'p-marc'].sort());
  });

  it('an assignee who is no longer a member: every member is told', async () => {
    const repo = memoryRepo();
    const alerts = createEscalationAlerts({ notifications: repo, recipients, newId });
    await alerts.escalated('u1', { ...alert, assignee: 'p-gone' });
    expect(repo.items).toHaveLength(3);
  });

  it('sendPending sends each recipient’s notification once (the call-summary worker after a write-only raise)', async () => {
    const repo = memoryRepo();
    const sent: string[] = [];
    const call = { kind: 'call_escalated' as const, subjectId: 'CALL1', contactName: '', reason: 'Owner', occurrence: '' };
    // The voice webhook: no recipients, so the account's own person only.
    await createEscalationAlerts({ notifications: repo, newId }).escalated('u1', call);
    expect(repo.items.map((n) => n.personId ?? n.userId)).toEqual(['u1']);
    const worker = createEscalationAlerts({ notifications: repo, recipients, sender: { send: async (n) => void sent.push(n.personId ?? n.userId) }, newId });
    await worker.escalated('u1', call);
    expect(await worker.sendPending('u1', call)).toBe(true);
    expect(await worker.sendPending('u1', call)).toBe(false);
    expect(sent.sort()).toEqual(['p-lucia', 'p-marc', 'u1']);
  });

  it('a member’s notification: their e-mail (named by person) and push; the owner’s WhatsApp number only with the owner’s own', async () => {
    const mails: EmailRef[] = [];
    const texts: string[] = [];
    const pushes: string[] = [];
    const s = createAlertSender({
      settings: { get: async () => ({ ...INBOX_DEFAULTS, alertWhatsappNumber: '+34612345678' }) },
      users: { get: async () => ({ email: 'owner@example.com', language: 'en' }) },
      emails: {
        queue: async (ref) => {
          mails.push(ref);
          return null;
        },
      },
      whatsapp: { connection: async () => ({ credentials: 'c' }), sendText: async (_c, to) => void texts.push(to) },
      push: { queue: async (n) => void pushes.push(n.personId ?? n.userId) },
      appUrl: 'https://app.example.com',
    });
    const base: StoredNotification = { id: 'N1', userId: 'u1', kind: 'conversation_escalated', subjectId: 'C1', contactName: 'Ana', reason: 'x', createdAt: '', readAt: null };
    await s.send({ ...base, personId: 'p-lucia' });
    expect(mails).toEqual([{ kind: 'notification', userId: 'u1', subjectId: 'N1', personId: 'p-lucia' }]);
    expect(texts).toEqual([]);
    await s.send({ ...base, id: 'N2' });
    expect(mails[1]).toEqual({ kind: 'notification', userId: 'u1', subjectId: 'N2' });
    expect(texts).toEqual(['34612345678']);
    expect(pushes).toEqual(['p-lucia', 'u1']);
  });

  it('a person who turned alert e-mails off gets none; the others still do', async () => {
    const mails: EmailRef[] = [];
    const s = createAlertSender({
      settings: { get: async () => INBOX_DEFAULTS },
      preferences: { get: async (_u, personId) => ({ email: personId !== 'p-marc' }) },
      users: { get: async () => ({ email: 'owner@example.com', language: 'en' }) },
      emails: {
        queue: async (ref) => {
          mails.push(ref);
          return null;
        },
      },
      whatsapp: { connection: async () => null, sendText: async () => undefined },
      appUrl: 'https://app.example.com',
    });
    const base: StoredNotification = { id: 'N1', userId: 'u1', kind: 'conversation_escalated', subjectId: 'C1', contactName: 'Ana', reason: 'x', createdAt: '', readAt: null };
    await s.send({ ...base, personId: 'p-marc' });
    await s.send({ ...base, id: 'N2', personId: 'p-lucia' });
    await s.send({ ...base, id: 'N3' });
    expect(mails.map((m) => m.personId ?? m.userId)).toEqual(['p-lucia', 'u1']);
  });
});
