/** A Graph API failure as the API answers it (integration /test, human replies, retries). */
import { whatsappMessages } from '../../contract/whatsapp.js';
import { BadGatewayError, ValidationError, type DomainError } from '../errors.js';
import { GraphError } from './ports.js';

/**
 * Meta's send errors in words (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes):
 * what happened and what to do, instead of Meta's terse titles. English, as the API's other texts.
 */
export const META_ERROR_WORDS: Readonly<Record<number, string>> = {
  131026: 'WhatsApp could not deliver the message: the customer may not use WhatsApp, may use an old version, or has not accepted the latest terms.',
  131047: whatsappMessages.windowClosed,
  131051: 'WhatsApp does not support this type of message.',
  132000: "The number of parameters does not match the template's: check the template in WhatsApp Manager.",
  132001: 'WhatsApp does not know this template in this language: it may have been deleted, renamed or not approved yet.',
  132005: 'The template is too long once its parameters are filled in: shorten the parameters.',
  132007: "The template's text or parameters break WhatsApp's formatting rules (for example new lines, tabs or more than 4 spaces in a row in a parameter).",
  132012: 'A template parameter has the wrong format (for example text where the template expects a date, a currency or an image).',
  132015: 'WhatsApp paused this template because of its low quality: edit it in WhatsApp Manager or choose another one.',
  132016: 'WhatsApp disabled this template because of its low quality: choose another template.',
};

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
