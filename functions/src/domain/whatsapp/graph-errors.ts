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
