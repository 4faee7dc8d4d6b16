/**
 * Web Push (issue 29 item 6): an escalation or customers' messages waiting for a person reach the
 * owner's phone and computers as a push, per device and per owner setting.
 * Issue 32: per person — each member registers, lists, tests and removes their own devices and
 * chooses their own events; a notification's push goes to its person's devices only, under that
 * person's settings, in their language. Everything names the account (`userId`) and the person
 * (`personId`; the account id for the account's own person, whose items are those of before).
 *
 * - The API (createPushService): the VAPID public key, subscribe a device (the browser's
 *   PushSubscription; one device per endpoint, at most PUSH_LIMITS.devices), list and remove
 *   devices, a test push, and which events push (PushSettings).
 * - Producers: the alert sender (delivery.ts) queues one web-push job per notification whose
 *   kind pushes (pushEventOf); nothing is sent on a request path.
 * - The worker (runPushJob): a notification's job checks the owner's setting and fans out to one
 *   job per device, so a device's failure retries only that device; a device's job renders the
 *   text in the owner's language when it sends, encrypts it for the device (RFC 8291, in the
 *   sender adapter) and posts it to the push service. 404/410 from the push service: the
 *   subscription is gone (the browser unsubscribed, the app was uninstalled), so the device is
 *   removed. 429/5xx/a broken connection: a TransientError, retried on the queue's schedule
 *   (domain/retry.ts); on the last try it is only logged. Other refusals are logged, not retried.
 *   At least once: a retried push carries the notification as its Topic and the service worker's
 *   tag, so a duplicate replaces the first on the device instead of showing twice.
 */
import { createHash } from 'node:crypto';
import type { WebPushJob } from '../../contract/jobs.js';
import type { NotificationKind } from '../../contract/notification-kinds.js';
import { PUSH_LIMITS, pushMessages, type PushDevice, type PushEvent, type PushPayload, type PushSettings, type PushSettingsInput, type PushSubscriptionInput } from '../../contract/push.js';
import { LimitExceededError, NotFoundError, ServiceUnavailableError } from '../errors.js';
import { catalogue } from '../i18n/messages.js';
import { classifyProviderFailure, LastingError, TransientError } from '../retry.js';
import { alertLink, alertTexts, reasonText } from './delivery.js';
import type { NotificationRepository, StoredNotification } from './ports.js';

export interface StoredPushDevice {
  id: string;
  userId: string;
  /** Issue 32: the member whose device it is; absent = the account's own person. */
  personId?: string;
  endpoint: string;
  /** The subscription's keys (unpadded base64url): the payload is encrypted for them. */
  p256dh: string;
  auth: string;
  label: string;
  createdAt: string;
  lastPushAt?: string;
  expirationTime?: number | null;
}

export interface PushDeviceRepository {
  list(userId: string, personId: string): Promise<StoredPushDevice[]>;
  get(userId: string, personId: string, id: string): Promise<StoredPushDevice | null>;
  /** Adds the device to its person's, or replaces the one with its id (the same endpoint subscribed again); 'tooMany' when new and `max` are stored. */
  save(device: StoredPushDevice, max: number): Promise<'created' | 'updated' | 'tooMany'>;
  /** false when it was not there. */
  remove(userId: string, personId: string, id: string): Promise<boolean>;
  /** Records the push service's acceptance (lastPushAt); nothing when the device is gone. */
  touch(userId: string, personId: string, id: string, at: string): Promise<void>;
  settings(userId: string, personId: string): Promise<PushSettings>;
  saveSettings(userId: string, personId: string, settings: PushSettings): Promise<void>;
}

/** The VAPID key pair (unpadded base64url) and the contact the push services may write to. */
export interface PushKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** The push service said the subscription no longer exists (404 or 410). */
export class PushSubscriptionGoneError extends Error {
  constructor(readonly status: number) {
    super(`push subscription gone (HTTP ${status})`);
    this.name = 'PushSubscriptionGoneError';
  }
}

/**
 * Sends one push (adapters/push/web-push-sender.ts): throws PushSubscriptionGoneError,
 * a TransientError or a LastingError (classifyHttpFailure), or a network error.
 */
export interface PushSender {
  send(device: Pick<StoredPushDevice, 'endpoint' | 'p256dh' | 'auth'>, payload: PushPayload, options: { topic: string; ttlSeconds: number; urgency: 'normal' | 'high' }): Promise<void>;
}

export interface PushJobQueue {
  enqueue(jobs: WebPushJob[]): Promise<void>;
}

/** Which owner setting a notification kind pushes under; null = it never pushes. */
export function pushEventOf(kind: NotificationKind): PushEvent | null {
  if (kind === 'conversation_escalated' || kind === 'call_escalated') return 'escalations';
  if (kind === 'messages_waiting') return 'waiting';
  return null;
}

/** One device per push endpoint: its id is derived from the endpoint (a second subscribe replaces it). */
export const pushDeviceId = (endpoint: string): string => createHash('sha256').update(endpoint).digest('base64url').slice(0, 22);

export function toPushDevice(d: StoredPushDevice): PushDevice {
  return { _id: d.id, endpoint: d.endpoint, service: new URL(d.endpoint).host, label: d.label, createdAt: d.createdAt, lastPushAt: d.lastPushAt ?? null };
}

const BODY_MAX = 240;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const testTexts = catalogue(
  { title: 'AgentDesk test alert', body: 'Alerts work on this device: escalations and waiting customers will show up here.' },
  { title: 'Aviso de prueba de AgentDesk', body: 'Los avisos funcionan en este dispositivo: aquí verás las escalaciones y los clientes que esperan.' },
);

/** The push of a notification, in the owner's language: the alert's subject, its reason, and where a click opens the app. */
export function notificationPushPayload(n: StoredNotification, language: string | undefined, appUrl: string): PushPayload {
  const { subject } = alertTexts(n, language, appUrl);
  return { title: subject, body: clip(reasonText(n, language), BODY_MAX), url: alertLink(appUrl, n), tag: `${n.kind}:${n.subjectId}`, notificationId: n.id };
}

/** The test push of one device, in the owner's language. */
export function testPushPayload(language: string | undefined, appUrl: string): PushPayload {
  const t = testTexts(language);
  return { title: t.title, body: t.body, url: `${appUrl.replace(/\/+$/, '')}/dashboard`, tag: 'test' };
}

// ---------------------------------------------------------------------------------------------
// The API

export interface PushServiceDeps {
  devices: PushDeviceRepository;
  /** null when no key pair is configured (the routes answer 503). */
  keys(): Promise<PushKeys | null>;
  queue: PushJobQueue;
  now?: () => Date;
}

const DEVICE_ID_RE = /^[A-Za-z0-9_-]{22}$/;

export function createPushService(deps: PushServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const device = async (userId: string, personId: string, id: string) => {
    const found = DEVICE_ID_RE.test(id) ? await deps.devices.get(userId, personId, id) : null;
    if (!found) throw new NotFoundError(pushMessages.deviceNotFound);
    return found;
  };

  return {
    async publicKey(): Promise<{ publicKey: string }> {
      const keys = await deps.keys();
      if (!keys) throw new ServiceUnavailableError(pushMessages.notConfigured);
      return { publicKey: keys.publicKey };
    },

    async list(userId: string, personId: string): Promise<PushDevice[]> {
      const devices = await deps.devices.list(userId, personId);
      return devices.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(toPushDevice);
    },

    /** Subscribes a device (again: the same endpoint keeps its id and takes the new keys). */
    async subscribe(userId: string, personId: string, input: PushSubscriptionInput): Promise<PushDevice> {
      const id = pushDeviceId(input.endpoint);
      const existing = await deps.devices.get(userId, personId, id);
      const stored: StoredPushDevice = {
        id,
        userId,
        ...(personId !== userId ? { personId } : {}),
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        label: input.label ?? existing?.label ?? '',
        createdAt: existing?.createdAt ?? now().toISOString(),
        ...(existing?.lastPushAt ? { lastPushAt: existing.lastPushAt } : {}),
        ...(input.expirationTime !== undefined ? { expirationTime: input.expirationTime } : {}),
      };
      if ((await deps.devices.save(stored, PUSH_LIMITS.devices)) === 'tooMany') throw new LimitExceededError(pushMessages.tooManyDevices);
      return toPushDevice(stored);
    },

    async remove(userId: string, personId: string, id: string): Promise<void> {
      await device(userId, personId, id);
      await deps.devices.remove(userId, personId, id);
    },

    /** Queues a test push to one of the person's devices. */
    async test(userId: string, personId: string, id: string): Promise<void> {
      await device(userId, personId, id);
      if (!(await deps.keys())) throw new ServiceUnavailableError(pushMessages.notConfigured);
      await deps.queue.enqueue([{ userId, ...(personId !== userId ? { personId } : {}), deviceId: id, test: true }]);
    },

    settings: (userId: string, personId: string): Promise<PushSettings> => deps.devices.settings(userId, personId),

    /** `email` left out (a client from before issue 32) keeps the stored one. */
    async saveSettings(userId: string, personId: string, input: PushSettingsInput): Promise<PushSettings> {
      const settings: PushSettings = { escalations: input.escalations, waiting: input.waiting, email: input.email ?? (await deps.devices.settings(userId, personId)).email };
      await deps.devices.saveSettings(userId, personId, settings);
      return settings;
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;

/** The producers' side (the alert sender): queue a notification's push when its kind pushes at all. */
export function createPushAlerts(queue: PushJobQueue) {
  return {
    async queue(n: Pick<StoredNotification, 'userId' | 'personId' | 'id' | 'kind'>): Promise<void> {
      if (!pushEventOf(n.kind)) return;
      await queue.enqueue([{ userId: n.userId, ...(n.personId && n.personId !== n.userId ? { personId: n.personId } : {}), notificationId: n.id }]);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The worker

export interface PushWorkerDeps {
  devices: PushDeviceRepository;
  notifications: Pick<NotificationRepository, 'get'>;
  users: { get(userId: string): Promise<{ language?: string } | null> };
  /** Issue 32: a member's push goes while they are an active member of the account, in their language. */
  members: { get(accountId: string, personId: string): Promise<{ language: string } | null> };
  sender: PushSender;
  queue: PushJobQueue;
  appUrl: string;
  now?: () => number;
  onInfo?: (message: string, data?: Record<string, unknown>) => void;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
}

export type PushOutcome =
  /** A notification's job: one job per device queued (n devices). */
  | 'fanned_out'
  /** The owner does not push this event, or has no device. */
  | 'off'
  | 'sent'
  /** The push service said the subscription is gone: the device was removed. */
  | 'removed'
  /** The device or the notification no longer exists. */
  | 'gone'
  /** Refused for good, or every try failed: logged. */
  | 'failed';

/** How long a push service keeps an undelivered push (a phone switched off for the night). */
export const PUSH_TTL_SECONDS = 24 * 3600;

/** One web-push message (see the module comment). Throws a TransientError while the push service fails, except on the final try. */
export async function runPushJob(deps: PushWorkerDeps, job: WebPushJob, options: { finalAttempt: boolean }): Promise<PushOutcome> {
  const onInfo = deps.onInfo ?? (() => undefined);
  const data = { userId: job.userId, personId: job.personId, notificationId: job.notificationId, deviceId: job.deviceId };
  // Whose devices and settings: the member the job names, else the account's own person (issue 32).
  const personId = job.personId ?? job.userId;
  const member = personId !== job.userId;

  const notification = job.notificationId ? await deps.notifications.get(job.userId, personId, job.notificationId) : null;
  if (job.notificationId && !notification) return 'gone';

  if (!job.deviceId) {
    const event = pushEventOf(notification!.kind);
    if (!event) return 'off';
    const [settings, devices] = await Promise.all([deps.devices.settings(job.userId, personId), deps.devices.list(job.userId, personId)]);
    if (!settings[event] || devices.length === 0) return 'off';
    await deps.queue.enqueue(devices.map((d) => ({ userId: job.userId, ...(member ? { personId } : {}), notificationId: job.notificationId!, deviceId: d.id })));
    return 'fanned_out';
  }

  const device = await deps.devices.get(job.userId, personId, job.deviceId);
  if (!device) return 'gone';
  // A member removed since the push was queued gets nothing more.
  const user = member ? await deps.members.get(job.userId, personId) : await deps.users.get(job.userId);
  if (member && !user) return 'gone';
  const payload = notification ? notificationPushPayload(notification, user?.language, deps.appUrl) : testPushPayload(user?.language, deps.appUrl);
  try {
    await deps.sender.send(device, payload, {
      // The Topic header (≤ 32 base64url characters) replaces a still-undelivered copy of the same push.
      topic: notification ? notification.id : `test${Date.now().toString(36)}`,
      ttlSeconds: PUSH_TTL_SECONDS,
      urgency: notification ? 'high' : 'normal',
    });
  } catch (error) {
    if (error instanceof PushSubscriptionGoneError) {
      await deps.devices.remove(job.userId, personId, device.id);
      onInfo('Web Push: the subscription is gone, device removed', { ...data, status: error.status });
      return 'removed';
    }
    const failure = classifyProviderFailure(error);
    if (failure instanceof LastingError) {
      deps.onError?.('Web Push refused by the push service', failure, { ...data, status: failure.status });
      return 'failed';
    }
    const transient = failure ?? new TransientError({ provider: 'push', code: 'unavailable', cause: error, message: String((error as Error)?.message ?? error) });
    if (options.finalAttempt) {
      deps.onError?.('Web Push: the push service failed on every try', transient, data);
      return 'failed';
    }
    throw transient;
  }
  await deps.devices.touch(job.userId, personId, device.id, new Date((deps.now ?? Date.now)()).toISOString());
  return 'sent';
}

