/**
 * The one place that reads process.env. Everything else imports `config()`.
 *
 * Production (Lambda) gets these from the CDK stack; the local runtime sets them
 * before it loads any handler. Endpoints are the only difference between the two:
 * an unset *_ENDPOINT means "the real AWS service".
 */
import * as z from 'zod/mini';
import './contract/zod-locale.js';
import type { QueueName } from './routes.js';

const optionalUrl = z.optional(
  z.pipe(
    z.pipe(
      z.string().check(z.trim()),
      z.transform((v: string) => (v === '' ? undefined : v)),
    ),
    z.optional(z.url()),
  ),
);

/** A string that may be unset ('' then). */
const optionalText = z._default(z.string(), '');

/** A whole number of at least `min`, given as a string; `fallback` when unset. */
const wholeNumber = (min: number, fallback: number, message: string) =>
  z._default(z.pipe(z.string(), z.transform(Number)).check(z.refine((n: number) => Number.isInteger(n) && n >= min, message)), fallback);

const csv = z.pipe(
  z.optional(z.string()),
  z.transform((v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
);

const envSchema = z.object({
  AWS_REGION: z._default(z.string(), 'us-east-1'),
  /** Public origin of the app (CloudFront URL in AWS, the gateway URL locally). Used in e-mails and webhook URLs. */
  APP_URL: z._default(z.url(), 'http://localhost:3000'),
  TABLE_NAME: z._default(z.string().check(z.minLength(1)), 'agentdesk'),
  UPLOADS_BUCKET: z._default(z.string().check(z.minLength(1)), 'agentdesk-uploads'),
  USER_POOL_ID: optionalText,
  USER_POOL_CLIENT_ID: optionalText,
  MAIL_FROM: z._default(z.string(), 'AgentDesk <no-reply@agentdesk.local>'),
  /** Queue URLs by queue name (url-scrape, file-ingest, whatsapp-inbound, call-summary). */
  QUEUE_URL_URL_SCRAPE: optionalText,
  QUEUE_URL_FILE_INGEST: optionalText,
  QUEUE_URL_WHATSAPP_INBOUND: optionalText,
  QUEUE_URL_CALL_SUMMARY: optionalText,
  QUEUE_URL_CONTACTS_JOBS: optionalText,
  QUEUE_URL_OUTBOUND_EMAIL: optionalText,
  QUEUE_URL_WEB_PUSH: optionalText,
  QUEUE_URL_BOOKING_EVENTS: optionalText,
  QUEUE_URL_PRIVACY_JOBS: optionalText,
  /**
   * Issue 16, the voice-relay WebSocket API: the public wss:// URL Twilio's ConversationRelay
   * connects to (and signs), the connection-posting endpoint (https://{api}.execute-api…/{stage},
   * or the local gateway's), and the function the incoming-call webhook warms up. '' = not
   * deployed: calls use the <Gather> loop.
   */
  VOICE_RELAY_URL: optionalText,
  VOICE_RELAY_CONNECTIONS_URL: optionalText,
  VOICE_RELAY_FUNCTION: optionalText,
  SECRETS_KEY_ID: optionalText,
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_JWKS_URL: z._default(z.url(), 'https://www.googleapis.com/oauth2/v3/certs'),
  /**
   * Google Calendar connection (issue 30): Secrets Manager secret (name or ARN) holding the OAuth
   * client as JSON (clientId, clientSecret), read at runtime once per container. Set in AWS; unset
   * (local runtime, tests) = GOOGLE_CALENDAR_CLIENT_ID / _SECRET below. Neither: not offered.
   */
  GOOGLE_CALENDAR_SECRET_ID: z._default(z.string().check(z.trim()), ''),
  GOOGLE_CALENDAR_CLIENT_ID: optionalText,
  GOOGLE_CALENDAR_CLIENT_SECRET: optionalText,
  /** The OAuth redirect URI registered with the client; unset = {APP_URL}/api/integrations/google-calendar/callback. */
  GOOGLE_CALENDAR_REDIRECT_URI: optionalUrl,
  /** Google's endpoints; the local runtime and tests point them at the fake (local/fake-google-calendar/). */
  GOOGLE_OAUTH_AUTHORIZE_URL: z._default(z.url(), 'https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_OAUTH_TOKEN_URL: z._default(z.url(), 'https://oauth2.googleapis.com/token'),
  GOOGLE_OAUTH_REVOKE_URL: z._default(z.url(), 'https://oauth2.googleapis.com/revoke'),
  GOOGLE_CALENDAR_API_URL: z._default(z.url(), 'https://www.googleapis.com/calendar/v3'),
  /** ISO 3166-1 alpha-2 country of contact phone numbers typed without a +country prefix. */
  CONTACTS_DEFAULT_COUNTRY: z._default(z.string().check(z.trim(), z.regex(/^[A-Za-z]{2}$/), z.toUpperCase()), 'US'),
  /**
   * Optional operator rollout list (issue 29 item 7): when set, only these user ids (Cognito sub)
   * see WhatsApp; empty (the default) = every subscribed account does.
   */
  WHATSAPP_USER_IDS: csv,
  LOG_LEVEL: z._default(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']), 'INFO'),
  // Local emulator endpoints; unset in AWS.
  DYNAMODB_ENDPOINT: optionalUrl,
  COGNITO_ENDPOINT: optionalUrl,
  S3_ENDPOINT: optionalUrl,
  SES_ENDPOINT: optionalUrl,
  SQS_ENDPOINT: optionalUrl,
  /** Lambda API (the voice-relay warm-up's Invoke); unset = the real one. */
  LAMBDA_ENDPOINT: optionalUrl,
  /**
   * Secrets Manager secret (name or ARN) holding the Stripe configuration as JSON (secretKey,
   * webhookSecret, priceStarter, priceProfessional, priceEnterprise), read at runtime once per
   * container. Set in AWS; unset (local runtime, tests) = the STRIPE_* variables below.
   */
  STRIPE_SECRET_ID: z._default(z.string().check(z.trim()), ''),
  // Stripe (billing). Unset key: the billing calls answer 502 and webhooks 500 (never a silent success).
  STRIPE_SECRET_KEY: optionalText,
  /** whsec_...: Stripe-Signature of webhook deliveries is verified with it. */
  STRIPE_WEBHOOK_SECRET: optionalText,
  /**
   * Web Push (issue 29): Secrets Manager secret (name or ARN) holding the VAPID key pair as JSON
   * (publicKey, privateKey: unpadded base64url as `web-push generate-vapid-keys` prints them;
   * subject: a mailto: or https: contact for the push services), read at runtime once per
   * container. Set in AWS; unset (local runtime, tests) = the VAPID_* variables below (the local
   * runtime generates a pair once and keeps it under .data).
   */
  PUSH_SECRET_ID: z._default(z.string().check(z.trim()), ''),
  VAPID_PUBLIC_KEY: optionalText,
  VAPID_PRIVATE_KEY: optionalText,
  VAPID_SUBJECT: optionalText,
  /**
   * Local runtime and tests only: PEM certificates the outbound guard trusts besides the system's
   * (the local fake push service serves https with its own certificate). Never set in AWS.
   */
  OUTBOUND_EXTRA_CA: optionalText,
  /** Only for the local runtime and tests (a fake Stripe API on loopback); unset = api.stripe.com. */
  STRIPE_API_URL: optionalUrl,
  /** Stripe price id of each plan (see domain/billing/plans.ts). */
  STRIPE_PRICE_STARTER: optionalText,
  STRIPE_PRICE_PROFESSIONAL: optionalText,
  STRIPE_PRICE_ENTERPRISE: optionalText,
  /**
   * OpenAI-compatible API the ChatGPT integration uses when the user left "API base URL" empty
   * (e.g. http://127.0.0.1:4010/v1: the local fake OpenAI). Unset = api.openai.com.
   */
  OPENAI_BASE_URL: optionalUrl,
  /**
   * The model that transcribes customers' voice notes (issue 31, adapters/openai/transcriber.ts):
   * gpt-4o-mini-transcribe (accurate on Spanish, half whisper-1's price); whisper-1 also works
   * (it reports the audio's language and duration).
   */
  OPENAI_TRANSCRIPTION_MODEL: z._default(z.string().check(z.trim(), z.minLength(1)), 'gpt-4o-mini-transcribe'),
  /**
   * Exact host:port pairs (comma-separated, e.g. "127.0.0.1:4010,localhost:4010") that outbound
   * calls to user-supplied URLs may reach on a loopback address. Only the local runtime and tests
   * set it (fake OpenAI, test web server); empty = every loopback/private address is refused.
   */
  OUTBOUND_ALLOW_HOSTS: csv,
  /**
   * WhatsApp Cloud API (Meta Graph API) base URL, version included. The local runtime and tests
   * point it at the fake Graph server (local/fake-whatsapp/).
   */
  WHATSAPP_GRAPH_URL: z._default(z.url(), 'https://graph.facebook.com/v21.0'),
  /**
   * Twilio REST API origin (the Twilio Voice integration: account test, number lookup and
   * configuration). The local runtime and tests point it at the fake Twilio (local/fake-twilio/,
   * local port TWILIO_PORT 4012). Unset = https://api.twilio.com.
   */
  TWILIO_API_URL: optionalUrl,
  /**
   * Summary webhooks: delay (ms) before the second attempt; each later one waits twice as long
   * (SUMMARY_WEBHOOK_ATTEMPTS in all). The integration tests set it small.
   */
  SUMMARY_RETRY_BASE_MS: wholeNumber(0, 2_000, 'SUMMARY_RETRY_BASE_MS must be a whole number of ms'),
  /** 'local' enables the local-only adapters (e.g. Google sign-in without Cognito CUSTOM_AUTH). */
  RUNTIME: z._default(z.enum(['aws', 'local']), 'aws'),
  /** Directory for local-only state (the local secrets key). */
  LOCAL_DATA_DIR: z._default(z.string(), '.data'),
  /**
   * Local runtime only (issue 34): every SQS duration of the local queue (visibility timeouts, the
   * retry schedule's ChangeMessageVisibility, DelaySeconds) is multiplied by this. 1 (the default,
   * `npm start`) = the AWS schedule (domain/retry.ts: retries over 45 minutes); the integration
   * tests use 0.001 (30 s → 30 ms). Never set in AWS.
   */
  RETRY_TIME_SCALE: z._default(
    z.pipe(z.string(), z.transform(Number)).check(z.refine((n: number) => Number.isFinite(n) && n > 0 && n <= 1, 'RETRY_TIME_SCALE must be a number above 0 and at most 1')),
    1,
  ),
  /** Custom agent tools: how long one HTTP call may take (ms) before the model is told it did not answer. */
  TOOL_TIMEOUT_MS: wholeNumber(1, 10_000, 'TOOL_TIMEOUT_MS must be a positive integer'),
});

export type Config = z.infer<typeof envSchema>;

let cached: Config | undefined;

export function config(): Config {
  cached ??= envSchema.parse(process.env);
  return cached;
}

/** For tests and the local runtime, which set the environment after import. */
export function resetConfig(): void {
  cached = undefined;
}

export function queueUrl(name: QueueName): string {
  const c = config();
  const urls: Record<QueueName, string> = {
    'url-scrape': c.QUEUE_URL_URL_SCRAPE,
    'file-ingest': c.QUEUE_URL_FILE_INGEST,
    'whatsapp-inbound': c.QUEUE_URL_WHATSAPP_INBOUND,
    'call-summary': c.QUEUE_URL_CALL_SUMMARY,
    'contacts-jobs': c.QUEUE_URL_CONTACTS_JOBS,
    'outbound-email': c.QUEUE_URL_OUTBOUND_EMAIL,
    'web-push': c.QUEUE_URL_WEB_PUSH,
    'booking-events': c.QUEUE_URL_BOOKING_EVENTS,
    'privacy-jobs': c.QUEUE_URL_PRIVACY_JOBS,
  };
  return urls[name];
}
