/**
 * Web Push (issue 29): the subscription schema (what a browser's PushSubscription.toJSON() gives,
 * nothing else), the payload of each notification kind in the owner's language, and the worker's
 * decisions (fan-out by setting, a gone subscription removed, transient failures thrown for the
 * schedule, the final try only logged), over in-memory ports.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pushSettingsRequest, pushSubscriptionRequest, PUSH_DEFAULTS, type PushSettings } from '../../../src/contract/push.js';
import type { WebPushJob } from '../../../src/contract/jobs.js';
import { webPushJob } from '../../../src/contract/jobs.js';
import {
  createPushService,
  notificationPushPayload,
  pushDeviceId,
  PushSubscriptionGoneError,
  runPushJob,
  testPushPayload,
  type PushDeviceRepository,
  type PushSender,
  type StoredPushDevice,
} from '../../../src/domain/notifications/push.js';
import type { StoredNotification } from '../../../src/domain/notifications/ports.js';
import { TransientError, LastingError } from '../../../src/domain/retry.js';

const browserKeys = () => ({ p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') });
const subscription = (over: Record<string, unknown> = {}) => ({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc:APA91b', expirationTime: null, keys: browserKeys(), ...over });

describe('the push subscription schema', () => {
  it('takes what PushSubscription.toJSON() gives, with an optional device name', () => {
    expect(pushSubscriptionRequest.safeParse(subscription()).success).toBe(true);
    expect(pushSubscriptionRequest.safeParse({ ...subscription(), label: '  Móvil de Lucía  ' })).toMatchObject({ success: true, data: { label: 'Móvil de Lucía' } });
    const { expirationTime: _omit, ...withoutExpiry } = subscription();
    expect(pushSubscriptionRequest.safeParse(withoutExpiry).success).toBe(true);
  });

  it.each([
    ['an http endpoint', subscription({ endpoint: 'http://fcm.googleapis.com/fcm/send/x' }), 'The push subscription endpoint must be an https URL'],
    ['not a URL', subscription({ endpoint: 'fcm/send/x' }), 'The push subscription endpoint must be an https URL'],
    ['credentials in the URL', subscription({ endpoint: 'https://user:pw@push.example/x' }), 'The push subscription endpoint must be an https URL'],
    ['an overlong endpoint', subscription({ endpoint: `https://push.example/${'a'.repeat(2048)}` }), 'The push subscription endpoint must be an https URL'],
    ['a compressed p256dh', subscription({ keys: { ...browserKeys(), p256dh: `A${'A'.repeat(43)}` } }), 'The push subscription keys are invalid'],
    ['padded base64', subscription({ keys: { ...browserKeys(), auth: `${'A'.repeat(22)}==` } }), 'The push subscription keys are invalid'],
    ['standard base64', subscription({ keys: { ...browserKeys(), auth: `${'A'.repeat(20)}+/` } }), 'The push subscription keys are invalid'],
    ['a missing auth', subscription({ keys: { p256dh: browserKeys().p256dh } }), 'The push subscription keys are invalid'],
    ['an extra key', subscription({ keys: { ...browserKeys(), extra: 'x' } }), 'The push subscription keys are invalid'],
    ['an extra field', subscription({ userId: 'someone' }), 'Invalid push subscription'],
  ])('refuses %s', (_name, input, message) => {
    const result = pushSubscriptionRequest.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it('settings are the whole object of booleans', () => {
    expect(pushSettingsRequest.safeParse({ escalations: false, waiting: true }).success).toBe(true);
    expect(pushSettingsRequest.safeParse({ escalations: false }).success).toBe(false);
    expect(pushSettingsRequest.safeParse({ escalations: 'no', waiting: true }).success).toBe(false);
    expect(pushSettingsRequest.safeParse({ escalations: true, waiting: true, calls: true }).success).toBe(false);
  });

  it('the job names a notification, or a device to test', () => {
    expect(webPushJob.safeParse({ userId: 'u', notificationId: 'n' }).success).toBe(true);
    expect(webPushJob.safeParse({ userId: 'u', notificationId: 'n', deviceId: 'd' }).success).toBe(true);
    expect(webPushJob.safeParse({ userId: 'u', deviceId: 'd', test: true }).success).toBe(true);
    expect(webPushJob.safeParse({ userId: 'u', deviceId: 'd' }).success).toBe(false);
    expect(webPushJob.safeParse({ userId: 'u', notificationId: 'n', endpoint: 'https://x' }).success).toBe(false);
  });
});

const notification = (over: Partial<StoredNotification> = {}): StoredNotification => ({
  id: '01M8GYRTWXP5KPB5PWAH41F8S6',
  userId: 'u1',
  kind: 'conversation_escalated',
  subjectId: 'conv-1',
  contactName: 'Carmen Ibáñez',
  reason: 'Pide factura',
  createdAt: '2026-11-28T10:00:00.000Z',
  readAt: null,
  ...over,
});

describe('the push payload', () => {
  it('an escalated conversation, in Spanish and in English, opens the conversation', () => {
    expect(notificationPushPayload(notification(), 'es', 'https://app.example/')).toEqual({
      title: 'Conversación escalada: Carmen Ibáñez',
      body: 'Pide factura',
      url: 'https://app.example/conversations?open=conv-1',
      tag: 'conversation_escalated:conv-1',
      notificationId: '01M8GYRTWXP5KPB5PWAH41F8S6',
    });
    expect(notificationPushPayload(notification(), 'en', 'https://app.example')).toMatchObject({ title: 'Conversation escalated: Carmen Ibáñez' });
  });

  it('a call opens the call; waiting messages say why in words; a long reason is cut', () => {
    expect(notificationPushPayload(notification({ kind: 'call_escalated', subjectId: 'CA1', contactName: '' }), 'es', 'https://app.example')).toMatchObject({
      title: 'Llamada escalada: Contacto desconocido',
      url: 'https://app.example/voice-conversations/CA1',
    });
    const waiting = notificationPushPayload(notification({ kind: 'messages_waiting', subjectId: 'openai', reason: 'unavailable' }), 'es', 'https://app.example');
    expect(waiting).toMatchObject({ title: 'Mensajes de clientes sin responder', url: 'https://app.example/conversations?waiting=1' });
    expect(waiting.body).toMatch(/^No se pudo contactar con el modelo de IA/);
    const long = notificationPushPayload(notification({ reason: 'x'.repeat(1000) }), 'es', 'https://app.example');
    expect(long.body).toHaveLength(240);
    expect(long.body.endsWith('…')).toBe(true);
  });

  it('the test push', () => {
    expect(testPushPayload('es', 'https://app.example')).toMatchObject({ title: 'Aviso de prueba de AgentDesk', url: 'https://app.example/dashboard', tag: 'test' });
    expect(testPushPayload('en', 'https://app.example').title).toBe('AgentDesk test alert');
  });
});

/** Devices per account and person (issue 32); settings per person (`stored` is the account's own person's). */
class MemoryDevices implements PushDeviceRepository {
  devices = new Map<string, StoredPushDevice>();
  stored: PushSettings = { ...PUSH_DEFAULTS };
  personal = new Map<string, PushSettings>();
  private mine = (d: StoredPushDevice | undefined, userId: string, personId: string) => d !== undefined && d.userId === userId && (d.personId ?? d.userId) === personId;
  list = async (userId: string, personId: string) => [...this.devices.values()].filter((d) => this.mine(d, userId, personId));
  get = async (userId: string, personId: string, id: string) => (this.mine(this.devices.get(id), userId, personId) ? this.devices.get(id)! : null);
  save = async (d: StoredPushDevice, max: number) => {
    if (this.devices.has(d.id)) return (this.devices.set(d.id, d), 'updated' as const);
    if ((await this.list(d.userId, d.personId ?? d.userId)).length >= max) return 'tooMany' as const;
    this.devices.set(d.id, d);
    return 'created' as const;
  };
  remove = async (userId: string, personId: string, id: string) => (await this.get(userId, personId, id)) !== null && this.devices.delete(id);
  touch = async (_u: string, _p: string, id: string, at: string) => {
    const d = this.devices.get(id);
    if (d) d.lastPushAt = at;
  };
  settings = async (userId: string, personId: string) => (personId === userId ? this.stored : (this.personal.get(personId) ?? { ...PUSH_DEFAULTS }));
  saveSettings = async (userId: string, personId: string, s: PushSettings) => {
    if (personId === userId) this.stored = s;
    else this.personal.set(personId, s);
  };
}

function worker(send: PushSender['send']) {
  const devices = new MemoryDevices();
  const queued: WebPushJob[] = [];
  const errors: string[] = [];
  const sent: { endpoint: string; title: string }[] = [];
  const deps = {
    devices,
    notifications: { get: async (_u: string, _p: string, id: string) => (id === notification().id ? notification() : null) },
    users: { get: async () => ({ language: 'es' }) },
    members: { get: async (_a: string, personId: string) => (personId === 'p-marc' ? { language: 'en' } : null) },
    sender: {
      send: async (d: Parameters<PushSender['send']>[0], p: Parameters<PushSender['send']>[1], o: Parameters<PushSender['send']>[2]) => {
        await send(d, p, o);
        sent.push({ endpoint: d.endpoint, title: p.title });
      },
    },
    queue: { enqueue: async (jobs: WebPushJob[]) => void queued.push(...jobs) },
    appUrl: 'https://app.example',
    onError: (message: string) => void errors.push(message),
  };
  const device = (endpoint: string): StoredPushDevice => ({ id: pushDeviceId(endpoint), userId: 'u1', endpoint, ...browserKeys(), label: '', createdAt: '2026-11-28T10:00:00.000Z' });
  return { deps, devices, queued, errors, sent, device };
}

describe('the web-push worker', () => {
  it('fans a notification out to one job per device, only when the owner pushes that event', async () => {
    const w = worker(async () => undefined);
    const a = w.device('https://push.example/a');
    const b = w.device('https://push.example/b');
    await w.devices.save(a, 20);
    await w.devices.save(b, 20);

    expect(await runPushJob(w.deps, { userId: 'u1', notificationId: notification().id }, { finalAttempt: false })).toBe('fanned_out');
    expect(w.queued).toEqual([
      { userId: 'u1', notificationId: notification().id, deviceId: a.id },
      { userId: 'u1', notificationId: notification().id, deviceId: b.id },
    ]);

    w.devices.stored = { escalations: false, waiting: true, email: true };
    w.queued.length = 0;
    expect(await runPushJob(w.deps, { userId: 'u1', notificationId: notification().id }, { finalAttempt: false })).toBe('off');
    expect(w.queued).toEqual([]);
    expect(await runPushJob(w.deps, { userId: 'u1', notificationId: 'gone' }, { finalAttempt: false })).toBe('gone');
  });

  it('sends to a device in the owner language and records it', async () => {
    const w = worker(async () => undefined);
    const a = w.device('https://push.example/a');
    await w.devices.save(a, 20);
    expect(await runPushJob(w.deps, { userId: 'u1', notificationId: notification().id, deviceId: a.id }, { finalAttempt: false })).toBe('sent');
    expect(w.sent).toEqual([{ endpoint: a.endpoint, title: 'Conversación escalada: Carmen Ibáñez' }]);
    expect(w.devices.devices.get(a.id)?.lastPushAt).toBeDefined();
  });

  it('410: the device is removed, nothing thrown', async () => {
    const w = worker(async () => {
      throw new PushSubscriptionGoneError(410);
    });
    const a = w.device('https://push.example/a');
    await w.devices.save(a, 20);
    expect(await runPushJob(w.deps, { userId: 'u1', notificationId: notification().id, deviceId: a.id }, { finalAttempt: false })).toBe('removed');
    expect(w.devices.devices.size).toBe(0);
  });

  it('a transient failure is thrown for the schedule, except on the final try; a lasting one is logged', async () => {
    const transient = worker(async () => {
      throw new TransientError({ provider: 'push', code: 'unavailable', status: 503 });
    });
    const a = transient.device('https://push.example/a');
    await transient.devices.save(a, 20);
    const job = { userId: 'u1', notificationId: notification().id, deviceId: a.id };
    await expect(runPushJob(transient.deps, job, { finalAttempt: false })).rejects.toBeInstanceOf(TransientError);
    expect(await runPushJob(transient.deps, job, { finalAttempt: true })).toBe('failed');
    expect(transient.errors).toEqual(['Web Push: the push service failed on every try']);
    expect(transient.devices.devices.size).toBe(1);

    const lasting = worker(async () => {
      throw new LastingError({ provider: 'push', code: 403, reason: 'permission', status: 403 });
    });
    await lasting.devices.save(a, 20);
    expect(await runPushJob(lasting.deps, job, { finalAttempt: false })).toBe('failed');
  });
});

describe('a member’s push (issue 32)', () => {
  it('goes to their own devices under their own settings, in their language; a removed member gets none', async () => {
    const w = worker(async () => undefined);
    const owners = w.device('https://push.example/owner');
    const marcs = { ...w.device('https://push.example/marc'), personId: 'p-marc' };
    const gones = { ...w.device('https://push.example/gone'), personId: 'p-gone' };
    for (const d of [owners, marcs, gones]) await w.devices.save(d, 20);
    const n = notification().id;

    expect(await runPushJob(w.deps, { userId: 'u1', personId: 'p-marc', notificationId: n }, { finalAttempt: false })).toBe('fanned_out');
    expect(w.queued).toEqual([{ userId: 'u1', personId: 'p-marc', notificationId: n, deviceId: marcs.id }]);
    expect(await runPushJob(w.deps, w.queued[0]!, { finalAttempt: false })).toBe('sent');
    expect(w.sent).toEqual([{ endpoint: marcs.endpoint, title: 'Conversation escalated: Carmen Ibáñez' }]);
    // Someone else's device id under Marc's name is not his.
    expect(await runPushJob(w.deps, { userId: 'u1', personId: 'p-marc', notificationId: n, deviceId: owners.id }, { finalAttempt: false })).toBe('gone');
    expect(await runPushJob(w.deps, { userId: 'u1', personId: 'p-gone', notificationId: n, deviceId: gones.id }, { finalAttempt: false })).toBe('gone');

    // Marc turns escalations off: his off, the owner's still on.
    w.devices.personal.set('p-marc', { escalations: false, waiting: true, email: true });
    w.queued.length = 0;
    expect(await runPushJob(w.deps, { userId: 'u1', personId: 'p-marc', notificationId: n }, { finalAttempt: false })).toBe('off');
    expect(await runPushJob(w.deps, { userId: 'u1', notificationId: n }, { finalAttempt: false })).toBe('fanned_out');
    expect(w.queued).toEqual([{ userId: 'u1', notificationId: n, deviceId: owners.id }]);
  });
});

describe('the push API', () => {
  it('one device per endpoint, at most 20, another owner’s device is not found', async () => {
    const devices = new MemoryDevices();
    const queued: WebPushJob[] = [];
    const service = createPushService({ devices, keys: async () => ({ publicKey: 'BPub', privateKey: 'priv', subject: 'mailto:a@b.es' }), queue: { enqueue: async (jobs) => void queued.push(...jobs) } });
    const first = await service.subscribe('u1', 'u1', { ...subscription(), label: 'Móvil' });
    const again = await service.subscribe('u1', 'u1', { ...subscription(), endpoint: first.endpoint });
    expect(again._id).toBe(first._id);
    expect(again.label).toBe('Móvil');
    for (let i = 0; i < 19; i++) await service.subscribe('u1', 'u1', subscription({ endpoint: `https://push.example/${i}` }));
    await expect(service.subscribe('u1', 'u1', subscription({ endpoint: 'https://push.example/one-more' }))).rejects.toMatchObject({ status: 403 });
    await expect(service.remove('u2', 'u2', first._id)).rejects.toMatchObject({ status: 404 });
    // Issue 32: another member of the same account does not reach the owner's device either.
    await expect(service.remove('u1', 'p-marc', first._id)).rejects.toMatchObject({ status: 404 });
    await expect(service.test('u1', 'p-marc', first._id)).rejects.toMatchObject({ status: 404 });
    await expect(service.test('u1', 'u1', 'not-an-id')).rejects.toMatchObject({ status: 404 });
    await service.test('u1', 'u1', first._id);
    expect(queued).toEqual([{ userId: 'u1', deviceId: first._id, test: true }]);
    expect(await service.publicKey()).toEqual({ publicKey: 'BPub' });
  });

  it('alert settings are each person’s; a client that leaves `email` out keeps the stored one (issue 32)', async () => {
    const devices = new MemoryDevices();
    const service = createPushService({ devices, keys: async () => null, queue: { enqueue: async () => undefined } });
    expect(await service.saveSettings('u1', 'p-marc', { escalations: true, waiting: true, email: false })).toEqual({ escalations: true, waiting: true, email: false });
    expect(await service.saveSettings('u1', 'p-marc', { escalations: false, waiting: true })).toEqual({ escalations: false, waiting: true, email: false });
    expect(await service.settings('u1', 'p-marc')).toEqual({ escalations: false, waiting: true, email: false });
    expect(await service.settings('u1', 'u1')).toEqual(PUSH_DEFAULTS);
  });

  it('no VAPID keys configured: 503, not a crash', async () => {
    const service = createPushService({ devices: new MemoryDevices(), keys: async () => null, queue: { enqueue: async () => undefined } });
    await expect(service.publicKey()).rejects.toMatchObject({ status: 503 });
  });
});
