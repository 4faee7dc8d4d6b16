/**
 * WhatsApp as the conversations' reply channel (domain/conversations/ports.ts ReplyChannels): a
 * person's reply or a retried message goes out from the user's WhatsApp number through the Graph
 * API, and a Graph failure becomes the error the user reads.
 */
import { whatsappMessages } from '../../contract/whatsapp.js';
import type { ReplyChannel, ReplyChannels } from '../conversations/ports.js';
import { TooManyRequestsError, ValidationError, type DomainError } from '../errors.js';
import { graphErrorToDomain } from './graph-errors.js';
import type { WhatsAppConnection } from './integration.js';
import { GraphError, type GraphClient } from './ports.js';

/** Meta's "re-engagement message" error: more than 24 hours since the customer's last message. */
const META_WINDOW_CLOSED = 131047;

/**
 * A send's Graph API failure as the user should read it (the HTTP error, and the text stored on
 * the message): the integration's mapping (token → 400, phone id → 400, else 502), except that a
 * rate limit is a 429 and a refused message is a 400 with Meta's reason (the closed 24-hour window
 * in our words).
 */
export function graphFailure(error: GraphError): DomainError {
  if (error.kind === 'rate_limit') return new TooManyRequestsError(error.message);
  if (error.kind === 'bad_request') return new ValidationError(error.code === META_WINDOW_CLOSED ? whatsappMessages.windowClosed : error.message);
  return graphErrorToDomain(error);
}

export interface WhatsAppReplyChannelDeps {
  /** The user's active WhatsApp integration with its token opened, or null (composition/whatsapp.ts). */
  connection(userId: string): Promise<WhatsAppConnection | null>;
  graph: GraphClient;
}

/** Sends from the user's WhatsApp number; a GraphError is thrown as graphFailure(), anything else as is. */
export function createWhatsAppReplyChannels(deps: WhatsAppReplyChannelDeps): ReplyChannels {
  return {
    async forUser(userId: string): Promise<ReplyChannel | null> {
      const connection = await deps.connection(userId);
      if (!connection) return null;
      return {
        phoneNumber: connection.phoneNumber,
        phoneNumberId: connection.credentials.phoneId,
        async sendText(to, text) {
          try {
            return await deps.graph.sendText(connection.credentials, to, text);
          } catch (error) {
            throw error instanceof GraphError ? graphFailure(error) : error;
          }
        },
      };
    },
  };
}
