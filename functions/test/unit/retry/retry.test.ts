/**
 * Issue 34: provider failures in two kinds (domain/retry.ts) and the one retry schedule. The
 * schedule must ride out a provider outage of at least 30 minutes; Retry-After in both forms.
 */
import { describe, expect, it } from 'vitest';
import { AwsServiceError } from '../../../src/adapters/aws/aws-json.js';
import { statusError } from '../../../src/adapters/openai/fetch-model.js';
import { toGraphError } from '../../../src/adapters/whatsapp/graph.js';
import { OutboundNetworkError, OutboundTimeoutError } from '../../../src/adapters/outbound/errors.js';
import { PresignedObjectReader } from '../../../src/adapters/extract/upload-reader.js';
import { ModelError } from '../../../src/domain/ai/ports.js';
import {
  classifyHttpFailure,
  classifyProviderFailure,
  classifySesFailure,
  JOB_TRIES,
  LastingError,
  MAX_RETRY_AFTER_SECONDS,
  minimumSecondsUntilReceive,
  neverReachedProvider,
  parseRetryAfter,
  QUEUE_MAX_RECEIVES,
  retryDelaySeconds,
  TransientError,
} from '../../../src/domain/retry.js';
import { TwilioError } from '../../../src/domain/voice/ports.js';
import { GraphError } from '../../../src/domain/whatsapp/ports.js';

describe('the retry schedule', () => {
  it('rides out an outage of at least 30 minutes before the last try', () => {
    expect(minimumSecondsUntilReceive(JOB_TRIES)).toBeGreaterThanOrEqual(30 * 60);
    expect(minimumSecondsUntilReceive(JOB_TRIES)).toBe(45.5 * 60);
    expect(QUEUE_MAX_RECEIVES).toBe(JOB_TRIES + 1);
  });

  it('waits 30 s, 1, 2, 4, 8, 15, 15 min, lengthened by at most 20 % jitter', () => {
    const shortest = [2, 3, 4, 5, 6, 7, 8, 9].map((n) => retryDelaySeconds(n, undefined, () => 0));
    expect(shortest).toEqual([30, 60, 120, 240, 480, 900, 900, 900]);
    const longest = [2, 8].map((n) => retryDelaySeconds(n, undefined, () => 1));
    expect(longest).toEqual([36, 1080]);
  });

  it('never retries sooner than Retry-After, up to its cap', () => {
    expect(retryDelaySeconds(2, 120, () => 0)).toBe(120);
    expect(retryDelaySeconds(2, 5, () => 0)).toBe(30);
    expect(retryDelaySeconds(2, 7 * 24 * 3600, () => 0)).toBe(MAX_RETRY_AFTER_SECONDS);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-05-01T10:00:00Z');
  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Fri, 01 May 2026 10:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Fri, 01 May 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    for (const value of [undefined, null, '', '-5', '1.5', 'soon', '12:00']) expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe('classifyHttpFailure', () => {
  it('5xx, 408 and 429 are transient (with Retry-After); 401, 403, 404 and other 4xx lasting', () => {
    expect(classifyHttpFailure('s3', 503, { retryAfter: '7' })).toMatchObject({ name: 'TransientError', code: 'unavailable', status: 503, retryAfterSeconds: 7 });
    expect(classifyHttpFailure('ses', 429)).toMatchObject({ code: 'rate_limited' });
    expect(classifyHttpFailure('ses', 408)).toMatchObject({ code: 'timeout' });
    expect(classifyHttpFailure('openai', 401)).toMatchObject({ name: 'LastingError', reason: 'credentials', code: '401' });
    expect(classifyHttpFailure('openai', 403)).toMatchObject({ reason: 'permission' });
    expect(classifyHttpFailure('openai', 404)).toMatchObject({ reason: 'not_found' });
    expect(classifyHttpFailure('whatsapp', 400, { code: 131047 })).toMatchObject({ reason: 'invalid_request', code: '131047' });
  });
});

describe('classifyProviderFailure', () => {
  it('OpenAI: a rejected key is lasting, a 429 transient with its Retry-After, a timeout transient', () => {
    expect(classifyProviderFailure(statusError(401))).toMatchObject({ name: 'LastingError', provider: 'openai', reason: 'credentials' });
    expect(classifyProviderFailure(statusError(429, '20'))).toMatchObject({ name: 'TransientError', provider: 'openai', code: 'rate_limited', retryAfterSeconds: 20 });
    expect(classifyProviderFailure(statusError(500))).toMatchObject({ name: 'TransientError', code: 'unavailable' });
    expect(classifyProviderFailure(statusError(400))).toMatchObject({ name: 'LastingError', reason: 'invalid_request' });
    expect(classifyProviderFailure(new ModelError('timeout', 'slow'))).toMatchObject({ name: 'TransientError', code: 'timeout' });
  });

  it('WhatsApp Graph: 190 and 131047 are lasting with Meta’s code, 5xx and throughput caps transient', () => {
    const revoked = toGraphError(401, JSON.stringify({ error: { message: 'Error validating access token', code: 190 } }));
    expect(classifyProviderFailure(revoked)).toMatchObject({ name: 'LastingError', provider: 'whatsapp', reason: 'credentials', code: '190' });
    const window = toGraphError(400, JSON.stringify({ error: { message: 'Re-engagement message', code: 131047 } }));
    expect(classifyProviderFailure(window)).toMatchObject({ name: 'LastingError', reason: 'invalid_request', code: '131047' });
    expect(classifyProviderFailure(toGraphError(500, 'oops'))).toMatchObject({ name: 'TransientError', code: 'unavailable' });
    expect(classifyProviderFailure(new GraphError('rate_limit', 'slow down', 130429))).toMatchObject({ name: 'TransientError', code: 'rate_limited' });
  });

  it('Twilio: 20003 lasting, 503 transient', () => {
    expect(classifyProviderFailure(new TwilioError('auth', 'Authenticate', 401))).toMatchObject({ name: 'LastingError', provider: 'twilio', reason: 'credentials' });
    expect(classifyProviderFailure(new TwilioError('unavailable', 'down', 503))).toMatchObject({ name: 'TransientError', provider: 'twilio' });
    expect(classifyProviderFailure(new TwilioError('unavailable', 'bad', 400))).toMatchObject({ name: 'LastingError', reason: 'invalid_request' });
  });

  it('AWS: throttling, 5xx and timeouts transient; other client errors are not a provider failure', () => {
    const aws = (code: string, status: number) => new AwsServiceError(code, code, status, 'r', 3, {});
    expect(classifyProviderFailure(aws('ThrottlingException', 400))).toMatchObject({ name: 'TransientError', provider: 'aws', code: 'rate_limited' });
    expect(classifyProviderFailure(aws('InternalServerError', 500))).toMatchObject({ name: 'TransientError', code: 'unavailable' });
    expect(classifyProviderFailure(aws('ConditionalCheckFailedException', 400))).toBeUndefined();
  });

  it('connections: a refused fetch, the outbound guard’s network error and timeouts are transient', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    expect(classifyProviderFailure(refused)).toMatchObject({ name: 'TransientError', provider: 'network', code: 'connection' });
    expect(classifyProviderFailure(new OutboundNetworkError('reset'))).toMatchObject({ code: 'connection' });
    expect(classifyProviderFailure(new OutboundTimeoutError('slow'))).toMatchObject({ code: 'timeout' });
    expect(classifyProviderFailure(new DOMException('The operation timed out.', 'TimeoutError'))).toMatchObject({ code: 'timeout' });
  });

  it('SES: its own refusals are lasting even outside the mailer; every other SES 4xx but throttling is lasting for SendEmail', () => {
    const aws = (code: string, status: number, message = code) => new AwsServiceError(code, message, status, 'r', 1, {});
    // By name, wherever the error surfaces: these names are SES's alone.
    expect(classifyProviderFailure(aws('MessageRejected', 400))).toMatchObject({ name: 'LastingError', provider: 'ses', code: 'MessageRejected', reason: 'invalid_request' });
    expect(classifyProviderFailure(aws('MailFromDomainNotVerifiedException', 400))).toMatchObject({ name: 'LastingError', reason: 'permission' });
    expect(classifyProviderFailure(aws('SendingPausedException', 400))).toMatchObject({ name: 'LastingError', reason: 'permission' });
    // What SendEmail answers (the mailer's classification): a refused request is refused again.
    expect(classifySesFailure(aws('BadRequestException', 400))).toMatchObject({ name: 'LastingError', provider: 'ses', reason: 'invalid_request', code: 'BadRequestException' });
    expect(classifySesFailure(aws('NotFoundException', 404))).toMatchObject({ name: 'LastingError', reason: 'not_found' });
    expect(classifySesFailure(aws('AccessDeniedException', 403))).toMatchObject({ name: 'LastingError', reason: 'permission' });
    expect(classifySesFailure(aws('UnrecognizedClientException', 403))).toMatchObject({ name: 'LastingError', reason: 'credentials' });
    expect(classifySesFailure(aws('InvalidSignatureException', 403))).toMatchObject({ name: 'LastingError', reason: 'credentials' });
    // An outage stays transient, named for SES.
    expect(classifySesFailure(aws('TooManyRequestsException', 429))).toMatchObject({ name: 'TransientError', provider: 'ses', code: 'rate_limited', status: 429 });
    expect(classifySesFailure(aws('InternalFailure', 500))).toMatchObject({ name: 'TransientError', provider: 'ses', code: 'unavailable', status: 500 });
    expect(classifySesFailure(new Error('bug'))).toBeUndefined();
  });

  it('tells a request the provider never saw (refused, unresolved) from one it may have acted on (reset, timeout)', () => {
    const failed = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
    expect(neverReachedProvider(failed('ECONNREFUSED'))).toBe(true);
    expect(neverReachedProvider(failed('ENOTFOUND'))).toBe(true);
    expect(neverReachedProvider(classifyProviderFailure(failed('ECONNREFUSED')))).toBe(true);
    expect(neverReachedProvider(failed('ECONNRESET'))).toBe(false);
    expect(neverReachedProvider(failed('UND_ERR_SOCKET'))).toBe(false);
    expect(neverReachedProvider(new DOMException('The operation timed out.', 'TimeoutError'))).toBe(false);
    expect(neverReachedProvider(new Error('bug'))).toBe(false);
  });

  it('passes the two kinds through and leaves anything else unclassified', () => {
    const lasting = new LastingError({ provider: 'x', code: 1, reason: 'permission' });
    const transient = new TransientError({ provider: 'x', code: 'timeout' });
    expect(classifyProviderFailure(lasting)).toBe(lasting);
    expect(classifyProviderFailure(transient)).toBe(transient);
    for (const other of [new Error('bug'), new TypeError('x is undefined'), 'text', undefined, null]) expect(classifyProviderFailure(other)).toBeUndefined();
  });
});

describe('S3 answers (the uploads bucket through presigned URLs)', () => {
  const reader = (status: number, headers: Record<string, string> = {}) =>
    new PresignedObjectReader({ urlFor: async () => 'https://bucket.example/key' }, 1024, async () => new Response('<Error/>', { status, headers }));

  it('a 503 or 429 is transient with its Retry-After; a 403 stays ours to fix (unclassified)', async () => {
    await expect(reader(503, { 'retry-after': '5' }).read('k')).rejects.toMatchObject({ name: 'TransientError', provider: 's3', code: 'unavailable', retryAfterSeconds: 5, message: 'Reading the uploaded object answered HTTP 503' });
    await expect(reader(429).read('k')).rejects.toMatchObject({ name: 'TransientError', code: 'rate_limited' });
    const forbidden = await reader(403).read('k').catch((error: unknown) => error);
    expect(forbidden).toMatchObject({ message: 'Reading the uploaded object answered HTTP 403' });
    expect(classifyProviderFailure(forbidden)).toBeUndefined();
  });
});
