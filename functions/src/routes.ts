/**
 * The route manifest: the single list of API routes, WebSocket APIs, queue workers and schedules.
 *
 * The CDK stack creates one Lambda function per route group and the API Gateway
 * routes that serve these entries (route-plan.ts: greedy routes where a prefix's entries
 * are alike); the local gateway serves the same plan. A route never exists in two lists.
 * `needs` drives least-privilege grants in infra/.
 */

import type * as z from 'zod/mini';
import type { ActivityAction, MemberRole } from './contract/team.js';
import { bookingEventsJob, callSummaryJob, contactsJob, fileIngestJob, outboundEmailJob, privacyJob, urlScrapeJob, webPushJob, whatsappInboundJob } from './contract/jobs.js';
import { QUEUE_MAX_RECEIVES } from './domain/retry.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * How a route is authenticated:
 * - user:    Cognito JWT (the API Gateway JWT authorizer, or the local gateway's equivalent)
 * - public:  no token (sign-up, login, password reset)
 * - webhook: a provider signature over the raw body, declared per route (`verify` below) and
 *           checked by the HTTP wrapper before anything else (http/webhook-verification.ts)
 * - userOrApiKey: the public API (issue 8): a Cognito JWT or a product API key
 *           (`Authorization: Bearer ak_…` or `x-api-key`), checked by the API authorizer
 *           (`apiAuthorizer` below; a Lambda authorizer in AWS, the same code in the local
 *           gateway). An API key on any other route answers 403.
 */
export type AuthKind = 'user' | 'public' | 'webhook' | 'userOrApiKey';

/** AWS resources a function may touch; infra/ turns each into the narrowest grant. */
export type Need =
  | 'table:read'
  | 'table:write'
  | 'userPool'
  | 'mail'
  | 'uploads:read'
  | 'uploads:write'
  /** Load an agent's knowledge index snapshot (S3 knowledge-index/), and write it back when the chunks had to be loaded instead. */
  | 'knowledge-index:search'
  /** Write an agent's knowledge index snapshot after ingestion. */
  | 'knowledge-index:write'
  /** Customers' WhatsApp media (issue 31, whatsapp-media/ only): read them and sign the inbox's view links. */
  | 'whatsapp-media:read'
  /** Store customers' media and the copies of owners' attachments (encrypted, tagged for retention), and delete them. */
  | 'whatsapp-media:write'
  /** Owners' attachments staged by the browser (incoming/attachments/ only): sign the upload form, read the upload, delete it once sent. */
  | 'attachments:stage'
  /** Read agents' documents (agents/ only): a file the agent sent (send_file, issue 31) sent again by a retry. */
  | 'agent-files:read'
  /** Read a person's export ZIP (tmp/privacy-exports/ only, issue 33): sign its short-lived download link. */
  | 'privacy-exports:read'
  /** List the uploads bucket's keys under a prefix (issue 33: the account's deletion finds every object of the account; s3:ListBucket). */
  | 'uploads:list'
  /** Transcribe customers' voice notes (issue 31): no AWS grant, the deploy's OPENAI_TRANSCRIPTION_MODEL when one is chosen. */
  | 'transcription'
  | 'secrets:encrypt'
  | 'secrets:decrypt'
  /** Stripe API key, webhook secret and price ids (from a Secrets Manager secret in AWS). */
  | 'stripe'
  | 'queue:url-scrape'
  | 'queue:file-ingest'
  | 'queue:whatsapp-inbound'
  | 'queue:call-summary'
  | 'queue:contacts-jobs'
  /** Queue an e-mail to an account's owner (issue 34: alerts, call summaries); only the outbound-email worker has 'mail' for them. */
  | 'queue:outbound-email'
  /** Queue a Web Push to an account's owner's devices (issue 29: escalations, waiting messages, the test button). */
  | 'queue:web-push'
  /** Report a booking's change to its listeners (issue 30: every function that books, moves or cancels; the reminders schedule). */
  | 'queue:booking-events'
  /** Erase or export one person's data, or delete the account (issue 33). */
  | 'queue:privacy-jobs'
  /** Read the VAPID key pair of Web Push (a Secrets Manager secret in AWS, local config otherwise). */
  | 'push-keys'
  /** Read the Google Calendar connection's OAuth client (issue 30; a Secrets Manager secret in AWS, local config otherwise). */
  | 'google-calendar'
  /** Post to and close connections of the voice-relay WebSocket API (execute-api:ManageConnections). */
  | 'sockets:voice-relay'
  /** Invoke the voice-relay function asynchronously (the incoming-call webhook warms it up). */
  | 'invoke:voice-relay';

export interface RouteGroup {
  /** Handler module, relative to functions/ (exports `handler`). */
  entry: string;
  description: string;
  needs: readonly Need[];
  /** Seconds; API Gateway caps integrations at 30. */
  timeout?: number;
  memoryMb?: number;
}

export const routeGroups = {
  // Route groups are cut along the SDK clients their routes use, so no function bundles a
  // client it never calls (bundle budget: 400 KB minified, see npm run bench).
  auth: {
    entry: 'src/handlers/auth.ts',
    description: 'Register, login, token refresh, Google sign-in, password reset',
    needs: ['table:read', 'table:write', 'userPool', 'uploads:read'],
  },
  codes: {
    entry: 'src/handlers/codes.ts',
    description: 'E-mails sign-up verification and password reset codes',
    needs: ['table:read', 'table:write', 'mail'],
  },
  account: {
    entry: 'src/handlers/account.ts',
    description: 'The signed-in user: profile, settings, password change, logout (sign out everywhere)',
    needs: ['table:read', 'table:write', 'userPool', 'uploads:read'],
  },
  avatar: {
    entry: 'src/handlers/avatar.ts',
    description: 'The signed-in user: avatar upload',
    needs: ['table:read', 'table:write', 'uploads:read', 'uploads:write'],
  },
  subscription: {
    entry: 'src/handlers/subscription.ts',
    description: 'Subscription state, plans, usage analytics and limit checks (DynamoDB only)',
    needs: ['table:read', 'table:write'],
  },
  billing: {
    entry: 'src/handlers/billing.ts',
    description: 'Stripe checkout, plan change, cancellation, billing portal, payment verification',
    needs: ['table:read', 'table:write', 'stripe'],
  },
  contacts: {
    entry: 'src/handlers/contacts.ts',
    description: "Contacts: list, search, CRUD, stats, CSV import/export, a call's extracted contact data applied (DynamoDB only)",
    needs: ['table:read', 'table:write'],
  },
  // Its own function (issue 19): the presigned upload, the file read for the preview and the
  // queue stay out of the contacts bundle, and the contacts group stays DynamoDB-only.
  'contact-jobs': {
    entry: 'src/handlers/contact-jobs.ts',
    description: 'Contacts CSV import and export as background jobs: presigned upload, preview with column mapping, job status, error report, undo, export link',
    needs: ['table:read', 'table:write', 'uploads:read', 'uploads:write', 'queue:contacts-jobs'],
  },
  integrations: {
    entry: 'src/handlers/integrations.ts',
    description: 'Integrations list and the ChatGPT integration: setup, test, AI-improve, disconnect',
    needs: ['table:read', 'table:write', 'secrets:encrypt', 'secrets:decrypt'],
    timeout: 29,
  },
  agents: {
    entry: 'src/handlers/agents.ts',
    description: 'Agents, their files (presigned uploads), web URLs and custom tools',
    needs: ['table:read', 'table:write', 'secrets:encrypt', 'uploads:read', 'uploads:write', 'queue:url-scrape', 'queue:file-ingest'],
  },
  'agent-chat': {
    entry: 'src/handlers/agent-chat.ts',
    // Also the knowledge entries and unanswered questions (issue 18): they need the same model
    // connection (entries are embedded) and table writes, and a function of their own would put
    // the stack over CloudFormation's 500 resources.
    description: 'The agent runtime behind the Test Agent chat (retrieval, model, custom tools, unanswered questions recorded), knowledge entries and the unanswered list',
    // queue:booking-events: the agent's booking tools report each change (issue 30); google-calendar: their free slots count Google busy times.
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'knowledge-index:search', 'queue:booking-events', 'google-calendar'],
    timeout: 29,
    // Vectors of an agent's knowledge stay in memory between warm invocations.
    memoryMb: 1024,
  },
  'whatsapp-webhook': {
    entry: 'src/handlers/whatsapp-webhook.ts',
    description: 'WhatsApp webhook: verification handshake, X-Hub-Signature-256 check, enqueue the delivery',
    // uploads:write: a piece of an oversized delivery too big for SQS is parked in the bucket.
    needs: ['table:read', 'secrets:decrypt', 'queue:whatsapp-inbound', 'uploads:write'],
  },
  conversations: {
    entry: 'src/handlers/conversations.ts',
    description: 'WhatsApp conversations: board overview, list, stats, detail, status/notes, escalation, human reply (with an attachment), templates, answer waiting messages, delete',
    // queue:outbound-email: an owner's escalation alerts by e-mail (issue 17), queued (issue 34: no SES client here).
    // queue:whatsapp-inbound: "Answer waiting messages" (issue 34). queue:web-push: the alerts' pushes (issue 29).
    // Issue 31: attachments:stage: an attachment's signed upload under incoming/attachments/, its read and deletion;
    // whatsapp-media:*: our copy under whatsapp-media/ (tagged for retention) and the inbox's media links.
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'queue:outbound-email', 'queue:whatsapp-inbound', 'queue:web-push', 'attachments:stage', 'whatsapp-media:read', 'whatsapp-media:write'],
  },
  notifications: {
    entry: 'src/handlers/notifications.ts',
    description: "In-app notifications of escalations: list with the unread count, mark one or all read; the owner's Web Push devices and which events push (issue 29)",
    // push-keys: the VAPID public key the browser subscribes with; queue:web-push: a device's test push.
    needs: ['table:read', 'table:write', 'push-keys', 'queue:web-push'],
  },
  messages: {
    entry: 'src/handlers/messages.ts',
    description: 'WhatsApp messages: Message Hub list, stats, latest, detail, retry of a failed send, delete',
    // queue:outbound-email: a retry Meta refuses for the token e-mails the owner that WhatsApp needs attention (issue 34).
    // whatsapp-media:read (issue 31): the Message Hub's media links are signed here, and a failed attachment's copy is read to send it again;
    // agent-files:read: so is a document the agent sent (send_file), read from the agent's files.
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'queue:outbound-email', 'whatsapp-media:read', 'agent-files:read'],
  },
  'twilio-integration': {
    entry: 'src/handlers/twilio-integration.ts',
    description: 'Twilio Voice integration: setup (points the number at our webhooks through the REST API) and test',
    needs: ['table:read', 'table:write', 'secrets:encrypt', 'secrets:decrypt'],
    timeout: 29,
  },
  'voice-webhook': {
    entry: 'src/handlers/voice-webhook.ts',
    description: 'Twilio call loop: X-Twilio-Signature check, incoming call, speech turns with the agent, status and recording callbacks',
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'queue:call-summary', 'invoke:voice-relay', 'knowledge-index:search', 'queue:booking-events', 'google-calendar'],
    // Twilio waits 15 s for TwiML; a turn is bounded by VOICE_LIMITS.turnMs.
    timeout: 14,
    memoryMb: 1024,
  },
  'voice-settings': {
    entry: 'src/handlers/voice-settings.ts',
    description: 'Voice settings, reset, phone-number request and the summary webhook signing secret',
    needs: ['table:read', 'table:write', 'secrets:encrypt', 'secrets:decrypt'],
  },
  'voice-conversations': {
    entry: 'src/handlers/voice-conversations.ts',
    description: "Call logs: list, search, detail, recording playback, the summary e-mail's Resend",
    // queue:outbound-email: Resend queues the summary e-mail again (issue 34).
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'queue:outbound-email'],
  },
  admin: {
    entry: 'src/handlers/admin.ts',
    description: "Administrators (Cognito group 'admin'): phone-number requests to approve, reject or assign",
    needs: ['table:read', 'table:write', 'mail'],
  },
  dashboard: {
    entry: 'src/handlers/dashboard.ts',
    description: 'Dashboard: per-day call, message and contact figures from counter items, recent activity, the getting-started checklist',
    // write: only the checklist's "hidden" preference (GETTING_STARTED item).
    needs: ['table:read', 'table:write'],
  },
  'inbox-settings': {
    entry: 'src/handlers/inbox-settings.ts',
    // Its own function: the alert number's normalisation (libphonenumber metadata) stays out of the board's bundle.
    description: 'Inbox settings (issue 17): the AI idle resume time and the escalation alerts (e-mail, WhatsApp number)',
    needs: ['table:read', 'table:write'],
  },
  'api-keys': {
    entry: 'src/handlers/api-keys.ts',
    description: 'API keys: list, create (shown once), regenerate, delete',
    needs: ['table:read', 'table:write'],
  },
  'saved-replies': {
    entry: 'src/handlers/saved-replies.ts',
    description: "Saved replies: the owner's short answers (title + text) for the reply box's / shortcut",
    needs: ['table:read', 'table:write'],
  },
  // Issue 30: the owner's own calendar. Apart from the bookings group: the public feed answers a
  // calendar app's poll without the core's write paths, and only the Google group holds the OAuth client.
  'calendar-feed': {
    entry: 'src/handlers/calendar-feed.ts',
    description: "Bookings' private iCalendar feeds: the owner's feed links (list, create or rotate, revoke) and the public feed a calendar app subscribes to",
    needs: ['table:read', 'table:write'],
  },
  'google-calendar': {
    entry: 'src/handlers/google-calendar.ts',
    description: 'Google Calendar connection: status with the calendars, OAuth connect and callback (refresh token sealed), calendar choices, disconnect (revoked at Google)',
    needs: ['table:read', 'table:write', 'secrets:encrypt', 'secrets:decrypt', 'google-calendar'],
  },
  bookings: {
    entry: 'src/handlers/bookings.ts',
    description: 'Bookings (issue 30): booking settings, services, staff or rooms with their hours and closures, free slots, bookings (the owner, and the public API with a key)',
    // secrets:decrypt + google-calendar: the free slots leave out the busy times of the owner's Google Calendar (its refresh token is sealed).
    // queue:booking-events: each booking, move and cancel is reported to its listeners (confirmations, reminders…).
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'google-calendar', 'queue:booking-events'],
  },
  // Issue 32: members, invitations (e-mailed through the outbound-email queue), roles, ownership, the activity log.
  // userPool: a removed member is signed out everywhere (AdminUserGlobalSignOut) and looked up by e-mail.
  team: {
    entry: 'src/handlers/team.ts',
    description: 'The team in one account: members and roles, invitations (sent, previewed, accepted, revoked), leaving, ownership transfer, the activity log',
    needs: ['table:read', 'table:write', 'userPool', 'queue:outbound-email'],
  },
  // Issue 33: patients' data under the owner's control. DynamoDB and the queue only: the
  // deletions (S3, Twilio, Google, Stripe, Cognito) run in the privacy-jobs worker.
  privacy: {
    entry: 'src/handlers/privacy.ts',
    description: "Privacy: the account's retention, AI notices and opt-out words; what is held about a person; their erasure and export as jobs; the account's deletion",
    // privacy-exports:read: the export's download link (tmp/privacy-exports/ only, not the whole bucket).
    needs: ['table:read', 'table:write', 'privacy-exports:read', 'queue:privacy-jobs'],
  },
  'stripe-webhook': {
    entry: 'src/handlers/stripe-webhook.ts',
    description: 'Stripe webhook: signature check, idempotent subscription updates',
    needs: ['table:read', 'table:write', 'stripe'],
  },
} as const satisfies Record<string, RouteGroup>;

export type RouteGroupName = keyof typeof routeGroups;

/** Webhook providers whose signatures the HTTP wrapper verifies (one verifier adapter each). */
export type WebhookProvider = 'stripe' | 'twilio' | 'whatsapp';

/**
 * How a 'webhook' route is verified: the provider's signature scheme and where its secret is.
 * - stripe / 'stripe-config': Stripe-Signature (300 s tolerance) with the webhook signing secret
 *   of the Stripe configuration (Secrets Manager in AWS, STRIPE_WEBHOOK_SECRET locally);
 * - twilio / 'path-user-integration': X-Twilio-Signature over the public URL with the auth token
 *   of the {userId}'s active Twilio Voice integration (its AccountSid must match);
 * - whatsapp / 'path-integration': X-Hub-Signature-256 with the app secret of the
 *   {integrationId} WhatsApp integration (GET: Meta's handshake with its verify token).
 */
export type WebhookVerification =
  | { provider: 'stripe'; secret: 'stripe-config' }
  | { provider: 'twilio'; secret: 'path-user-integration' }
  | { provider: 'whatsapp'; secret: 'path-integration' };

export interface RouteDef {
  method: HttpMethod;
  /** API Gateway path template: /api/contacts/{id} */
  path: string;
  group: RouteGroupName;
  auth: AuthKind;
  /**
   * 'subscription': a paid feature. Without an active or trialing subscription the HTTP layer
   * answers 402 before the route runs (http/handler.ts). Set on the writes that create or change
   * agents (with their files, URLs, tools and chat), integrations, API keys and phone-number
   * requests; reads and clean-up (delete, disable, disconnect, cancel a request) stay open so a
   * lapsed customer can still see and remove their data.
   */
  requires?: 'subscription';
  /** 'webhook' routes only (and all of them): the signature check run before the route. */
  verify?: WebhookVerification;
  /**
   * 'user' and 'userOrApiKey' routes (all of them; issue 32): the least role in the account the
   * caller needs — owner ⊃ admin ⊃ agent. The HTTP layer answers 403 before the route runs
   * (http/handler.ts); an API key acts as an admin. A route without one is refused to everyone
   * but the owner (fail closed), and a unit test requires one on every such route.
   */
  role?: MemberRole;
  /** Issue 32: the account's activity log records this action, once, after the route succeeded (http/handler.ts). */
  activity?: ActivityAction;
}

/** "METHOD /path" of the routes flagged `requires: 'subscription'`. */
export function subscriptionRouteKeys(list: readonly RouteDef[] = routes): Set<string> {
  return new Set(list.filter((r) => r.requires === 'subscription').map((r) => `${r.method} ${r.path}`));
}

/** "METHOD /path" of the 'userOrApiKey' routes (the API-key checks run only for these). */
export function apiKeyRouteKeys(list: readonly RouteDef[] = routes): Set<string> {
  return new Set(list.filter((r) => r.auth === 'userOrApiKey').map((r) => `${r.method} ${r.path}`));
}

/** "METHOD /path" → the least role in the account it needs, for the 'user' and 'userOrApiKey' routes. */
export function routeRoles(list: readonly RouteDef[] = routes): Record<string, MemberRole> {
  return Object.fromEntries(list.flatMap((r) => (r.auth === 'user' || r.auth === 'userOrApiKey' ? [[`${r.method} ${r.path}`, r.role ?? 'owner']] : [])));
}

/** "METHOD /path" → the activity-log action it records, for the routes that declare one. */
export function routeActivities(list: readonly RouteDef[] = routes): Record<string, ActivityAction> {
  return Object.fromEntries(list.flatMap((r) => (r.activity ? [[`${r.method} ${r.path}`, r.activity]] : [])));
}

/** "METHOD /path" → how the route's webhook signature is verified, for the 'webhook' routes. */
export function webhookVerifications(list: readonly RouteDef[] = routes): Record<string, WebhookVerification> {
  return Object.fromEntries(list.flatMap((r) => (r.verify ? [[`${r.method} ${r.path}`, r.verify]] : [])));
}

const STRIPE = { provider: 'stripe', secret: 'stripe-config' } as const;
const TWILIO = { provider: 'twilio', secret: 'path-user-integration' } as const;
const WHATSAPP = { provider: 'whatsapp', secret: 'path-integration' } as const;

export const routes = [
  // Auth (SPEC §7 Auth)
  { method: 'POST', path: '/api/send-verification', group: 'codes', auth: 'public' },
  { method: 'POST', path: '/api/register', group: 'auth', auth: 'public' },
  { method: 'POST', path: '/api/login', group: 'auth', auth: 'public' },
  { method: 'POST', path: '/api/refresh-token', group: 'auth', auth: 'public' },
  { method: 'POST', path: '/api/google-auth', group: 'auth', auth: 'public' },
  { method: 'POST', path: '/api/send-password-reset', group: 'codes', auth: 'public' },
  { method: 'POST', path: '/api/reset-password', group: 'auth', auth: 'public' },
  // The signed-in user
  { method: 'GET', path: '/api/me', group: 'account', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/update-password', group: 'account', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/logout', group: 'account', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/settings', group: 'account', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/user/profile', group: 'account', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/user/profile', group: 'account', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/user/business-location', group: 'account', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/user/business-location', group: 'account', auth: 'user', role: 'admin', activity: 'account_settings.changed' },
  { method: 'DELETE', path: '/api/user/business-location', group: 'account', auth: 'user', role: 'admin', activity: 'account_settings.changed' },
  { method: 'POST', path: '/api/user/avatar', group: 'avatar', auth: 'user', role: 'agent' },
  // Subscription (SPEC §7 Subscription)
  { method: 'GET', path: '/api/subscription/current', group: 'subscription', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/subscription/plans', group: 'subscription', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/subscription/analytics', group: 'subscription', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/subscription/check-limit', group: 'subscription', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/subscription/checkout', group: 'billing', auth: 'user', role: 'owner', activity: 'billing.changed' },
  { method: 'GET', path: '/api/subscription/verify-session/{id}', group: 'billing', auth: 'user', role: 'owner' },
  { method: 'PUT', path: '/api/subscription/plan', group: 'billing', auth: 'user', role: 'owner', activity: 'billing.changed' },
  { method: 'POST', path: '/api/subscription/cancel', group: 'billing', auth: 'user', role: 'owner', activity: 'billing.changed' },
  { method: 'POST', path: '/api/subscription/portal', group: 'billing', auth: 'user', role: 'owner' },
  { method: 'POST', path: '/api/webhooks/stripe', group: 'stripe-webhook', auth: 'webhook', verify: STRIPE },
  // Contacts (SPEC §7 Contacts; import/export: the bulk operations)
  { method: 'GET', path: '/api/contacts', group: 'contacts', auth: 'userOrApiKey', role: 'agent' },
  { method: 'POST', path: '/api/contacts', group: 'contacts', auth: 'userOrApiKey', role: 'agent', activity: 'contact.created' },
  { method: 'GET', path: '/api/contacts/stats', group: 'contacts', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/contacts/facets', group: 'contacts', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/contacts/bulk-delete', group: 'contacts', auth: 'user', role: 'agent', activity: 'contacts.bulk_deleted' },
  { method: 'POST', path: '/api/contacts/bulk-tag', group: 'contacts', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/contacts/export', group: 'contacts', auth: 'user', role: 'agent', activity: 'contacts.exported' },
  { method: 'POST', path: '/api/contacts/import/preview', group: 'contacts', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/contacts/import', group: 'contacts', auth: 'user', role: 'agent', activity: 'contacts.imported' },
  { method: 'POST', path: '/api/contacts/import-whatsapp', group: 'contacts', auth: 'user', role: 'agent', activity: 'contacts.imported' },
  // Import and export as background jobs (issue 19)
  { method: 'POST', path: '/api/contacts/import-jobs/uploads', group: 'contact-jobs', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/contacts/import-jobs/preview', group: 'contact-jobs', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/contacts/import-jobs', group: 'contact-jobs', auth: 'user', role: 'agent', activity: 'contacts.imported' },
  { method: 'GET', path: '/api/contacts/import-jobs', group: 'contact-jobs', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/contacts/import-jobs/{id}', group: 'contact-jobs', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/contacts/import-jobs/{id}/undo', group: 'contact-jobs', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/contacts/export-jobs', group: 'contact-jobs', auth: 'user', role: 'agent', activity: 'contacts.exported' },
  { method: 'GET', path: '/api/contacts/export-jobs/{id}', group: 'contact-jobs', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/contacts/{id}', group: 'contacts', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/contacts/{id}', group: 'contacts', auth: 'user', role: 'agent', activity: 'contact.updated' },
  { method: 'GET', path: '/api/contacts/{id}/timeline', group: 'contacts', auth: 'user', role: 'agent' },
  { method: 'DELETE', path: '/api/contacts/{id}', group: 'contacts', auth: 'user', role: 'agent', activity: 'contact.deleted' },
  // Integrations (SPEC §7 Integrations; {type} is chatgpt, twilio-voice or whatsapp-business)
  { method: 'GET', path: '/api/integrations', group: 'integrations', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/integrations/chatgpt/setup', group: 'integrations', auth: 'user', role: 'admin', activity: 'integration.changed', requires: 'subscription' },
  { method: 'POST', path: '/api/integrations/chatgpt/test', group: 'integrations', auth: 'user', role: 'admin', requires: 'subscription' },
  { method: 'POST', path: '/api/integrations/chatgpt/ask', group: 'integrations', auth: 'user', role: 'admin', requires: 'subscription' },
  { method: 'POST', path: '/api/integrations/whatsapp-business/setup', group: 'integrations', auth: 'user', role: 'admin', activity: 'integration.changed', requires: 'subscription' },
  { method: 'POST', path: '/api/integrations/whatsapp-business/test', group: 'integrations', auth: 'user', role: 'admin', requires: 'subscription' },
  { method: 'POST', path: '/api/integrations/twilio-voice/setup', group: 'twilio-integration', auth: 'user', role: 'admin', activity: 'integration.changed', requires: 'subscription' },
  { method: 'POST', path: '/api/integrations/twilio-voice/test', group: 'twilio-integration', auth: 'user', role: 'admin', requires: 'subscription' },
  { method: 'GET', path: '/api/integrations/{type}', group: 'integrations', auth: 'user', role: 'admin' },
  { method: 'PUT', path: '/api/integrations/{type}', group: 'integrations', auth: 'user', role: 'admin', activity: 'integration.changed', requires: 'subscription' },
  { method: 'DELETE', path: '/api/integrations/{type}', group: 'integrations', auth: 'user', role: 'admin', activity: 'integration.disconnected' },
  // Google Calendar (issue 30): Google sends the browser back to the public callback with our single-use state.
  { method: 'GET', path: '/api/integrations/google-calendar', group: 'google-calendar', auth: 'user', role: 'admin' },
  { method: 'PUT', path: '/api/integrations/google-calendar', group: 'google-calendar', auth: 'user', role: 'admin', activity: 'integration.changed', requires: 'subscription' },
  { method: 'DELETE', path: '/api/integrations/google-calendar', group: 'google-calendar', auth: 'user', role: 'admin', activity: 'integration.disconnected' },
  { method: 'POST', path: '/api/integrations/google-calendar/connect', group: 'google-calendar', auth: 'user', role: 'admin', requires: 'subscription' },
  { method: 'GET', path: '/api/integrations/google-calendar/callback', group: 'google-calendar', auth: 'public' },
  // The private iCalendar feeds (issue 30): the public feed's token in the path is its credential.
  { method: 'GET', path: '/api/bookings/calendar-feed', group: 'calendar-feed', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/bookings/calendar-feed', group: 'calendar-feed', auth: 'user', role: 'admin', requires: 'subscription' },
  { method: 'DELETE', path: '/api/bookings/calendar-feed', group: 'calendar-feed', auth: 'user', role: 'admin' },
  { method: 'GET', path: '/api/calendar-feeds/{token}', group: 'calendar-feed', auth: 'public' },
  // Agents (SPEC §7 Agents)
  { method: 'GET', path: '/api/agents', group: 'agents', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/agents', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.created', requires: 'subscription' },
  { method: 'POST', path: '/api/agents/chat', group: 'agent-chat', auth: 'userOrApiKey', role: 'admin', requires: 'subscription' },
  { method: 'GET', path: '/api/agents/{id}', group: 'agents', auth: 'user', role: 'admin' },
  { method: 'PUT', path: '/api/agents/{id}', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.updated', requires: 'subscription' },
  { method: 'DELETE', path: '/api/agents/{id}', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.deleted' },
  { method: 'POST', path: '/api/agents/{id}/enable', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.updated', requires: 'subscription' },
  { method: 'POST', path: '/api/agents/{id}/disable', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.updated' },
  { method: 'POST', path: '/api/agents/{id}/chat', group: 'agent-chat', auth: 'userOrApiKey', role: 'admin', requires: 'subscription' },
  { method: 'GET', path: '/api/agents/{id}/files', group: 'agents', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/agents/{id}/files', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'POST', path: '/api/agents/{id}/files/uploads', group: 'agents', auth: 'user', role: 'admin', requires: 'subscription' },
  { method: 'POST', path: '/api/agents/{id}/files/{fileId}/complete', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'POST', path: '/api/agents/{id}/files/{fileId}/reprocess', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'PATCH', path: '/api/agents/{id}/files/{fileId}', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'DELETE', path: '/api/agents/{id}/files/{fileId}', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed' },
  { method: 'GET', path: '/api/files/{id}', group: 'agents', auth: 'user', role: 'admin' },
  { method: 'GET', path: '/api/agents/{id}/urls', group: 'agents', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/agents/{id}/urls', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'PUT', path: '/api/agents/{id}/urls/{urlId}', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'POST', path: '/api/agents/{id}/urls/{urlId}/reprocess', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'DELETE', path: '/api/agents/{id}/urls/{urlId}', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed' },
  { method: 'GET', path: '/api/agents/{id}/tools', group: 'agents', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/agents/{id}/tools', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'PUT', path: '/api/agents/{id}/tools/{toolId}', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'DELETE', path: '/api/agents/{id}/tools/{toolId}', group: 'agents', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed' },
  // Knowledge entries and unanswered questions (issue 18: the "teach the agent" loop)
  { method: 'GET', path: '/api/agents/{id}/entries', group: 'agent-chat', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/agents/{id}/entries', group: 'agent-chat', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'PUT', path: '/api/agents/{id}/entries/{entryId}', group: 'agent-chat', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'DELETE', path: '/api/agents/{id}/entries/{entryId}', group: 'agent-chat', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed' },
  { method: 'GET', path: '/api/agents/{id}/unanswered', group: 'agent-chat', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/agents/{id}/unanswered/answer', group: 'agent-chat', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed', requires: 'subscription' },
  { method: 'POST', path: '/api/agents/{id}/unanswered/dismiss', group: 'agent-chat', auth: 'user', role: 'admin', activity: 'agent.knowledge_changed' },
  // WhatsApp (SPEC §7 Messages, Conversations; webhook URL {api}/api/webhooks/whatsapp-business/{integrationId})
  { method: 'GET', path: '/api/webhooks/whatsapp-business/{integrationId}', group: 'whatsapp-webhook', auth: 'webhook', verify: WHATSAPP },
  { method: 'POST', path: '/api/webhooks/whatsapp-business/{integrationId}', group: 'whatsapp-webhook', auth: 'webhook', verify: WHATSAPP },
  { method: 'GET', path: '/api/conversations/overview', group: 'conversations', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/conversations/stats', group: 'conversations', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/conversations', group: 'conversations', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/conversations/{id}', group: 'conversations', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/conversations/{id}', group: 'conversations', auth: 'user', role: 'agent', activity: 'conversation.updated' },
  { method: 'DELETE', path: '/api/conversations/{id}', group: 'conversations', auth: 'user', role: 'agent', activity: 'conversation.deleted' },
  { method: 'POST', path: '/api/conversations/{id}/escalate', group: 'conversations', auth: 'user', role: 'agent' },
  // A person's reply, also from an external system with an API key (issue 17: it pauses the AI too).
  { method: 'POST', path: '/api/conversations/{id}/messages', group: 'conversations', auth: 'userOrApiKey', role: 'agent', activity: 'conversation.replied' },
  // Issue 31: a file to attach to that reply (a signed form upload to the staging prefix, then the reply names it).
  { method: 'POST', path: '/api/conversations/{id}/attachments', group: 'conversations', auth: 'userOrApiKey', role: 'agent' },
  { method: 'POST', path: '/api/conversations/{id}/resume-ai', group: 'conversations', auth: 'user', role: 'agent' },
  // Issue 34: the customers' messages the model could not answer, answered now (one conversation's, or all).
  { method: 'POST', path: '/api/conversations/answer-waiting', group: 'conversations', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/conversations/{id}/answer-waiting', group: 'conversations', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/inbox-settings', group: 'inbox-settings', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/inbox-settings', group: 'inbox-settings', auth: 'user', role: 'admin', activity: 'account_settings.changed' },
  // Notifications (issue 17: escalation alerts)
  { method: 'GET', path: '/api/notifications', group: 'notifications', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/notifications/read-all', group: 'notifications', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/notifications/{id}/read', group: 'notifications', auth: 'user', role: 'agent' },
  // Web Push (issue 29): the VAPID public key, the owner's devices, a test push, which events push.
  { method: 'GET', path: '/api/push/public-key', group: 'notifications', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/push/devices', group: 'notifications', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/push/devices', group: 'notifications', auth: 'user', role: 'agent' },
  { method: 'DELETE', path: '/api/push/devices/{id}', group: 'notifications', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/push/devices/{id}/test', group: 'notifications', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/push/settings', group: 'notifications', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/push/settings', group: 'notifications', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/conversations/{id}/template', group: 'conversations', auth: 'user', role: 'agent', activity: 'conversation.replied' },
  { method: 'GET', path: '/api/whatsapp/templates', group: 'conversations', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/messages', group: 'messages', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/messages/stats', group: 'messages', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/messages/latest', group: 'messages', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/messages/{id}', group: 'messages', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/messages/{id}/retry', group: 'messages', auth: 'user', role: 'agent' },
  { method: 'DELETE', path: '/api/messages/{id}', group: 'messages', auth: 'user', role: 'agent', activity: 'message.deleted' },
  // Voice (SPEC §7 Voice; Twilio calls {api}/api/webhooks/twilio/{userId}/voice)
  { method: 'POST', path: '/api/webhooks/twilio/{userId}/voice', group: 'voice-webhook', auth: 'webhook', verify: TWILIO },
  { method: 'POST', path: '/api/webhooks/twilio/{userId}/voice/gather', group: 'voice-webhook', auth: 'webhook', verify: TWILIO },
  { method: 'POST', path: '/api/webhooks/twilio/{userId}/voice/status', group: 'voice-webhook', auth: 'webhook', verify: TWILIO },
  { method: 'POST', path: '/api/webhooks/twilio/{userId}/voice/recording', group: 'voice-webhook', auth: 'webhook', verify: TWILIO },
  // <Connect action>: the ConversationRelay session ended (handoff to a human → <Dial>, or the end)
  { method: 'POST', path: '/api/webhooks/twilio/{userId}/voice/relay-action', group: 'voice-webhook', auth: 'webhook', verify: TWILIO },
  { method: 'GET', path: '/api/voice-settings', group: 'voice-settings', auth: 'user', role: 'admin' },
  { method: 'PUT', path: '/api/voice-settings', group: 'voice-settings', auth: 'user', role: 'admin', activity: 'voice_settings.changed' },
  { method: 'POST', path: '/api/voice-settings/reset', group: 'voice-settings', auth: 'user', role: 'admin', activity: 'voice_settings.changed' },
  { method: 'POST', path: '/api/voice-settings/request-phone', group: 'voice-settings', auth: 'user', role: 'admin', requires: 'subscription' },
  { method: 'DELETE', path: '/api/voice-settings/request-phone', group: 'voice-settings', auth: 'user', role: 'admin' },
  { method: 'GET', path: '/api/voice-settings/webhook-secret', group: 'voice-settings', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/voice-settings/webhook-secret/rotate', group: 'voice-settings', auth: 'user', role: 'admin' },
  { method: 'GET', path: '/api/voice-conversations', group: 'voice-conversations', auth: 'userOrApiKey', role: 'agent' },
  { method: 'GET', path: '/api/voice-conversations/{id}', group: 'voice-conversations', auth: 'userOrApiKey', role: 'agent' },
  { method: 'GET', path: '/api/voice-conversations/{id}/recording', group: 'voice-conversations', auth: 'user', role: 'agent' },
  // Issue 34: the summary e-mail queued again (after a failure, or to get it once more).
  { method: 'POST', path: '/api/voice-conversations/{id}/resend-summary', group: 'voice-conversations', auth: 'user', role: 'agent' },
  // Apply-contact writes a contact: served by the contacts group, which carries the contacts service.
  { method: 'GET', path: '/api/voice-conversations/{id}/apply-contact/preview', group: 'contacts', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/voice-conversations/{id}/apply-contact', group: 'contacts', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/voice-conversations/{id}/apply-contact/undo', group: 'contacts', auth: 'user', role: 'agent' },
  // Admin (SPEC §6; the handler checks the Cognito 'admin' group)
  { method: 'GET', path: '/api/admin/phone-requests', group: 'admin', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/admin/phone-requests/{userId}/approve', group: 'admin', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/admin/phone-requests/{userId}/reject', group: 'admin', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/admin/phone-requests/{userId}/assign', group: 'admin', auth: 'user', role: 'admin' },
  // Dashboard (SPEC §7 Dashboard)
  { method: 'GET', path: '/api/dashboard', group: 'dashboard', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/dashboard/voice-trends', group: 'dashboard', auth: 'user', role: 'agent' },
  // The getting-started checklist (issue 19): steps derived from the account's data; PUT hides it.
  { method: 'GET', path: '/api/dashboard/getting-started', group: 'dashboard', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/dashboard/getting-started', group: 'dashboard', auth: 'user', role: 'admin' },
  // API keys (SPEC §7 API keys)
  { method: 'GET', path: '/api/api-keys', group: 'api-keys', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/api-keys', group: 'api-keys', auth: 'user', role: 'admin', activity: 'api_key.created', requires: 'subscription' },
  { method: 'PUT', path: '/api/api-keys/{id}/regenerate', group: 'api-keys', auth: 'user', role: 'admin', activity: 'api_key.regenerated', requires: 'subscription' },
  { method: 'DELETE', path: '/api/api-keys/{id}', group: 'api-keys', auth: 'user', role: 'admin', activity: 'api_key.deleted' },
  // Saved replies (issue 17)
  { method: 'GET', path: '/api/saved-replies', group: 'saved-replies', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/saved-replies', group: 'saved-replies', auth: 'user', role: 'agent' },
  { method: 'GET', path: '/api/saved-replies/{id}', group: 'saved-replies', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/saved-replies/{id}', group: 'saved-replies', auth: 'user', role: 'agent' },
  { method: 'DELETE', path: '/api/saved-replies/{id}', group: 'saved-replies', auth: 'user', role: 'agent' },
  // Bookings (issue 30): the setup is the owner's; the bookings, the free slots and the ids a client needs (services, staff) are the public API's too.
  { method: 'GET', path: '/api/bookings/settings', group: 'bookings', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/bookings/settings', group: 'bookings', auth: 'user', role: 'admin', activity: 'booking_setup.changed' },
  { method: 'GET', path: '/api/bookings/services', group: 'bookings', auth: 'userOrApiKey', role: 'agent' },
  { method: 'POST', path: '/api/bookings/services', group: 'bookings', auth: 'user', role: 'admin', activity: 'booking_setup.changed' },
  { method: 'GET', path: '/api/bookings/services/{id}', group: 'bookings', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/bookings/services/{id}', group: 'bookings', auth: 'user', role: 'admin', activity: 'booking_setup.changed' },
  { method: 'DELETE', path: '/api/bookings/services/{id}', group: 'bookings', auth: 'user', role: 'admin', activity: 'booking_setup.changed' },
  { method: 'GET', path: '/api/bookings/staff', group: 'bookings', auth: 'userOrApiKey', role: 'agent' },
  { method: 'POST', path: '/api/bookings/staff', group: 'bookings', auth: 'user', role: 'admin', activity: 'booking_setup.changed' },
  { method: 'GET', path: '/api/bookings/staff/{id}', group: 'bookings', auth: 'user', role: 'agent' },
  { method: 'PUT', path: '/api/bookings/staff/{id}', group: 'bookings', auth: 'user', role: 'admin', activity: 'booking_setup.changed' },
  { method: 'DELETE', path: '/api/bookings/staff/{id}', group: 'bookings', auth: 'user', role: 'admin', activity: 'booking_setup.changed' },
  { method: 'GET', path: '/api/bookings/availability', group: 'bookings', auth: 'userOrApiKey', role: 'agent' },
  { method: 'GET', path: '/api/bookings', group: 'bookings', auth: 'userOrApiKey', role: 'agent' },
  { method: 'POST', path: '/api/bookings', group: 'bookings', auth: 'userOrApiKey', role: 'agent', activity: 'booking.created' },
  { method: 'GET', path: '/api/bookings/{id}', group: 'bookings', auth: 'userOrApiKey', role: 'agent' },
  { method: 'PATCH', path: '/api/bookings/{id}', group: 'bookings', auth: 'userOrApiKey', role: 'agent', activity: 'booking.changed' },
  { method: 'POST', path: '/api/bookings/{id}/cancel', group: 'bookings', auth: 'userOrApiKey', role: 'agent', activity: 'booking.cancelled' },
  // The team in one account (issue 32). The invitation link's token is its credential (public preview); accepting needs a signed-in person.
  { method: 'GET', path: '/api/team', group: 'team', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/team/invitations', group: 'team', auth: 'user', role: 'admin', activity: 'member.invited' },
  { method: 'DELETE', path: '/api/team/invitations/{id}', group: 'team', auth: 'user', role: 'admin', activity: 'member.invitation_revoked' },
  { method: 'POST', path: '/api/team/invitations/{id}/resend', group: 'team', auth: 'user', role: 'admin' },
  { method: 'PUT', path: '/api/team/members/{id}/role', group: 'team', auth: 'user', role: 'admin', activity: 'member.role_changed' },
  { method: 'DELETE', path: '/api/team/members/{id}', group: 'team', auth: 'user', role: 'admin', activity: 'member.removed' },
  { method: 'POST', path: '/api/team/leave', group: 'team', auth: 'user', role: 'agent', activity: 'member.left' },
  { method: 'POST', path: '/api/team/ownership', group: 'team', auth: 'user', role: 'owner', activity: 'account.ownership_transferred' },
  { method: 'GET', path: '/api/team/activity', group: 'team', auth: 'user', role: 'admin' },
  { method: 'GET', path: '/api/invitations/{token}', group: 'team', auth: 'public' },
  { method: 'POST', path: '/api/invitations/accept', group: 'team', auth: 'user', role: 'agent' },
  // What the customer was told on WhatsApp about the booking (confirmations, reminder) and why one did not go out.
  { method: 'GET', path: '/api/bookings/{id}/messages', group: 'bookings', auth: 'user', role: 'agent' },
  // Issue 33: patients' data under the owner's control. A person is named in the body (a contact id or a phone
  // number), never in the URL, so no access log holds it. Erasures and exports log themselves when done, with counts.
  { method: 'GET', path: '/api/privacy/settings', group: 'privacy', auth: 'user', role: 'admin' },
  { method: 'PUT', path: '/api/privacy/settings', group: 'privacy', auth: 'user', role: 'admin', activity: 'privacy_settings.changed' },
  { method: 'POST', path: '/api/privacy/people/lookup', group: 'privacy', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/privacy/erasures', group: 'privacy', auth: 'user', role: 'admin' },
  { method: 'POST', path: '/api/privacy/exports', group: 'privacy', auth: 'user', role: 'admin' },
  { method: 'GET', path: '/api/privacy/jobs', group: 'privacy', auth: 'user', role: 'admin' },
  { method: 'GET', path: '/api/privacy/jobs/{id}', group: 'privacy', auth: 'user', role: 'admin' },
  { method: 'PUT', path: '/api/privacy/opt-out', group: 'privacy', auth: 'user', role: 'agent' },
  { method: 'POST', path: '/api/privacy/account-deletion', group: 'privacy', auth: 'user', role: 'owner', activity: 'account.deletion_requested' },
] as const satisfies readonly RouteDef[];

export type RouteKey = `${(typeof routes)[number]['method']} ${(typeof routes)[number]['path']}`;

export type QueueName = 'url-scrape' | 'file-ingest' | 'whatsapp-inbound' | 'call-summary' | 'contacts-jobs' | 'outbound-email' | 'web-push' | 'booking-events' | 'privacy-jobs';

export interface WorkerDef {
  entry: string;
  description: string;
  /** The message body's schema (contract/jobs.ts): the worker validates with it, senders are typed by it. */
  job: z.ZodMiniType;
  needs: readonly Need[];
  /** Messages per invocation. */
  batchSize: number;
  /** Seconds; the queue's visibility timeout is set to six times this (AWS guidance, domain/retry.ts queueVisibilityTimeoutSeconds). */
  timeout: number;
  /**
   * Deliveries before a message moves to the dead-letter queue: QUEUE_MAX_RECEIVES for every queue
   * (issue 34, the retry schedule of domain/retry.ts). The last of them does not run the job again:
   * it comes only when every earlier one failed (threw, or died without a word: a crash, a timeout,
   * out of memory), and the worker's giveUp records that (workers/sqs-worker.ts) before the message
   * dead-letters. The job itself is tried maxReceiveCount - 1 times (JOB_TRIES).
   */
  maxReceiveCount: number;
  memoryMb?: number;
}

/** One SQS queue (with its dead-letter queue) and one consumer function per entry. */
export const workers = {
  'url-scrape': {
    entry: 'src/workers/url-scrape.ts',
    description: 'Fetches a web page, extracts readable text, chunks and embeds it',
    job: urlScrapeJob,
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'knowledge-index:write'],
    batchSize: 5,
    timeout: 120,
    maxReceiveCount: QUEUE_MAX_RECEIVES,
  },
  'file-ingest': {
    entry: 'src/workers/file-ingest.ts',
    description: 'Extracts text from an uploaded document, chunks and embeds it',
    job: fileIngestJob,
    needs: ['table:read', 'table:write', 'uploads:read', 'secrets:decrypt', 'knowledge-index:write'],
    batchSize: 1,
    timeout: 300,
    maxReceiveCount: QUEUE_MAX_RECEIVES,
    memoryMb: 1024,
  },
  'whatsapp-inbound': {
    entry: 'src/workers/whatsapp-inbound.ts',
    description: 'Stores inbound WhatsApp messages and lets the agent answer',
    job: whatsappInboundJob,
    // queue:outbound-email: the agent's escalation alerts by e-mail (issue 17), queued (issue 34); queue:web-push: their pushes (issue 29);
    // queue:whatsapp-inbound: a person's pause ending by itself, checked again later and handed to the agent (issue 29).
    // queue:booking-events: the agent's booking tools report each change (issue 30); google-calendar: their free slots count Google busy times.
    // whatsapp-media:* (issue 31): customers' media fetched from Meta are stored (encrypted, tagged for retention) and read back;
    // transcription: their voice notes are transcribed.
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'uploads:read', 'uploads:write', 'queue:outbound-email', 'queue:web-push', 'queue:whatsapp-inbound', 'knowledge-index:search', 'queue:booking-events', 'google-calendar', 'whatsapp-media:read', 'whatsapp-media:write', 'transcription'],
    batchSize: 10,
    timeout: 60,
    maxReceiveCount: QUEUE_MAX_RECEIVES,
  },
  'call-summary': {
    entry: 'src/workers/call-summary.ts',
    description: 'Summarises a finished call and sends the summary where the user asked',
    job: callSummaryJob,
    // queue:outbound-email: summaries, handoff notices and the ended call's alert by e-mail, queued (issue 34: no SES here); queue:web-push: its push (issue 29).
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'queue:outbound-email', 'queue:web-push'],
    batchSize: 5,
    timeout: 120,
    maxReceiveCount: QUEUE_MAX_RECEIVES,
  },
  'contacts-jobs': {
    entry: 'src/workers/contacts-jobs.ts',
    // One queue for the three CSV jobs (issue 19): a stack near CloudFormation's limit has room for one more worker.
    description: 'Contacts CSV jobs: import a file in slices (re-queued with a cursor before the timeout), undo an import, export to a file',
    job: contactsJob,
    // queue: a slice re-queues the rest of its file.
    needs: ['table:read', 'table:write', 'uploads:read', 'uploads:write', 'queue:contacts-jobs'],
    batchSize: 1,
    timeout: 300,
    maxReceiveCount: QUEUE_MAX_RECEIVES,
    memoryMb: 1024,
  },
  'outbound-email': {
    entry: 'src/workers/outbound-email.ts',
    // Issue 34 item 4: producers queue, only this worker talks to SES (domain/notifications/emails.ts).
    description: "E-mails to an account's owner (escalation alerts, call summaries): sent through SES, retried while SES fails, delivery state kept on the subject",
    job: outboundEmailJob,
    needs: ['table:read', 'table:write', 'mail'],
    batchSize: 5,
    // Also the lease of a claimed send (a try older than this is dead).
    timeout: 30,
    maxReceiveCount: QUEUE_MAX_RECEIVES,
  },
  'web-push': {
    entry: 'src/workers/web-push.ts',
    // Issue 29 item 6: producers queue, only this worker holds the VAPID private key and talks to push services.
    description: "Web Push to an account's owner's devices (escalations, waiting messages, test): VAPID-signed aes128gcm pushes, a gone subscription removed, retried while the push service fails",
    job: webPushJob,
    // queue:web-push: a notification's job fans out to one job per device.
    needs: ['table:read', 'table:write', 'push-keys', 'queue:web-push'],
    batchSize: 5,
    timeout: 30,
    maxReceiveCount: QUEUE_MAX_RECEIVES,
  },
  'booking-events': {
    entry: 'src/workers/booking-events.ts',
    // Issue 30: the core reports each stored change here; each listener (composition/booking-events.ts) is idempotent.
    description: "After a booking's change: the customer's WhatsApp confirmation, the reminder's schedule, the owner's e-mail and the other listeners; and the reminders the schedule found due",
    job: bookingEventsJob,
    // secrets:decrypt: the WhatsApp token (and Google Calendar's refresh token); queue:outbound-email: the owner's e-mail, queued;
    // google-calendar: the OAuth client that writes the booking to the owner's Google Calendar.
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'queue:outbound-email', 'google-calendar'],
    batchSize: 5,
    timeout: 60,
    maxReceiveCount: QUEUE_MAX_RECEIVES,
  },
  'privacy-jobs': {
    entry: 'src/workers/privacy-jobs.ts',
    // Issue 33: each step is idempotent and recorded on the job item, so a crash half-way is finished by the retry.
    description: "A person's erasure (DynamoDB items, S3 objects, Twilio recordings, Google Calendar events) or export (a ZIP), or the account's deletion (Stripe, Cognito, every item and object, a final e-mail)",
    job: privacyJob,
    // uploads:*: the export's ZIP (tmp/privacy-exports/), the person's objects deleted; whatsapp-media:*: their media read (export) and deleted;
    // secrets:decrypt: the Twilio and Google credentials; google-calendar: the OAuth client; stripe + userPool + mail: the account's deletion;
    // uploads:list: the account's deletion lists every object under the account's prefixes (ListObjectsV2).
    // queue:privacy-jobs: a long job queues its next slice.
    needs: ['table:read', 'table:write', 'uploads:read', 'uploads:write', 'uploads:list', 'whatsapp-media:read', 'whatsapp-media:write', 'secrets:decrypt', 'google-calendar', 'stripe', 'userPool', 'mail', 'queue:privacy-jobs'],
    batchSize: 1,
    timeout: 300,
    maxReceiveCount: QUEUE_MAX_RECEIVES,
    memoryMb: 1024,
  },
} as const satisfies Record<QueueName, WorkerDef>;

/** The body of a message on queue Q, as its manifest schema declares it. */
export type QueueJob<Q extends QueueName> = z.infer<(typeof workers)[Q]['job']>;

/**
 * A WebSocket API (API Gateway WebSocket API in AWS, the local gateway's WebSocket server
 * locally): one function receives its $connect, $disconnect and $default route events (messages
 * are not routed by a selection expression: every frame goes to $default) and answers through
 * the connection-posting API (@connections). `$connect` refusing (a non-2xx result) refuses the
 * connection.
 */
export interface SocketApiDef {
  entry: string;
  description: string;
  needs: readonly Need[];
  /** Seconds. API Gateway stops waiting after 29 s; the function may stream longer (it posts, it does not answer). */
  timeout: number;
  memoryMb?: number;
}

export const SOCKET_ROUTE_KEYS = ['$connect', '$disconnect', '$default'] as const;
export type SocketRouteKey = (typeof SOCKET_ROUTE_KEYS)[number];

export const socketApis = {
  'voice-relay': {
    entry: 'src/handlers/voice-relay.ts',
    description: 'Twilio ConversationRelay: X-Twilio-Signature on $connect, caller prompts streamed to the agent, answer tokens posted back, interrupts, DTMF',
    needs: ['table:read', 'table:write', 'secrets:decrypt', 'queue:call-summary', 'sockets:voice-relay', 'knowledge-index:search', 'queue:booking-events', 'google-calendar'],
    // A streamed turn is bounded by VOICE_LIMITS.turnMs; the rest is room for the tools and the last posts.
    timeout: 30,
    memoryMb: 1024,
  },
} as const satisfies Record<string, SocketApiDef>;

export type SocketApiName = keyof typeof socketApis;

export interface ScheduleDef {
  entry: string;
  description: string;
  needs: readonly Need[];
  /** Minutes between runs (an EventBridge rate() rule in AWS; an interval in `npm start`). */
  rateMinutes: number;
  /** Seconds. */
  timeout: number;
  memoryMb?: number;
}

/** One function per entry, run on a schedule (no API route, no queue). */
export const schedules = {
  'stale-calls': {
    entry: 'src/schedules/stale-calls.ts',
    description: 'Closes calls whose final Twilio status never came: bills what is known, queues the summary',
    needs: ['table:read', 'table:write', 'queue:call-summary'],
    rateMinutes: 5,
    timeout: 60,
  },
  'booking-reminders': {
    entry: 'src/schedules/booking-reminders.ts',
    // Issue 30: a Query of the hour partitions of reminders due now (never a Scan); each claimed once, then queued.
    description: 'Queues the booking reminders due now (reminder items in hour partitions) on booking-events, each claimed by one run',
    needs: ['table:read', 'table:write', 'queue:booking-events'],
    rateMinutes: 5,
    timeout: 60,
  },
  'recording-retention': {
    entry: 'src/schedules/recording-retention.ts',
    // Issue 33: recordings held by Twilio are deleted there when the account's retention ends: a Query of
    // the day partitions of recordings due (RECEXPIRE#{day}), never a Scan.
    description: "Deletes at Twilio the call recordings whose account's retention has ended (day partitions of due recordings)",
    needs: ['table:read', 'table:write', 'secrets:decrypt'],
    rateMinutes: 60,
    timeout: 300,
  },
} as const satisfies Record<string, ScheduleDef>;

export type ScheduleName = keyof typeof schedules;

/**
 * The authorizer of 'userOrApiKey' routes: a Cognito access token (verified like the JWT
 * authorizer) or a product API key (hash lookup). In AWS a Lambda REQUEST authorizer (simple
 * responses); the local gateway calls the same handler. Per-key rate limits and lastUsedAt are
 * applied by the route's function (an authorizer cannot answer 429).
 */
export const apiAuthorizer = {
  entry: 'src/auth/api-authorizer.ts',
  description: 'Public API authorizer: Cognito JWT or API key',
  needs: ['table:read'] as readonly Need[],
} as const;

/**
 * Cognito custom-auth triggers used by Google sign-in in AWS (CUSTOM_AUTH flow): the
 * verify trigger re-checks the Google ID token, so Cognito only issues tokens for a
 * credential Google signed. One module exports the three trigger handlers.
 */
export const cognitoTriggers = {
  entry: 'src/triggers/custom-auth.ts',
  handlers: {
    defineAuthChallenge: 'defineAuthChallenge',
    createAuthChallenge: 'createAuthChallenge',
    verifyAuthChallengeResponse: 'verifyAuthChallengeResponse',
  },
} as const;

/**
 * Cognito pre-token-generation trigger (issue 32, event V2_0): puts the person's account and role
 * in the access and ID tokens at every sign-in and refresh. Its grants are narrower than a Need:
 * GetItem (the person's membership pointer) and PutItem (the sign-in's activity entry) on the table.
 * Locally cognito-local calls it through functions/local/lambda-endpoint.ts.
 */
export const preTokenTrigger = {
  entry: 'src/triggers/pre-token.ts',
  description: 'Cognito pre-token-generation trigger: account and role claims (team)',
  timeoutSeconds: 5,
} as const;
