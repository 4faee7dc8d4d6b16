/**
 * Provider failures in two kinds, and the one retry schedule of every queue job (issue 34).
 *
 * - TransientError: the provider may answer later (5xx, 429 with its Retry-After, 408, a timeout,
 *   a refused/reset connection, AWS throttling). The job is retried on RETRY_SCHEDULE.
 * - LastingError: retrying cannot help until a person acts (401/403: credentials or permission,
 *   404, 400/422 and the like: the request itself is refused). The job is not retried: the worker's
 *   onLastingFailure records it with its `reason` (workers/sqs-worker.ts).
 *
 * Adapters may throw these directly; the provider errors they throw today (ModelError, GraphError,
 * TwilioError, the AWS clients' errors, fetch's connection errors) are mapped by
 * classifyProviderFailure(), the one place a worker or a domain service asks "retry or not?".
 * Anything it does not recognise (a bug, a conditional write lost, a DynamoDB validation error) is
 * `undefined`: workers retry it on the schedule like a transient failure, and it ends in the
 * dead-letter queue if it never passes.
 *
 * ## The schedule (AWS)
 * A transient failure fails its SQS record and sets the message's next visibility with
 * ChangeMessageVisibility: max(Retry-After, the delay below) plus up to 20 % jitter (jitter only
 * lengthens, so the cumulative times are lower bounds). Every queue has maxReceiveCount
 * QUEUE_MAX_RECEIVES = JOB_TRIES + 1: the last receive is the give-up delivery (the worker's
 * giveUp marks the job failed for good, then the message dead-letters).
 *
 *   receive | delay before it | cumulative since the 1st receive
 *   --------+-----------------+---------------------------------
 *      1    |        —        |   0
 *      2    |      30 s       |   0:30
 *      3    |       1 min     |   1:30
 *      4    |       2 min     |   3:30
 *      5    |       4 min     |   7:30
 *      6    |       8 min     |  15:30
 *      7    |      15 min     |  30:30
 *      8    |      15 min     |  45:30   (the job's last try: Delivery.finalAttempt)
 *      9    |       0         |          (give-up delivery, right after the last try failed)
 *
 * So a provider outage of up to 45 minutes from a job's first try (30 minutes with room to spare)
 * is ridden out. A try that dies instead of failing (crash, Lambda timeout, out of memory) sets no
 * visibility: the queue's visibility timeout (queueVisibilityTimeoutSeconds: 6 × the function
 * timeout, AWS's guidance, at most 30 min here) applies to that receive instead.
 *
 * Retention, chosen with it: the longest a message can stay in its queue is 8 waits of at most
 * MAX_RETRY_AFTER_SECONDS (1 h) or 8 visibility timeouts (30 min each): under 9 hours. Queues keep
 * messages 4 days (QUEUE_RETENTION_DAYS), dead-letter queues 14 days (DLQ_RETENTION_DAYS, SQS's
 * maximum; a dead letter keeps its original enqueue time, so about 13 days remain to redrive it).
 *
 * ## Locally
 * The local dispatcher (functions/local/sqs-dispatcher.ts) honours ChangeMessageVisibility and the
 * visibility timeout with every duration multiplied by RETRY_TIME_SCALE (config.ts): 1 for
 * `npm start` (the AWS schedule), tiny in the integration tests.
 */

import { AWS_THROTTLING_ERRORS, AWS_TIMEOUT_ERRORS } from '../lib/aws-errors.js';

/** Why a job failed for good, as a key the feature turns into words (en/es) for the owner. */
export type LastingReason =
  /** 401, Meta 190, Twilio 20003, an OpenAI key refused: the credentials are wrong or revoked. */
  | 'credentials'
  /** 403 and permission codes: the credentials are valid but may not do this. */
  | 'permission'
  /** 404: what the job points at is not there (a model, a phone number id, an object). */
  | 'not_found'
  /** 400, 422 and other refusals of the request itself (e.g. Meta 131047: the 24-hour window closed). */
  | 'invalid_request';

/** What kind of temporary failure it was. */
export type TransientCode = 'unavailable' | 'rate_limited' | 'timeout' | 'connection';

interface FailureFields {
  /** Who failed: 'openai', 'whatsapp', 'twilio', 'ses', 's3', 'aws', 'network'… (logs, owner notices). */
  provider: string;
  /** The provider's HTTP status, when there was an answer. */
  status?: number;
  /** For logs only: never shown to a user. */
  message?: string;
  cause?: unknown;
}

/** The provider may answer later: retry on the schedule. */
export class TransientError extends Error {
  readonly provider: string;
  readonly code: TransientCode;
  readonly status?: number;
  /** The provider's Retry-After, in seconds (a 429's or 503's); the next try waits at least this long. */
  readonly retryAfterSeconds?: number;

  constructor(fields: FailureFields & { code: TransientCode; retryAfterSeconds?: number }) {
    super(fields.message ?? `${fields.provider}: ${fields.code}${fields.status ? ` (HTTP ${fields.status})` : ''}`, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = 'TransientError';
    this.provider = fields.provider;
    this.code = fields.code;
    if (fields.status !== undefined) this.status = fields.status;
    if (fields.retryAfterSeconds !== undefined) this.retryAfterSeconds = fields.retryAfterSeconds;
  }
}

/** Retrying cannot help until a person acts: record the failure with its reason, do not retry. */
export class LastingError extends Error {
  readonly provider: string;
  /** The provider's own code when it gave one (Meta 190 / 131047, Twilio 20003, an AWS error name), else the HTTP status. */
  readonly code: string;
  readonly reason: LastingReason;
  readonly status?: number;

  constructor(fields: FailureFields & { code: string | number; reason: LastingReason }) {
    super(fields.message ?? `${fields.provider}: ${fields.reason} (${fields.code})`, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = 'LastingError';
    this.provider = fields.provider;
    this.code = String(fields.code);
    this.reason = fields.reason;
    if (fields.status !== undefined) this.status = fields.status;
  }
}

export type ProviderFailure = TransientError | LastingError;

// ------------------------------------------------------------------ the schedule

/** Delay (seconds) before receive 2, 3, … 8: index = receive − 2. */
export const RETRY_SCHEDULE_SECONDS = [30, 60, 120, 240, 480, 900, 900] as const;
/** Tries of a job: the first receive and one per scheduled delay. */
export const JOB_TRIES = RETRY_SCHEDULE_SECONDS.length + 1;
/** Every queue's maxReceiveCount: the tries and the give-up delivery. */
export const QUEUE_MAX_RECEIVES = JOB_TRIES + 1;
/** A delay is lengthened by up to this share, so jobs failed together do not come back together. */
export const RETRY_JITTER = 0.2;
/** A provider's Retry-After is honoured up to this (a bogus "come back next week" must not park a job). */
export const MAX_RETRY_AFTER_SECONDS = 3600;
/** SQS's limit for ChangeMessageVisibility (12 hours). */
export const MAX_VISIBILITY_SECONDS = 43_200;
export const QUEUE_RETENTION_DAYS = 4;
export const DLQ_RETENTION_DAYS = 14;

/** The queue's visibility timeout for a function timeout: AWS's guidance for Lambda consumers, six times it. */
export function queueVisibilityTimeoutSeconds(functionTimeoutSeconds: number): number {
  return functionTimeoutSeconds * 6;
}

/**
 * Whole seconds before `nextReceive` (2 … JOB_TRIES) after a transient failure: the schedule's
 * delay lengthened by up to RETRY_JITTER, and never sooner than the provider's Retry-After
 * (capped at MAX_RETRY_AFTER_SECONDS). Past the schedule's end the last delay repeats.
 */
export function retryDelaySeconds(nextReceive: number, retryAfterSeconds?: number, random: () => number = Math.random): number {
  const index = Math.min(Math.max(nextReceive - 2, 0), RETRY_SCHEDULE_SECONDS.length - 1);
  const scheduled = RETRY_SCHEDULE_SECONDS[index]!;
  const jittered = Math.round(scheduled * (1 + RETRY_JITTER * random()));
  const asked = retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) ? Math.min(Math.max(0, Math.ceil(retryAfterSeconds)), MAX_RETRY_AFTER_SECONDS) : 0;
  return Math.min(Math.max(jittered, asked), MAX_VISIBILITY_SECONDS);
}

/** Cumulative seconds from the first receive to receive `n` at the schedule's shortest (no jitter, no Retry-After). */
export function minimumSecondsUntilReceive(n: number): number {
  let total = 0;
  for (let receive = 2; receive <= n; receive++) total += RETRY_SCHEDULE_SECONDS[Math.min(receive - 2, RETRY_SCHEDULE_SECONDS.length - 1)]!;
  return total;
}

// ------------------------------------------------------------------ classification

/**
 * An HTTP Retry-After value in seconds: delta-seconds ("120") or an HTTP-date
 * ("Wed, 21 Oct 2015 07:28:00 GMT", in the past = 0). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP-date always names its weekday or month in letters; a bare number was handled above.
  if (!/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * A failed HTTP answer of `provider` in the two kinds: 408, 429 and 5xx are transient (with the
 * answer's Retry-After), 401 credentials, 403 permission, 404 not found, any other 4xx an invalid
 * request. `code` is the provider's own error code when its body named one.
 */
export function classifyHttpFailure(
  provider: string,
  status: number,
  options: { retryAfter?: string | null; code?: string | number; message?: string; now?: number } = {},
): ProviderFailure {
  const retryAfterSeconds = parseRetryAfter(options.retryAfter, options.now);
  const common = { provider, status, ...(options.message ? { message: options.message } : {}) };
  if (status === 429) return new TransientError({ ...common, code: 'rate_limited', retryAfterSeconds });
  if (status === 408) return new TransientError({ ...common, code: 'timeout', retryAfterSeconds });
  if (status >= 500 || status < 400) return new TransientError({ ...common, code: 'unavailable', retryAfterSeconds });
  const code = options.code ?? status;
  if (status === 401) return new LastingError({ ...common, code, reason: 'credentials' });
  if (status === 403) return new LastingError({ ...common, code, reason: 'permission' });
  if (status === 404) return new LastingError({ ...common, code, reason: 'not_found' });
  return new LastingError({ ...common, code, reason: 'invalid_request' });
}

/** Provider errors of the domain's ports, recognised by shape (kind + name) so this module imports none of them. */
interface KindedError {
  name: string;
  kind: string;
  message: string;
  code?: number;
  status?: number;
  retryAfterSeconds?: number;
}

const KINDED: Record<string, string> = { ModelError: 'openai', GraphError: 'whatsapp', TwilioError: 'twilio' };

/** Node/undici codes of a connection that failed or broke (a fetch's `cause`). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function fromKinded(error: KindedError, provider: string): ProviderFailure {
  const common = { provider, message: error.message, cause: error, ...(error.status ? { status: error.status } : {}) };
  const code = error.code ?? error.status ?? error.kind;
  switch (error.kind) {
    case 'auth':
      return new LastingError({ ...common, code, reason: 'credentials' });
    case 'not_found':
      return new LastingError({ ...common, code, reason: 'not_found' });
    case 'bad_request':
      return new LastingError({ ...common, code, reason: 'invalid_request' });
    case 'rate_limit':
      return new TransientError({ ...common, code: 'rate_limited', retryAfterSeconds: error.retryAfterSeconds });
    case 'timeout':
      return new TransientError({ ...common, code: 'timeout' });
    default:
      // 'unavailable'. Twilio reports its other 4xx answers as unavailable with the status: a refused request.
      if (error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) {
        return classifyHttpFailure(provider, error.status, { code, message: error.message });
      }
      return new TransientError({ ...common, code: 'unavailable', retryAfterSeconds: error.retryAfterSeconds });
  }
}

const record = (value: unknown): Record<string, unknown> | undefined => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined);

/**
 * Retry or not: a TransientError or LastingError for a provider failure this recognises,
 * undefined for anything else (which workers retry like a transient failure). Errors already of
 * the two kinds are returned as they are; a DomainError (bad input, not found…) is undefined too:
 * it is the feature's outcome, not a provider's.
 */
export function classifyProviderFailure(error: unknown): ProviderFailure | undefined {
  if (error instanceof TransientError || error instanceof LastingError) return error;
  const e = record(error);
  if (!e) return undefined;
  const name = typeof e.name === 'string' ? e.name : '';
  const message = typeof e.message === 'string' ? e.message : name;

  const provider = KINDED[name];
  if (provider && typeof e.kind === 'string') return fromKinded(error as KindedError, provider);

  // The AWS clients (aws-json.ts's AwsServiceError, the SDK's exceptions): $metadata.httpStatusCode.
  const metadata = record(e.$metadata);
  if (metadata) {
    const status = typeof metadata.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
    const common = { provider: 'aws', message: `${name}: ${message}`, cause: error, ...(status ? { status } : {}) };
    if (AWS_THROTTLING_ERRORS.has(name) || status === 429) return new TransientError({ ...common, code: 'rate_limited' });
    if (AWS_TIMEOUT_ERRORS.has(name)) return new TransientError({ ...common, code: 'timeout' });
    if (e.$fault === 'server' || (status !== undefined && status >= 500)) return new TransientError({ ...common, code: 'unavailable' });
    // SES's own refusals (their names are SES's alone): the same request is refused again.
    const sesReason = SES_REFUSALS[name];
    if (sesReason) return new LastingError({ ...common, provider: 'ses', code: name, reason: sesReason });
    // Other AWS client errors (a lost condition, a validation error) are ours to handle, not an outage.
    return undefined;
  }

  // The outbound guard's errors (adapters/outbound/errors.ts) and fetch's own.
  if (name === 'OutboundTimeoutError' || name === 'TimeoutError') return new TransientError({ provider: 'network', code: 'timeout', message, cause: error });
  if (name === 'OutboundNetworkError') return new TransientError({ provider: 'network', code: 'connection', message, cause: error });
  const code = connectionCode(e);
  if (code) return new TransientError({ provider: 'network', code: code.includes('TIMEOUT') || code === 'ETIMEDOUT' ? 'timeout' : 'connection', message: `${message} (${code})`, cause: error });
  return undefined;
}

/**
 * SES refusals by name (SESv2 and v1): MessageRejected (the message or, in the sandbox, an
 * unverified recipient), the sender's MAIL FROM domain not verified, sending paused or the
 * account suspended, a configuration set that does not exist.
 */
const SES_REFUSALS: Record<string, LastingReason> = {
  MessageRejected: 'invalid_request',
  MailFromDomainNotVerifiedException: 'permission',
  MailFromDomainNotVerified: 'permission',
  AccountSuspendedException: 'permission',
  SendingPausedException: 'permission',
  AccountSendingPausedException: 'permission',
  ConfigurationSetSendingPausedException: 'permission',
  ConfigurationSetDoesNotExistException: 'not_found',
  ConfigurationSetDoesNotExist: 'not_found',
};

/** AWS's names for credentials it does not accept (answered 400 or 403 depending on the service). */
const AWS_CREDENTIAL_ERRORS = new Set([
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
  'IncompleteSignature',
  'IncompleteSignatureException',
  'MissingAuthenticationToken',
  'MissingAuthenticationTokenException',
  'ExpiredToken',
  'ExpiredTokenException',
]);

/**
 * A failure of SES SendEmail (adapters/mailer.ts): classifyProviderFailure's answer with provider
 * 'ses', and every other 4xx answer but throttling lasting too — SES has no conditional writes, so
 * a refused SendEmail is refused again: credentials (AWS_CREDENTIAL_ERRORS), 403 permission
 * (AccessDeniedException), 404 not found, any other 4xx an invalid request (BadRequestException…).
 */
export function classifySesFailure(error: unknown): ProviderFailure | undefined {
  const failure = classifyProviderFailure(error);
  const e = record(error);
  const metadata = record(e?.$metadata);
  if (!failure && metadata && typeof metadata.httpStatusCode === 'number' && metadata.httpStatusCode >= 400 && metadata.httpStatusCode < 500) {
    const status = metadata.httpStatusCode;
    const name = typeof e!.name === 'string' ? e!.name : `HTTP${status}`;
    const common = { provider: 'ses', status, message: `${name}: ${typeof e!.message === 'string' ? e!.message : name}`, cause: error, code: name };
    if (AWS_CREDENTIAL_ERRORS.has(name)) return new LastingError({ ...common, reason: 'credentials' });
    return classifyHttpFailure('ses', status, { code: name, message: common.message });
  }
  if (failure && failure.provider === 'aws') {
    return failure instanceof LastingError
      ? new LastingError({ provider: 'ses', code: failure.code, reason: failure.reason, message: failure.message, cause: error, ...(failure.status !== undefined ? { status: failure.status } : {}) })
      : new TransientError({ provider: 'ses', code: failure.code, message: failure.message, cause: error, ...(failure.status !== undefined ? { status: failure.status } : {}), ...(failure.retryAfterSeconds !== undefined ? { retryAfterSeconds: failure.retryAfterSeconds } : {}) });
  }
  return failure;
}

/** Connection failures that happen before a request is sent: the provider never saw it. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * True when the failure happened before the request reached the provider (the connection was
 * refused or never made, the name did not resolve), so a retry cannot repeat what it did. A
 * timeout or a connection broken once open is not: the provider may have acted on the request.
 */
export function neverReachedProvider(error: unknown): boolean {
  const e = record(error);
  if (!e) return false;
  const code = connectionCode(e);
  return code !== undefined && NEVER_CONNECTED.has(code);
}

/** The connection error code of an error or its causes (fetch wraps it: TypeError('fetch failed', { cause })). */
function connectionCode(error: Record<string, unknown>, depth = 0): string | undefined {
  if (typeof error.code === 'string' && CONNECTION_CODES.has(error.code)) return error.code;
  const cause = record(error.cause);
  return cause && depth < 4 ? connectionCode(cause, depth + 1) : undefined;
}
