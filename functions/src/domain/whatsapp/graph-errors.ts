/** A Graph API failure as the API answers it (integration /test, human replies, retries). */
import { whatsappMessages } from '../../contract/whatsapp.js';
import { metaErrorMessages } from '../../contract/whatsapp-templates.js';
import { BadGatewayError, ValidationError, type DomainError } from '../errors.js';
import { GraphError } from './ports.js';

/** Meta's send errors in words (contract/whatsapp-templates.ts, so the frontend's translations can cover them). */
export const META_ERROR_WORDS = metaErrorMessages;

/** Meta's error code in words, or undefined for a code without its own explanation. */
export function metaErrorWords(code: number | undefined): string | undefined {
  return code === undefined ? undefined : META_ERROR_WORDS[code];
}

/**
 * A Graph API failure as the user reads it: a rejected token or an unknown phone number id is
 * the user's to fix (400); anything else (rate limit, bad request, outage) is 502 graphUnavailable.
 */
export function graphErrorToDomain(error: GraphError): DomainError {
  switch (error.kind) {
    case 'auth':
      return new ValidationError(whatsappMessages.graphAuthFailed);
    case 'not_found':
      return new ValidationError(whatsappMessages.graphPhoneNotFound);
    default:
      return new BadGatewayError(whatsappMessages.graphUnavailable);
  }
}

/**
 * What a failed send allows (issue 34):
 * - 'retry': Meta refused it for now (5xx, its "temporarily unavailable" codes, throttling 4 /
 *   80007 / 130429…, a connection never made): it did not take the message, the same send may be
 *   made again later;
 * - 'unknown': the request went out and its answer was lost (GraphError.deliveryUnknown): Meta may
 *   have accepted it, and a second send could deliver twice, so it is never repeated by itself;
 * - 'refused': Meta refused this send for good (the 24-hour window 131047, undeliverable 131026,
 *   invalid parameter 100, a token 190…): the same send fails again.
 */
export function sendFailureOf(error: GraphError): 'retry' | 'unknown' | 'refused' {
  if (error.deliveryUnknown) return 'unknown';
  return error.kind === 'unavailable' || error.kind === 'rate_limit' ? 'retry' : 'refused';
}

/** Runs a Graph call; a GraphError becomes its DomainError (after onError), anything else propagates. */
export async function withGraphErrors<T>(run: () => Promise<T>, onError?: (error: GraphError) => void): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GraphError) {
      onError?.(error);
      throw graphErrorToDomain(error);
    }
    throw error;
  }
}
