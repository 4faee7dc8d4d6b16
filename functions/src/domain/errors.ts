/**
 * The small set of domain errors. Domain code throws these; the HTTP layer maps
 * them to status codes in one place (http/respond.ts). Messages are user-facing:
 * write them for the person reading the toast, never with internals.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  constructor(
    message: string,
    /** Extra top-level fields of the error body (e.g. a 409's `existingContactId`); never internals. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad input: a 400 with the first failing rule's message. */
export class ValidationError extends DomainError {
  readonly status = 400;
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export class UnauthorizedError extends DomainError {
  readonly status = 401;
}

/** A plan or feature gate: the caller must pay or upgrade. */
export class PaymentRequiredError extends DomainError {
  readonly status = 402;
}

export class ForbiddenError extends DomainError {
  readonly status = 403;
}

/** Missing, or belonging to another tenant: both answer 404 so ids cannot be probed. */
export class NotFoundError extends DomainError {
  readonly status = 404;
}

export class ConflictError extends DomainError {
  readonly status = 409;
}

/** Existed, and is no longer usable (an expired or cancelled invitation link): 410. */
export class GoneError extends DomainError {
  readonly status = 410;
}

export class TooManyRequestsError extends DomainError {
  readonly status = 429;
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A usage limit of the plan was reached. */
export class LimitExceededError extends DomainError {
  readonly status = 403;
}

/** A provider we depend on (e.g. Stripe) failed or is unreachable; the message never carries its internals. */
export class BadGatewayError extends DomainError {
  readonly status = 502;
}

/**
 * Something we depend on (storage, the table) is unreachable for now: 503, the request itself was
 * fine and nothing was half-written, so the same request can simply be repeated (issue 34).
 */
export class ServiceUnavailableError extends DomainError {
  readonly status = 503;
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
    details?: Record<string, unknown>,
  ) {
    super(message, details);
  }
}

/** A provider we depend on took too long (504: the request itself was fine). */
export class GatewayTimeoutError extends DomainError {
  readonly status = 504;
}
