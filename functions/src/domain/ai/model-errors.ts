/**
 * A model failure as the user should read it (integrationMessages.model*), never the provider's
 * own text. One mapping for the agent chat and the integrations (test, AI-improve): a rejected key
 * or an unavailable model is the user's to fix (400), a rate limit 429, a timeout 504, anything
 * else 502. Imports only the model port, the errors and the messages, so neither bundle grows.
 */
import { integrationMessages } from '../../contract/integrations.js';
import { BadGatewayError, GatewayTimeoutError, TooManyRequestsError, ValidationError, type DomainError } from '../errors.js';
import { ModelError } from './ports.js';

export function modelErrorToDomain(error: ModelError): DomainError {
  switch (error.kind) {
    case 'auth':
      return new ValidationError(integrationMessages.modelKeyRejected);
    case 'rate_limit':
      return new TooManyRequestsError(integrationMessages.modelRateLimited);
    case 'timeout':
      return new GatewayTimeoutError(integrationMessages.modelTimeout);
    case 'not_found':
      return new ValidationError(integrationMessages.modelNotFound);
    default:
      return new BadGatewayError(integrationMessages.modelUnavailable);
  }
}

/** Runs a model call; a ModelError becomes its DomainError (after onError), anything else propagates. */
export async function withModelErrors<T>(run: () => Promise<T>, onError?: (error: ModelError) => void): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ModelError) {
      onError?.(error);
      throw modelErrorToDomain(error);
    }
    throw error;
  }
}
