/**
 * GraphMediaClient over plain fetch (issue 31), beside graph.ts: the Cloud API's media endpoints.
 *
 *   describe  GET {base}/{media-id}?phone_number_id={phone-id} (Bearer) → {messaging_product, url,
 *             mime_type, sha256, file_size, id}; Meta sends file_size as a number in one page of its
 *             docs and as a string in another (and in practice): both are accepted.
 *   download  GET the short-lived URL (lookaside.fbsbx.com) with the same Bearer token; the body is
 *             handed on as a stream, never buffered here. Meta answers an expired URL with 404 (or
 *             401/403): kind 'expired', ask describe for a new one.
 *   upload    POST {base}/{phone-id}/media, multipart (messaging_product=whatsapp, type, file) → {id}.
 *
 * Errors are GraphMediaError kinds from Meta's error body, as graph.ts reads it (toGraphError):
 * not_found (404, code 100: the media id is unknown or gone), auth (401, 190), bad_request (other
 * 4xx), unavailable (429, 5xx, Meta's "temporarily unavailable" codes, a network failure, a timeout).
 */
import { GraphMediaError, type GraphMediaClient, type GraphMediaErrorKind, type GraphMediaInfo, type MediaDownload } from '../../domain/whatsapp/media/ports.js';
import type { GraphErrorKind, WhatsAppCredentials } from '../../domain/whatsapp/ports.js';
import { GRAPH_TIMEOUT_MS, toGraphError } from './graph.js';

/** A download's whole time (headers and body): Meta's 16 MB voice note or 100 MB document at a few MB/s. */
export const MEDIA_DOWNLOAD_TIMEOUT_MS = 45_000;
/** An upload (≤ 16 MB from the inbox) to Meta. */
export const MEDIA_UPLOAD_TIMEOUT_MS = 30_000;

const KINDS: Record<GraphErrorKind, GraphMediaErrorKind> = {
  auth: 'auth',
  not_found: 'not_found',
  bad_request: 'bad_request',
  rate_limit: 'unavailable',
  unavailable: 'unavailable',
};

/**
 * A GraphMediaError from a failed Graph answer (Meta's error body read as graph.ts does). Meta's
 * code 100 is "does not exist" for a lookup but "invalid parameter" for an upload (a type it does
 * not take): a refused upload is bad_request.
 */
function mediaError(status: number, text: string, call: 'lookup' | 'upload' = 'lookup'): GraphMediaError {
  const error = toGraphError(status, text);
  const kind = KINDS[error.kind];
  return new GraphMediaError(call === 'upload' && kind === 'not_found' && status !== 404 ? 'bad_request' : kind, error.message, error.code);
}

/** Meta's file_size: a number, or a string of digits. NaN when neither. */
export function parseFileSize(value: unknown): number {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : NaN;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return NaN;
}

export interface HttpGraphMediaClientOptions {
  /** As HttpGraphClient's (e.g. https://graph.facebook.com/v21.0). */
  baseUrl: string;
  timeoutMs?: number;
  downloadTimeoutMs?: number;
  fetch?: typeof fetch;
}

export class HttpGraphMediaClient implements GraphMediaClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly downloadTimeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(options: HttpGraphMediaClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? GRAPH_TIMEOUT_MS;
    this.downloadTimeoutMs = options.downloadTimeoutMs ?? MEDIA_DOWNLOAD_TIMEOUT_MS;
    this.fetchFn = options.fetch ?? fetch;
  }

  async describe(credentials: WhatsAppCredentials, mediaId: string): Promise<GraphMediaInfo> {
    const query = new URLSearchParams({ phone_number_id: credentials.phoneId });
    const text = await this.request(credentials, `${this.baseUrl}/${encodeURIComponent(mediaId)}?${query.toString()}`, { method: 'GET' }, this.timeoutMs);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new GraphMediaError('unavailable', 'WhatsApp answered the media lookup with an unreadable body');
    }
    const url = typeof body?.url === 'string' ? body.url : '';
    const fileSize = parseFileSize(body?.file_size);
    if (!/^https?:\/\//i.test(url) || !Number.isFinite(fileSize)) {
      throw new GraphMediaError('unavailable', 'WhatsApp answered the media lookup without a download URL or size');
    }
    return {
      url,
      mimeType: typeof body.mime_type === 'string' ? body.mime_type : 'application/octet-stream',
      sha256: typeof body.sha256 === 'string' ? body.sha256 : '',
      fileSize,
    };
  }

  async download(credentials: WhatsAppCredentials, url: string, signal?: AbortSignal): Promise<MediaDownload> {
    if (!/^https?:\/\//i.test(url)) throw new GraphMediaError('bad_request', 'The media URL is not an HTTP URL');
    const timeout = AbortSignal.timeout(this.downloadTimeoutMs);
    let res: Response;
    try {
      res = await this.fetchFn(url, {
        headers: { authorization: `Bearer ${credentials.bearerToken}` },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch {
      throw new GraphMediaError('unavailable', 'The media download could not reach WhatsApp');
    }
    if (!res.ok || !res.body) {
      const text = await res.text().catch(() => '');
      // The URL's few minutes passed (Meta answers 404, sometimes 401/403): describe again for a new one.
      if (res.status === 404 || res.status === 401 || res.status === 403 || res.status === 410) {
        throw new GraphMediaError('expired', 'The media download link expired', res.status);
      }
      throw mediaError(res.ok ? 502 : res.status, text);
    }
    const length = Number(res.headers.get('content-length') ?? NaN);
    const contentType = res.headers.get('content-type');
    return {
      body: res.body,
      ...(Number.isSafeInteger(length) && length >= 0 ? { contentLength: length } : {}),
      ...(contentType ? { contentType } : {}),
    };
  }

  async upload(credentials: WhatsAppCredentials, file: { bytes: Uint8Array; mimeType: string; fileName: string }): Promise<{ mediaId: string }> {
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', file.mimeType);
    form.set('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.mimeType }), file.fileName);
    const text = await this.request(credentials, `${this.baseUrl}/${encodeURIComponent(credentials.phoneId)}/media`, { method: 'POST', body: form }, MEDIA_UPLOAD_TIMEOUT_MS, 'upload');
    let id: unknown;
    try {
      id = (JSON.parse(text) as { id?: unknown }).id;
    } catch {
      id = undefined;
    }
    if (typeof id !== 'string' || !id) throw new GraphMediaError('unavailable', 'WhatsApp accepted the upload without a media id');
    return { mediaId: id };
  }

  /** One bounded Graph call with the Bearer token: its body's text, or a GraphMediaError. */
  private async request(credentials: WhatsAppCredentials, url: string, init: RequestInit, timeoutMs: number, call: 'lookup' | 'upload' = 'lookup'): Promise<string> {
    let res: Response;
    let text: string;
    try {
      res = await this.fetchFn(url, {
        ...init,
        headers: { authorization: `Bearer ${credentials.bearerToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (error) {
      const timedOut = (error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError';
      throw new GraphMediaError('unavailable', timedOut ? 'WhatsApp did not answer in time' : 'WhatsApp could not be reached');
    }
    if (!res.ok) throw mediaError(res.status, text, call);
    return text;
  }
}
