/**
 * A failed answer of the uploads bucket (S3 through presigned URLs, s3-presigner.ts) as an error
 * (issue 34): 408, 429 and 5xx (SlowDown, InternalError, an outage) are a TransientError with the
 * answer's Retry-After, so a queue job waits for S3 on the retry schedule and a feature can tell an
 * outage from a real problem. Any other status (403 of a wrong grant, 400) stays a plain Error:
 * ours to fix, not the user's, so it is neither "lasting" for them nor silently retried for ever
 * (unclassified: retried, then dead-lettered). The message, for logs only, is the same either way.
 * A failed connection is recognised where it is caught (domain/retry.ts classifyProviderFailure).
 */
import { classifyHttpFailure, TransientError } from '../domain/retry.js';

export function s3Failure(message: string, response: { status: number; headers: { get(name: string): string | null } }): Error {
  const failure = classifyHttpFailure('s3', response.status, { retryAfter: response.headers.get('retry-after'), message });
  return failure instanceof TransientError ? failure : new Error(message);
}
