/**
 * WhatsApp Cloud API (Meta Graph API) as the domain sees it. The adapter (adapters/whatsapp/graph.ts)
 * speaks HTTP to config().WHATSAPP_GRAPH_URL (Meta's https://graph.facebook.com/v2x.0 in production,
 * the fake Graph server in local/fake-whatsapp/ locally and in tests).
 */

export interface WhatsAppCredentials {
  bearerToken: string;
  businessId: string;
  phoneId: string;
}

export interface GraphPhoneNumber {
  id: string;
  displayPhoneNumber: string;
  verifiedName: string;
}

export interface GraphClient {
  /** POST /{phoneId}/messages (type text). Returns Meta's message id (wamid…). */
  sendText(credentials: WhatsAppCredentials, to: string, text: string): Promise<{ messageId: string }>;
  /** GET /{phoneId}: proves the token and the phone number id (the integration's /test). */
  getPhoneNumber(credentials: WhatsAppCredentials): Promise<GraphPhoneNumber>;
}

export type GraphErrorKind = 'auth' | 'not_found' | 'rate_limit' | 'bad_request' | 'unavailable';

/** A Graph API failure; `message` is written for the user (Meta's own error text when it gave one, never tokens). */
export class GraphError extends Error {
  constructor(
    readonly kind: GraphErrorKind,
    message: string,
    /** Meta's numeric error code, when there was one (e.g. 131047 = re-engagement window closed). */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

/**
 * Body of a whatsapp-inbound queue message: one verified webhook delivery, as received.
 * `body` is the raw JSON text (the signature was checked over these bytes); the worker parses it.
 */
export interface WhatsAppInboundJob {
  userId: string;
  integrationId: string;
  /** ISO time the webhook acknowledged the delivery. */
  receivedAt: string;
  body: string;
}

/**
 * A whatsapp-inbound queue message: the job itself, or — when one message of a delivery is too
 * big for SQS on its own — a pointer to its body stored in the uploads bucket under
 * INBOUND_BODY_PREFIX (1-day lifecycle), which the worker reads and then deletes.
 */
export type QueuedInboundJob = Omit<WhatsAppInboundJob, 'body'> & ({ body: string; bodyKey?: undefined } | { body?: undefined; bodyKey: string });

/** Uploads-bucket prefix of inbound bodies too large for a queue message. */
export const INBOUND_BODY_PREFIX = 'tmp/whatsapp-inbound/';

/** Inbound bodies parked in the uploads bucket (adapters/whatsapp/inbound-bodies.ts). */
export interface InboundBodyStore {
  put(key: string, body: string): Promise<void>;
  get(key: string): Promise<string>;
  delete(key: string): Promise<void>;
}
