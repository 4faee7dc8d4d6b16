/**
 * A model failure as the user should read it (integrationMessages.model*), never the provider's
 * own text. Same statuses as the agent chat: a rejected key or an unavailable model is the
 * user's to fix (400), a rate limit 429, a timeout 504, anything else 502.
 */
import { integrationMessages } from '../../contract/integrations.js';
import { ModelError } from '../ai/ports.js';
import { BadGatewayError, DomainError, TooManyRequestsError, ValidationError } from '../errors.js';

/** The model took too long (504: the request itself was fine). */
export class ModelTimeoutError extends DomainError {
  readonly status = 504;
}

export function modelErrorToDomain(error: ModelError): DomainError {
  switch (error.kind) {
    case 'auth':
      return new ValidationError(integrationMessages.modelKeyRejected);
    case 'rate_limit':
      return new TooManyRequestsError(integrationMessages.modelRateLimited);
    case 'timeout':
      return new ModelTimeoutError(integrationMessages.modelTimeout);
    case 'not_found':
      return new ValidationError(integrationMessages.modelNotFound);
    default:
      return new BadGatewayError(integrationMessages.modelUnavailable);
  }
}

/** Runs a model call; a ModelError becomes its DomainError, anything else propagates. */
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
