/**
 * AWS JSON-protocol calls (DynamoDB, KMS, SQS, Secrets Manager; SESv2's REST-JSON SendEmail too) with `fetch`, signed with
 * Signature V4 (sigv4.ts), instead of the SDK clients (issue 28). Each SDK client brings the
 * schema-driven protocol stack (@smithy/core, @aws-sdk/core: ~130 KB minified, plus 20–60 KB per
 * client), which was most of every Lambda bundle and of its cold start. These services speak one
 * simple protocol: POST / with `X-Amz-Target: {prefix}.{Operation}` and a JSON body, the answer or
 * the error (`__type`) as JSON. The requests are the SDK clients' own (checked against them in
 * test/unit/aws/aws-json.test.ts) and the callers keep their behaviour:
 *
 * - errors are thrown as AwsServiceError named after the error code (ConditionalCheckFailedException,
 *   TransactionCanceledException…) with the error's fields (CancellationReasons…), as the SDK's
 *   exceptions are; callers match them by name (see adapters/dynamo/conditions.ts);
 * - the SDK's standard retry: up to 3 attempts for throttling and transient errors, 5xx answers
 *   and failed connections, with full-jitter exponential backoff (100 ms base, 500 ms when throttled).
 */
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { AWS_THROTTLING_ERRORS, AWS_TIMEOUT_ERRORS } from '../../lib/aws-errors.js';
import { signAwsRequest, type AwsCredentials } from './sigv4.js';

export interface AwsJsonServiceOptions {
  /** Signing name (and endpoint prefix unless `endpoint` is set): dynamodb, kms, sqs, secretsmanager. */
  service: string;
  /** The X-Amz-Target prefix: DynamoDB_20120810, TrentService, AmazonSQS, secretsmanager. */
  targetPrefix: string;
  /** application/x-amz-json-{version}: 1.0 (DynamoDB, SQS) or 1.1 (KMS, Secrets Manager). */
  jsonVersion: '1.0' | '1.1';
  region: string;
  /** A local emulator's URL, or the public endpoint when its prefix is not the signing name (SES: email); unset = https://{service}.{region}.amazonaws.com. */
  endpoint?: string;
  /** Headers the service's SDK client adds to every request (SQS: x-amzn-query-mode). */
  headers?: Record<string, string>;
  /** Default: the SDK's chain (in the Lambda bundles, the environment's role credentials only). */
  credentials?: () => Promise<AwsCredentials>;
  fetch?: typeof fetch;
  /** Attempts per call (the SDK's default: 3). */
  maxAttempts?: number;
  /** The pause before retry `attempt` (1, 2…); default full jitter as the SDK's standard strategy. */
  backoffMs?: (attempt: number, throttled: boolean) => number;
}

/** An error answer of an AWS service, named after its code like the SDK's exceptions. */
export class AwsServiceError extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: { httpStatusCode: number; requestId?: string; attempts: number };
  /** The error's other fields (CancellationReasons, Item…), as the SDK's exceptions carry them. */
  [field: string]: unknown;

  constructor(code: string, message: string, status: number, requestId: string | undefined, attempts: number, fields: Record<string, unknown>) {
    super(message);
    Object.assign(this, fields);
    this.name = code;
    this.$fault = status >= 500 ? 'server' : 'client';
    this.$metadata = { httpStatusCode: status, ...(requestId ? { requestId } : {}), attempts };
  }
}

const TRANSIENT_STATUS = new Set([500, 502, 503, 504]);

/** `com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException` → `ConditionalCheckFailedException` (the SDK's sanitising). */
export function errorCode(raw: string): string {
  return raw.split(':')[0]!.split('#').pop()!;
}

const defaultBackoff = (attempt: number, throttled: boolean) => Math.random() * Math.min(20_000, (throttled ? 500 : 100) * 2 ** (attempt - 1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The public endpoint of `prefix` (the service's endpoint prefix) in `region` (China's partition has its own domain). */
export const publicEndpoint = (prefix: string, region: string) =>
  `https://${prefix}.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;

export interface AwsJsonService {
  /** One operation: its output, or an AwsServiceError (after the retries). */
  call<T = Record<string, unknown>>(operation: string, input: object): Promise<T>;
}

/** An AWS JSON-protocol service: POST / with X-Amz-Target. */
export function awsJsonService(options: AwsJsonServiceOptions): AwsJsonService {
  const request = signedJsonRequests(options);
  return {
    call: (operation, input) =>
      request('/', input, {
        'content-type': `application/x-amz-json-${options.jsonVersion}`,
        'x-amz-target': `${options.targetPrefix}.${operation}`,
      }),
  };
}

export type SignedJsonRequests = <T = Record<string, unknown>>(path: string, input: object, headers: Record<string, string>) => Promise<T>;

/**
 * Signed JSON POSTs to one service (the REST-JSON services, e.g. SESv2, name their operation by
 * the path), with the retries and errors described above.
 */
export function signedJsonRequests(options: Omit<AwsJsonServiceOptions, 'targetPrefix' | 'jsonVersion'>): SignedJsonRequests {
  const send = options.fetch ?? ((input: URL, init: RequestInit) => globalThis.fetch(input, init));
  const base = (options.endpoint || publicEndpoint(options.service, options.region)).replace(/\/+$/, '');
  const maxAttempts = options.maxAttempts ?? 3;
  const backoff = options.backoffMs ?? defaultBackoff;
  // Built on first use: a function that never calls the service never resolves credentials.
  let credentials = options.credentials;

  return async <T>(path: string, input: object, headers: Record<string, string>): Promise<T> => {
    credentials ??= defaultProvider();
    const url = new URL(`${base}${path}`);
    // Serialised once: a retry resends the same body.
    const body = JSON.stringify(input);
    for (let attempt = 1; ; attempt++) {
      const signed = signAwsRequest({
        service: options.service,
        method: 'POST',
        url,
        body,
        headers: { ...options.headers, ...headers },
        region: options.region,
        credentials: await credentials(),
        date: new Date(),
      });
      let res: Response;
      try {
        res = await send(url, { method: 'POST', headers: signed, body });
      } catch (error) {
        // A failed connection (reset, refused, DNS): retried like the SDK does.
        if (attempt < maxAttempts) {
          await sleep(backoff(attempt, false));
          continue;
        }
        throw error;
      }
      const text = await res.text();
      if (res.ok) return (text ? JSON.parse(text) : {}) as T;
      const failure = parseError(res, text, attempt);
      const throttled = AWS_THROTTLING_ERRORS.has(failure.name) || res.status === 429;
      if (attempt < maxAttempts && (throttled || AWS_TIMEOUT_ERRORS.has(failure.name) || TRANSIENT_STATUS.has(res.status))) {
        await sleep(backoff(attempt, throttled));
        continue;
      }
      throw failure;
    }
  };
}

function parseError(res: Response, text: string, attempts: number): AwsServiceError {
  let fields: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object') fields = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const { __type, code, message, Message, ...rest } = fields as { __type?: unknown; code?: unknown; message?: unknown; Message?: unknown };
  const rawCode = res.headers.get('x-amzn-errortype') ?? (typeof __type === 'string' ? __type : typeof code === 'string' ? code : '');
  const name = rawCode ? errorCode(rawCode) : `HTTP${res.status}`;
  const text_ = typeof message === 'string' ? message : typeof Message === 'string' ? Message : name;
  return new AwsServiceError(name, text_, res.status, res.headers.get('x-amzn-requestid') ?? undefined, attempts, rest);
}
