/**
 * AWS error codes the SDK's standard retry strategy treats as throttling or as transient, in one
 * place: the fetch-based AWS clients retry them within a call (adapters/aws/aws-json.ts), and the
 * queue workers classify what is left after those tries (domain/retry.ts).
 */
export const AWS_THROTTLING_ERRORS: ReadonlySet<string> = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'RequestThrottled',
  'SlowDown',
  'PriorRequestNotComplete',
  'EC2ThrottledException',
]);

export const AWS_TIMEOUT_ERRORS: ReadonlySet<string> = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
