/**
 * Web Push (issue 29 item 6): the owner's devices that get a push for escalations and for
 * customers' messages waiting for a person, and which of those events push at all.
 *
 *   GET    /api/push/public-key          the VAPID public key (applicationServerKey)
 *   GET    /api/push/devices             the owner's subscribed devices
 *   POST   /api/push/devices             subscribe this device: the browser's PushSubscription JSON (+ a label)
 *   DELETE /api/push/devices/{id}        unsubscribe one device
 *   POST   /api/push/devices/{id}/test   queue a test push to one device
 *   GET    /api/push/settings            which events push, and whether alert e-mails come (per person, issue 32)
 *   PUT    /api/push/settings            the whole object (`email` may be left out: unchanged)
 *
 * Browser-safe: no Node imports.
 */
import * as z from 'zod/mini';
import './zod-locale.js';

export const PUSH_LIMITS = {
  /** Push service URLs are ~150-250 characters (FCM, Mozilla, Apple); room to spare. */
  endpoint: 2048,
  label: 60,
  /** Devices per account: a phone, a tablet, a few browsers. */
  devices: 20,
} as const;

/** The events an owner can have pushed: escalations (conversations and calls), and customers' messages waiting for a person. */
export const PUSH_EVENTS = ['escalations', 'waiting'] as const;
export type PushEvent = (typeof PUSH_EVENTS)[number];

/**
 * A person's alert settings (issue 32: each member's own): which events push, and `email` — whether
 * the alert e-mails reach this person (the account's InboxSettings.alertByEmail, an admin's
 * business-wide switch, must be on too).
 */
export type PushSettings = Record<PushEvent, boolean> & { email: boolean };
export const PUSH_DEFAULTS: PushSettings = { escalations: true, waiting: true, email: true };

export const pushMessages = {
  endpointInvalid: 'The push subscription endpoint must be an https URL',
  keysInvalid: 'The push subscription keys are invalid',
  labelInvalid: `The device name can have at most ${PUSH_LIMITS.label} characters`,
  subscriptionInvalid: 'Invalid push subscription',
  tooManyDevices: `You can receive alerts on at most ${PUSH_LIMITS.devices} devices. Remove one first.`,
  deviceNotFound: 'Device not found',
  subscribed: 'Alerts are on for this device',
  removed: 'Alerts are off for this device',
  testQueued: 'Test alert sent',
  settingsSaved: 'Alert settings saved',
  settingInvalid: 'Each alert setting must be true or false',
  notConfigured: 'Push alerts are not available right now',
} as const;

/**
 * A P-256 public key (65 bytes, uncompressed: 0x04 first) and a 16-byte auth secret, in unpadded
 * base64url as PushSubscription.toJSON() gives them: 87 characters starting with 'B', and 22.
 */
const P256DH_RE = /^B[A-Za-z0-9_-]{86}$/;
const AUTH_RE = /^[A-Za-z0-9_-]{22}$/;

const httpsUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
};

/** POST /api/push/devices: PushSubscription.toJSON(), strictly, with an optional device name. */
export const pushSubscriptionRequest = z.strictObject(
  {
    endpoint: z
      .string({ error: pushMessages.endpointInvalid })
      .check(z.maxLength(PUSH_LIMITS.endpoint, pushMessages.endpointInvalid), z.refine(httpsUrl, pushMessages.endpointInvalid)),
    expirationTime: z.optional(z.nullable(z.number({ error: pushMessages.subscriptionInvalid }).check(z.refine((n) => Number.isFinite(n) && n >= 0, pushMessages.subscriptionInvalid)))),
    keys: z.strictObject(
      {
        p256dh: z.string({ error: pushMessages.keysInvalid }).check(z.regex(P256DH_RE, pushMessages.keysInvalid)),
        auth: z.string({ error: pushMessages.keysInvalid }).check(z.regex(AUTH_RE, pushMessages.keysInvalid)),
      },
      { error: pushMessages.keysInvalid },
    ),
    label: z.optional(z.string({ error: pushMessages.labelInvalid }).check(z.trim(), z.maxLength(PUSH_LIMITS.label, pushMessages.labelInvalid))),
  },
  { error: pushMessages.subscriptionInvalid },
);
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionRequest>;

/** PUT /api/push/settings: the whole object, no other key. */
export const pushSettingsRequest = z.strictObject(
  {
    escalations: z.boolean({ error: pushMessages.settingInvalid }),
    waiting: z.boolean({ error: pushMessages.settingInvalid }),
    /** Issue 32: left out (an older client) keeps the stored one. */
    email: z.optional(z.boolean({ error: pushMessages.settingInvalid })),
  },
  { error: pushMessages.settingInvalid },
);
export type PushSettingsInput = z.infer<typeof pushSettingsRequest>;

/** A subscribed device as the API shows it (its keys never leave the server). */
export interface PushDevice {
  _id: string;
  /** The push subscription's endpoint: the page finds "this device" by it. */
  endpoint: string;
  /** The push service's host (fcm.googleapis.com, updates.push.services.mozilla.com, web.push.apple.com). */
  service: string;
  label: string;
  createdAt: string;
  /** The last push the push service accepted for it; null = none yet. */
  lastPushAt: string | null;
}

/** What a push carries to the service worker (encrypted end to end, RFC 8291). */
export interface PushPayload {
  title: string;
  body: string;
  /** Where a click opens the app (same origin). */
  url: string;
  /** One notification per subject on the device: a repeat replaces it. */
  tag: string;
  /** The notification it is about; absent for a test push. */
  notificationId?: string;
}
