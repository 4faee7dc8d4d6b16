/**
 * The voice-relay WebSocket function (issue 16; routes.ts socketApis 'voice-relay'): API Gateway
 * WebSocket events of Twilio ConversationRelay connections.
 *
 * - $connect: X-Twilio-Signature over the relay URL is verified before anything is stored;
 *   refused → 403 (API Gateway refuses the handshake).
 * - $default: one ConversationRelay message (domain/voice/relay/session.ts). Always 200: a bad or
 *   failed frame is logged, never an error that would drop the caller's connection.
 * - $disconnect: the connection record is removed.
 * - { warmUp: true } (the incoming-call webhook's asynchronous invoke): builds the composition so
 *   the first frame of the call finds a warm container, and returns.
 */
import { logger } from '../adapters/logger.js';
import { relaySession } from '../composition/voice-relay.js';

export interface RelaySocketEvent {
  requestContext: {
    routeKey: string;
    eventType?: string;
    connectionId: string;
    domainName?: string;
    stage?: string;
    requestId?: string;
    apiId?: string;
    messageId?: string;
    requestTimeEpoch?: number;
  };
  headers?: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export type RelayHandlerEvent = RelaySocketEvent | { warmUp: true };

const OK = { statusCode: 200 };

/** A header by name whatever its case (API Gateway keeps the client's). */
function header(headers: RelaySocketEvent['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : undefined;
}

/** When the frame reached API Gateway (latencies count from it); our clock when that is missing or odd. */
function arrivedAt(epoch: number | undefined, now: number): number {
  return typeof epoch === 'number' && epoch <= now && epoch > now - 60_000 ? epoch : now;
}

export async function handler(event: RelayHandlerEvent): Promise<{ statusCode: number; body?: string }> {
  const now = Date.now();
  if ('warmUp' in event) {
    relaySession();
    return OK;
  }
  const ctx = event.requestContext;
  try {
    switch (ctx.routeKey) {
      case '$connect': {
        const accepted = await relaySession().connect({
          connectionId: ctx.connectionId,
          user: event.queryStringParameters?.user,
          call: event.queryStringParameters?.call,
          signature: header(event.headers, 'x-twilio-signature'),
        });
        if (!accepted) logger.warn('Voice relay handshake refused: signature, user or call');
        return accepted ? OK : { statusCode: 403, body: 'Forbidden' };
      }
      case '$disconnect':
        await relaySession().disconnect(ctx.connectionId);
        return OK;
      default: {
        const body = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
        await relaySession().frame(ctx.connectionId, body, { arrivedAt: arrivedAt(ctx.requestTimeEpoch, now), messageId: ctx.messageId });
        return OK;
      }
    }
  } catch (error) {
    logger.error('Voice relay event failed', { error: error as Error, routeKey: ctx.routeKey });
    // A failed handshake is refused (nothing was stored before the failure point mattered); frames stay 200.
    return ctx.routeKey === '$connect' ? { statusCode: 500 } : OK;
  }
}
