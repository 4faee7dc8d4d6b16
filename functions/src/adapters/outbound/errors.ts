/**
 * Why an outbound call to a user-supplied URL failed. Messages are safe to show to the user who
 * supplied the URL (they name their own host, never our internals).
 */
export class OutboundError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The scheme or the address is refused (not http/https, not a public unicast address). */
export class OutboundBlockedError extends OutboundError {}

/** The whole exchange (every redirect hop and the body) took longer than the timeout. */
export class OutboundTimeoutError extends OutboundError {}

/** The response body is larger than the cap and the caller asked to fail rather than truncate. */
export class OutboundTooLargeError extends OutboundError {}

/** DNS failure, refused connection, TLS error, reset, too many redirects. */
export class OutboundNetworkError extends OutboundError {}
