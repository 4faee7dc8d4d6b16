import { config } from '../../config.js';
import { once } from '../../lib/once.js';
import { publicEndpoint, signedJsonRequests } from './aws-json.js';

/**
 * SESv2 (REST-JSON: the operation is the path) over fetch (aws-json.ts) instead of the SDK's
 * SESv2 client (issue 28: ~60 KB of every function that sends an e-mail). Signed as service
 * 'ses'; its public endpoint is email.{region}.
 */
export const sesRequests = once(() => {
  const { AWS_REGION, SES_ENDPOINT } = config();
  return signedJsonRequests({ service: 'ses', region: AWS_REGION, endpoint: SES_ENDPOINT || publicEndpoint('email', AWS_REGION) });
});

/**
 * SESv2 with one request per call (no in-process retry): the outbound-email worker's (issue 34),
 * whose queue retries on its schedule. Resending after a connection broke mid-request could send
 * an e-mail twice; the worker only retries what it knows SES did not take.
 */
export const sesSingleRequests = once(() => {
  const { AWS_REGION, SES_ENDPOINT } = config();
  return signedJsonRequests({ service: 'ses', region: AWS_REGION, endpoint: SES_ENDPOINT || publicEndpoint('email', AWS_REGION), maxAttempts: 1 });
});
