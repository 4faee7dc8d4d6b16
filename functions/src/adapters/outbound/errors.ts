/**
 * Why an outbound call to a user-supplied URL failed. Messages are safe to show to the user who
 * supplied the URL (they name their own host, never our internals nor an IP address a name
 * resolved to); `detail` holds what only logs may see.
 */
import { serverErrorMessages } from '../../contract/server-texts.js';

export class OutboundError extends Error {
  readonly detail?: string;

  constructor(message: string, options?: { cause?: unknown; detail?: string }) {
    super(message, options);
    this.name = new.target.name;
    if (options?.detail !== undefined) this.detail = options.detail;
  }
}

/**
 * The one text for a refused address, whatever the address and however it was reached (a
 * literal, a name's DNS answer, a redirect): naming the IP would let a user map our network
 * (what internal names resolve to) through error texts.
 */
export const BLOCKED_ADDRESS_MESSAGE = serverErrorMessages.blockedAddress;

/** The scheme or the address is refused (not http/https, not a public unicast address). */
export class OutboundBlockedError extends OutboundError {
  /** The message without its 'Blocked:' prefix, for texts that say 'not allowed' themselves. */
  get reason(): string {
    return this.message.replace(/^blocked:\s*/i, '').trim() || 'the address is not allowed';
  }
}

/** A refused address: the user sees BLOCKED_ADDRESS_MESSAGE, the address and its range stay in `detail`. */
export const blockedAddressError = (detail: string) => new OutboundBlockedError(BLOCKED_ADDRESS_MESSAGE, { detail });

/** The whole exchange (every redirect hop and the body) took longer than the timeout. */
export class OutboundTimeoutError extends OutboundError {}

/** The response body is larger than the cap and the caller asked to fail rather than truncate. */
export class OutboundTooLargeError extends OutboundError {}

/** DNS failure, refused connection, TLS error, reset, too many redirects. */
export class OutboundNetworkError extends OutboundError {}
