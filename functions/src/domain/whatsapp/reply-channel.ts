/**
 * WhatsApp as the conversations' reply channel (domain/conversations/ports.ts ReplyChannels): a
 * person's reply or a retried message goes out from the user's WhatsApp number through the Graph
 * API, and a Graph failure becomes the error the user reads.
 */
import { integrationHealthReasons } from '../../contract/integration-health.js';
import { whatsappMessages } from '../../contract/whatsapp.js';
import type { MessageFailureDetail, ReplyChannel, ReplyChannels } from '../conversations/ports.js';
import { DomainError, GatewayTimeoutError, ServiceUnavailableError, TooManyRequestsError, ValidationError } from '../errors.js';
import { credentialFailureOf, type IntegrationHealthReports } from '../integrations/health.js';
import { graphErrorToDomain, metaErrorWords, sendFailureOf } from './graph-errors.js';
import { sendableTemplates } from './templates.js';
import type { WhatsAppConnection } from './integration.js';
import { GraphMediaError, type GraphMediaClient, type GraphMediaErrorKind } from './media/ports.js';
import { GraphError, type GraphClient, type GraphContentClient, type GraphErrorKind, type GraphTemplateClient } from './ports.js';

/**
 * A send's Graph API failure as the user should read it (the HTTP error, and the text stored on
 * the message): the integration's mapping (token → 400, phone id → 400), except that a rate limit
 * is a 429, a refused message is a 400 with Meta's reason (the closed 24-hour window in our
 * words), and (issue 34) WhatsApp unavailable for now is a 503 "temporarily unavailable, not sent,
 * try again" with Meta's code beside it, while a send whose answer was lost is a 504 "not
 * confirmed": Meta may have it, so it is not sent again by itself (agent-reply.ts, at most once).
 */
export function graphFailure(error: GraphError): DomainError {
  const code = error.code !== undefined ? { errorCode: String(error.code) } : undefined;
  if (sendFailureOf(error) === 'unknown') return new GatewayTimeoutError(whatsappMessages.deliveryUnknown, code);
  if (error.kind === 'rate_limit') return new TooManyRequestsError(error.message);
  // Meta answers some template errors with 404 (132001): the code says more than the status.
  const words = metaErrorWords(error.code);
  if (words) return new ValidationError(words);
  if (error.kind === 'bad_request') return new ValidationError(error.message);
  if (error.kind === 'unavailable') return new ServiceUnavailableError(whatsappMessages.graphTemporarilyUnavailable, error.retryAfterSeconds, code);
  return graphErrorToDomain(error);
}

/**
 * A send refused because of the integration's credentials (issue 34): a 400 naming the reason in
 * words, with Meta's code and our reason key beside the message (the failed message keeps them).
 */
export class CredentialsRefusedError extends DomainError {
  readonly status = 400;
  constructor(message: string, detail: Required<MessageFailureDetail>) {
    super(message, { ...detail });
  }
}

export interface WhatsAppReplyChannelDeps {
  /** The user's active WhatsApp integration with its token opened, or null (composition/whatsapp.ts). */
  connection(userId: string): Promise<WhatsAppConnection | null>;
  /** The templates' calls come with the real client (adapters/whatsapp/graph.ts); a client without them has no templates. */
  graph: GraphClient & Partial<GraphTemplateClient> & Partial<GraphContentClient>;
  /** Meta's media endpoint (issue 31: an owner's attachment is uploaded, then sent by its media id); absent = no files. */
  media?: Pick<GraphMediaClient, 'upload'>;
  /** A call refused for the token flags the integration, one that works clears it (issue 34; never throws). */
  health?: IntegrationHealthReports;
}

/** A media upload's failure as a send's (an upload is not a send: its outcome is never unknown). */
const UPLOAD_FAILURE_KINDS: Record<GraphMediaErrorKind, GraphErrorKind> = {
  auth: 'auth',
  not_found: 'not_found',
  bad_request: 'bad_request',
  expired: 'unavailable',
  unavailable: 'unavailable',
};
const asGraphError = (error: unknown) => (error instanceof GraphMediaError ? new GraphError(UPLOAD_FAILURE_KINDS[error.kind], error.message, error.code) : error);

/** Sends from the user's WhatsApp number; a GraphError is thrown as graphFailure(), anything else as is. */
export function createWhatsAppReplyChannels(deps: WhatsAppReplyChannelDeps): ReplyChannels {
  return {
    async forUser(userId: string): Promise<ReplyChannel | null> {
      const connection = await deps.connection(userId);
      if (!connection) return null;
      let flagged = connection.health;
      const graphCall = async <T>(run: () => Promise<T>): Promise<T> => {
        let result: T;
        try {
          result = await run();
        } catch (error) {
          if (!(error instanceof GraphError)) throw error;
          const refused = credentialFailureOf(error);
          if (!refused) throw graphFailure(error);
          await deps.health?.failed(userId, error, flagged);
          throw new CredentialsRefusedError(integrationHealthReasons[refused.reason], { errorCode: refused.code, errorReason: refused.reason });
        }
        if (flagged) {
          await deps.health?.recovered(userId, 'whatsapp-business', flagged);
          flagged = undefined;
        }
        return result;
      };
      // Issue 31: a file is uploaded to Meta's media endpoint first, then sent by its media id (a document with its file name).
      const { media: mediaClient } = deps;
      const { sendContent } = deps.graph;
      const sendMedia: ReplyChannel['sendMedia'] =
        mediaClient && sendContent
          ? async (to, media, options) => {
              const upload = { bytes: media.bytes, mimeType: media.mimeType, fileName: media.fileName };
              const { mediaId } = await graphCall(() =>
                mediaClient.upload(connection.credentials, upload).catch((error: unknown) => {
                  throw asGraphError(error);
                }),
              );
              const content = { type: media.kind, mediaId, ...(media.caption ? { caption: media.caption } : {}), ...(media.kind === 'document' ? { fileName: media.fileName } : {}) };
              return graphCall(() => sendContent.call(deps.graph, connection.credentials, to, content, options));
            }
          : undefined;
      return {
        phoneNumber: connection.phoneNumber,
        phoneNumberId: connection.credentials.phoneId,
        sendText: (to, text, options) => graphCall(() => deps.graph.sendText(connection.credentials, to, text, options)),
        ...(sendMedia ? { sendMedia } : {}),
        // Issue 31: a location or buttons / a list sent again in its own shape (the Message Hub's retry).
        ...(sendContent ? { sendContent: (to, content, options) => graphCall(() => sendContent.call(deps.graph, connection.credentials, to, content, options)) } : {}),
        async listTemplates() {
          const { listTemplates } = deps.graph;
          if (!listTemplates) return [];
          return sendableTemplates(await graphCall(() => listTemplates.call(deps.graph, connection.credentials)));
        },
        async sendTemplate(to, template) {
          const { sendTemplate } = deps.graph;
          if (!sendTemplate) throw new ValidationError(whatsappMessages.graphUnavailable);
          const named = template.parameterNames.some((n) => !/^\d+$/.test(n));
          return graphCall(() =>
            sendTemplate.call(deps.graph, connection.credentials, to, {
              name: template.name,
              language: template.language,
              parameters: template.parameters,
              ...(named ? { names: template.parameterNames } : {}),
              ...(template.reference ? { reference: template.reference } : {}),
            }),
          );
        },
      };
    },
  };
}
