/**
 * WhatsApp Cloud API (Meta Graph API) as the domain sees it. The adapter (adapters/whatsapp/graph.ts)
 * speaks HTTP to config().WHATSAPP_GRAPH_URL (Meta's https://graph.facebook.com/v2x.0 in production,
 * the fake Graph server in local/fake-whatsapp/ locally and in tests).
 */
import type { MessageInteractive, MessageLocation } from '../../contract/whatsapp-media.js';

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

/** What a send carries besides its content. */
export interface SendOptions {
  /**
   * Our id of the message (Meta's biz_opaque_callback_data, echoed in its status webhooks): when
   * the answer to a send was lost, Meta's status still tells which of our messages it accepted
   * (apply-status.ts).
   */
  reference?: string;
}

export interface GraphClient {
  /** POST /{phoneId}/messages (type text; `to` a phone/wa_id, or a BSUID sent as `recipient`). Returns Meta's message id (wamid…). */
  sendText(credentials: WhatsAppCredentials, to: string, text: string, options?: SendOptions): Promise<{ messageId: string }>;
  /** GET /{phoneId}: proves the token and the phone number id (the integration's /test). */
  getPhoneNumber(credentials: WhatsAppCredentials): Promise<GraphPhoneNumber>;
}

/**
 * What a send carries besides text (issue 31), in Meta's message types: an uploaded media (its
 * Meta media id; a caption; a document's file name), a location, or reply buttons / a list with
 * their body text.
 */
export type OutboundContent =
  | { type: 'image' | 'document' | 'audio' | 'video'; mediaId: string; caption?: string; fileName?: string }
  | { type: 'location'; location: MessageLocation }
  | { type: 'interactive'; body: string; interactive: MessageInteractive };

/** Sends of media, locations and interactive messages (issue 31), beside GraphClient's text. */
export interface GraphContentClient {
  /** POST /{phoneId}/messages with `content` in Meta's shape. Returns Meta's message id. Errors as sendText. */
  sendContent(credentials: WhatsAppCredentials, to: string, content: OutboundContent, options?: SendOptions): Promise<{ messageId: string }>;
}

/** A message template as Meta lists it (GET /{waba-id}/message_templates). */
export interface GraphTemplate {
  name: string;
  language: string;
  /** APPROVED, PENDING, REJECTED, PAUSED, DISABLED… */
  status: string;
  category: string;
  /** Meta's components as given (HEADER, BODY, FOOTER, BUTTONS). */
  components: unknown[];
}

export interface TemplateSend {
  name: string;
  language: string;
  /** Body parameters in placeholder order; `names` set for a template with named placeholders. */
  parameters: string[];
  names?: string[];
  /** As SendOptions.reference. */
  reference?: string;
}

/** The WhatsApp Business Management side of the Graph API (issue 17), apart from GraphClient's sends. */
export interface GraphTemplateClient {
  /** Every template of the business account (credentials.businessId = the WABA id), all pages up to a bound. */
  listTemplates(credentials: WhatsAppCredentials): Promise<GraphTemplate[]>;
  /** POST /{phoneId}/messages type template with body parameters. Returns Meta's message id. */
  sendTemplate(credentials: WhatsAppCredentials, to: string, template: TemplateSend): Promise<{ messageId: string }>;
}

/**
 * A business-scoped user id (BSUID: country code, '.', alphanumerics, e.g. US.13491208655302741918;
 * a parent BSUID has an extra segment): the id of a customer known by a WhatsApp username. Sends to
 * one go in Meta's `recipient` field instead of `to`.
 */
export function isBsuid(id: string): boolean {
  return /^[A-Z]{2}\.(?:[A-Z]{2,4}\.)?[A-Za-z0-9]+$/.test(id);
}

export type GraphErrorKind = 'auth' | 'not_found' | 'rate_limit' | 'bad_request' | 'unavailable';

/** A Graph API failure; `message` is written for the user (Meta's own error text when it gave one, never tokens). */
export class GraphError extends Error {
  /** Meta's Retry-After (seconds), when its answer had one. */
  readonly retryAfterSeconds?: number;
  /**
   * A send whose outcome is unknown (issue 34): the request went out but its answer was lost (a
   * timeout, a connection broken after the request was written, an unreadable 2xx answer), so Meta
   * may have accepted it. Its send API is not idempotent: sending again could deliver twice.
   */
  readonly deliveryUnknown: boolean;

  constructor(
    readonly kind: GraphErrorKind,
    message: string,
    /** Meta's numeric error code, when there was one (e.g. 131047 = re-engagement window closed). */
    readonly code?: number,
    options: { retryAfterSeconds?: number; deliveryUnknown?: boolean } = {},
  ) {
    super(message);
    this.name = 'GraphError';
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    this.deliveryUnknown = options.deliveryUnknown ?? false;
  }
}

// The whatsapp-inbound queue message (schema: contract/jobs.ts): a delivery as received, or a
// pointer to a piece too big for SQS parked in the uploads bucket under INBOUND_BODY_PREFIX.
export { INBOUND_BODY_PREFIX, type QueuedInboundJob, type WhatsAppInboundJob } from '../../contract/jobs.js';

/** Inbound bodies parked in the uploads bucket (adapters/whatsapp/inbound-bodies.ts). */
export interface InboundBodyStore {
  put(key: string, body: string): Promise<void>;
  get(key: string): Promise<string>;
  delete(key: string): Promise<void>;
}
