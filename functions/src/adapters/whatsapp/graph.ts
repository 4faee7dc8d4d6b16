/**
 * GraphClient over plain fetch (Meta publishes no official Node SDK for the WhatsApp Cloud API).
 * Base URL: config().WHATSAPP_GRAPH_URL (https://graph.facebook.com/v21.0 in production, the fake
 * Graph server of local/fake-whatsapp/ locally and in tests). Every call is bounded (10 s).
 *
 * Failures become a GraphError (domain/whatsapp/ports.ts) from the HTTP status and Meta's error
 * body {error: {message, type, code, error_subcode, error_data, fbtrace_id}}:
 *   401, code 190 (expired/invalid token), 10 and 200-299 (permission) → auth
 *   404, code 100 (object does not exist / invalid parameter)          → not_found
 *   429, codes 4, 80007, 130429, 131048, 131056 (throughput/spam caps)  → rate_limit
 *   other 4xx                                                          → bad_request
 *   codes 2, 131000, 131016, 133004 (Meta's "temporarily unavailable") → unavailable
 *   5xx, network failure, timeout, a body that is not Graph JSON       → unavailable
 * The message is Meta's own text when it gave one (it never echoes the token), else a generic one.
 * A Retry-After header is kept (retryAfterSeconds). A send (POST) whose request went out but whose
 * answer was lost (a timeout, a connection broken once open, a 2xx answer we cannot read) is marked
 * deliveryUnknown: Meta may have accepted it, and its send API is not idempotent. A connection that
 * was never made (refused, the name did not resolve) is not: Meta never saw the request.
 */
import {
  GraphError,
  isBsuid,
  type GraphClient,
  type GraphContentClient,
  type GraphErrorKind,
  type OutboundContent,
  type GraphPhoneNumber,
  type GraphTemplate,
  type GraphTemplateClient,
  type TemplateSend,
  type WhatsAppCredentials,
  type SendOptions,
} from '../../domain/whatsapp/ports.js';
import { whatsappProviderMessages } from '../../contract/server-texts.js';
import { neverReachedProvider, parseRetryAfter } from '../../domain/retry.js';

export const GRAPH_TIMEOUT_MS = 10_000;
/** Templates asked per page and the pages followed: a business with more than 1,000 templates sees the first 1,000. */
export const TEMPLATE_PAGE_SIZE = 100;
export const TEMPLATE_MAX_PAGES = 10;

/**
 * Who a send goes to: Meta takes a phone number / wa_id in `to` (with or without '+'), and a
 * business-scoped user id (a customer known by a WhatsApp username, no phone number) in `recipient`.
 */
export function recipientFields(to: string): { to: string } | { recipient: string } {
  return isBsuid(to) ? { recipient: to } : { to: to.replace(/^\+/, '') };
}

const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131048, 131056]);
/** Meta's codes for a service that is down or overloaded for now, whatever the HTTP status: 2 API Service, 131000 Something went wrong, 131016 Service unavailable, 133004 Server temporarily unavailable. */
const UNAVAILABLE_CODES = new Set([2, 131000, 131016, 133004]);
/** Meta's limit for biz_opaque_callback_data. */
const MAX_REFERENCE = 512;

const FALLBACK_MESSAGES: Record<GraphErrorKind, string> = whatsappProviderMessages;

interface GraphErrorBody {
  message?: unknown;
  type?: unknown;
  code?: unknown;
  error_subcode?: unknown;
  error_data?: { details?: unknown };
}

/** The GraphErrorKind of a failed answer (exported for the unit tests). */
export function graphErrorKind(status: number, code: number | undefined): GraphErrorKind {
  if (status === 401 || code === 190 || code === 10 || (code !== undefined && code >= 200 && code <= 299)) return 'auth';
  if (status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code))) return 'rate_limit';
  if (status === 404 || code === 100) return 'not_found';
  if (status >= 500 || (code !== undefined && UNAVAILABLE_CODES.has(code))) return 'unavailable';
  if (status >= 400) return 'bad_request';
  return 'unavailable';
}

/** A GraphError from a non-2xx answer's status and text (and its Retry-After header). */
export function toGraphError(status: number, text: string, retryAfter?: string | null): GraphError {
  let body: GraphErrorBody | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: GraphErrorBody };
    if (parsed && typeof parsed.error === 'object' && parsed.error) body = parsed.error;
  } catch {
    // Not Graph JSON (a proxy's HTML page): only the status speaks.
  }
  const code = typeof body?.code === 'number' ? body.code : undefined;
  const kind = graphErrorKind(status, code);
  const details = typeof body?.error_data?.details === 'string' ? body.error_data.details : '';
  const message = typeof body?.message === 'string' && body.message.trim() ? body.message.trim() : FALLBACK_MESSAGES[kind];
  const retryAfterSeconds = parseRetryAfter(retryAfter);
  return new GraphError(kind, details && !message.includes(details) ? `${message}: ${details}` : message, code, retryAfterSeconds !== undefined ? { retryAfterSeconds } : {});
}

/** Meta's biz_opaque_callback_data for a send's reference (absent without one). */
function callbackData(options: { reference?: string } | undefined): { biz_opaque_callback_data?: string } {
  return options?.reference ? { biz_opaque_callback_data: options.reference.slice(0, MAX_REFERENCE) } : {};
}

export interface HttpGraphClientOptions {
  /** e.g. https://graph.facebook.com/v21.0 (no trailing slash needed). */
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * The message fields of a content send in Meta's shapes (issue 31; Cloud API "Image / Document /
 * Audio / Video messages" by uploaded media id, "Location messages", "Interactive reply buttons"
 * and "Interactive list messages"). The limits (contract MEDIA_LIMITS) are the caller's: Meta
 * answers 131009 for a value over them, and that refusal is what the user reads.
 */
export function contentFields(content: OutboundContent): Record<string, unknown> {
  switch (content.type) {
    case 'location': {
      const { latitude, longitude, name, address } = content.location;
      return { type: 'location', location: { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) } };
    }
    case 'interactive': {
      const { kind, options, buttonLabel } = content.interactive;
      const action =
        kind === 'buttons'
          ? { buttons: options.map((o) => ({ type: 'reply', reply: { id: o.id, title: o.title } })) }
          : {
              button: buttonLabel ?? '',
              sections: [{ rows: options.map((o) => ({ id: o.id, title: o.title, ...(o.description ? { description: o.description } : {}) })) }],
            };
      return { type: 'interactive', interactive: { type: kind === 'buttons' ? 'button' : 'list', body: { text: content.body }, action } };
    }
    default: {
      // Audio takes no caption; only a document has a file name (the client picks its icon by the extension).
      const caption = content.caption && content.type !== 'audio' ? { caption: content.caption } : {};
      const filename = content.type === 'document' && content.fileName ? { filename: content.fileName } : {};
      return { type: content.type, [content.type]: { id: content.mediaId, ...caption, ...filename } };
    }
  }
}

export class HttpGraphClient implements GraphClient, GraphTemplateClient, GraphContentClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(options: HttpGraphClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? GRAPH_TIMEOUT_MS;
    this.fetchFn = options.fetch ?? fetch;
  }

  async sendText(credentials: WhatsAppCredentials, to: string, text: string, options?: SendOptions): Promise<{ messageId: string }> {
    return this.send(credentials, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      ...recipientFields(to),
      type: 'text',
      text: { preview_url: false, body: text },
      ...callbackData(options),
    });
  }

  async sendContent(credentials: WhatsAppCredentials, to: string, content: OutboundContent, options?: SendOptions): Promise<{ messageId: string }> {
    return this.send(credentials, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      ...recipientFields(to),
      ...contentFields(content),
      ...callbackData(options),
    });
  }

  async sendTemplate(credentials: WhatsAppCredentials, to: string, template: TemplateSend): Promise<{ messageId: string }> {
    const parameters = template.parameters.map((text, i) => ({
      type: 'text',
      ...(template.names?.[i] ? { parameter_name: template.names[i] } : {}),
      text,
    }));
    return this.send(credentials, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      ...recipientFields(to),
      type: 'template',
      template: {
        name: template.name,
        language: { code: template.language },
        ...(parameters.length ? { components: [{ type: 'body', parameters }] } : {}),
      },
      ...callbackData(template),
    });
  }

  async listTemplates(credentials: WhatsAppCredentials): Promise<GraphTemplate[]> {
    const templates: GraphTemplate[] = [];
    let after = '';
    for (let page = 0; page < TEMPLATE_MAX_PAGES; page++) {
      const query = new URLSearchParams({ fields: 'name,language,status,category,components', limit: String(TEMPLATE_PAGE_SIZE) });
      if (after) query.set('after', after);
      const body = await this.call<{ data?: unknown; paging?: { next?: unknown; cursors?: { after?: unknown } } }>(
        credentials,
        'GET',
        `/${encodeURIComponent(credentials.businessId)}/message_templates?${query.toString()}`,
      );
      for (const t of Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : []) {
        if (!t || typeof t.name !== 'string' || typeof t.language !== 'string') continue;
        templates.push({
          name: t.name,
          language: t.language,
          status: typeof t.status === 'string' ? t.status : '',
          category: typeof t.category === 'string' ? t.category : '',
          components: Array.isArray(t.components) ? t.components : [],
        });
      }
      // Meta's paging.next is a full URL; its `after` cursor is followed on our own base URL so the
      // token never goes anywhere else.
      const next = body.paging?.next;
      const cursor = body.paging?.cursors?.after;
      if (typeof next !== 'string' || !next || typeof cursor !== 'string' || !cursor || cursor === after) break;
      after = cursor;
    }
    return templates;
  }

  private async send(credentials: WhatsAppCredentials, payload: Record<string, unknown>): Promise<{ messageId: string }> {
    const body = await this.call<{ messages?: { id?: unknown }[] }>(credentials, 'POST', `/${encodeURIComponent(credentials.phoneId)}/messages`, payload);
    const messageId = body.messages?.[0]?.id;
    // A 2xx answer: Meta took the message, we just cannot tell its id.
    if (typeof messageId !== 'string' || !messageId) throw new GraphError('unavailable', 'WhatsApp accepted the message without an id', undefined, { deliveryUnknown: true });
    return { messageId };
  }

  async getPhoneNumber(credentials: WhatsAppCredentials): Promise<GraphPhoneNumber> {
    const body = await this.call<{ id?: unknown; display_phone_number?: unknown; verified_name?: unknown }>(
      credentials,
      'GET',
      `/${encodeURIComponent(credentials.phoneId)}?fields=id,display_phone_number,verified_name`,
    );
    return {
      id: typeof body.id === 'string' ? body.id : credentials.phoneId,
      displayPhoneNumber: typeof body.display_phone_number === 'string' ? body.display_phone_number : '',
      verifiedName: typeof body.verified_name === 'string' ? body.verified_name : '',
    };
  }

  private async call<T>(credentials: WhatsAppCredentials, method: 'GET' | 'POST', path: string, payload?: unknown): Promise<T> {
    let res: Response | undefined;
    let text: string;
    // Only a POST changes anything at Meta: a lost answer to it leaves the send's outcome unknown.
    const sends = method === 'POST';
    try {
      res = await this.fetchFn(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${credentials.bearerToken}`,
          accept: 'application/json',
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: payload !== undefined ? JSON.stringify(payload) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (error) {
      const timedOut = (error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError';
      // An error status already answered is a refusal whatever happens to its body; a connection
      // never made never reached Meta; anything else after the request went out may have.
      if (res && !res.ok) throw toGraphError(res.status, '', res.headers.get('retry-after'));
      const deliveryUnknown = sends && !neverReachedProvider(error);
      throw new GraphError('unavailable', timedOut ? whatsappProviderMessages.timeout : FALLBACK_MESSAGES.unavailable, undefined, { deliveryUnknown });
    }
    if (!res.ok) throw toGraphError(res.status, text, res.headers.get('retry-after'));
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new GraphError('unavailable', 'WhatsApp answered with an unreadable body', undefined, { deliveryUnknown: sends });
    }
  }
}
