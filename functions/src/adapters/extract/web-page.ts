/**
 * A web page → its readable structure (headings, paragraphs, tables) and title, fetched through the outbound guard (public addresses only,
 * re-checked on every redirect and at connect time). HTML goes through Readability (html.ts,
 * title kept); text/plain is taken as is; anything else is refused. Every way a page cannot be
 * used becomes a KnowledgeSourceError whose message the user sees next to the URL; the user can
 * fix the URL or press Refresh. Those a site's passing trouble explains (HTTP 408, 429 and 5xx, a
 * timeout, a refused or reset connection, a DNS server that did not answer) are marked `passing`,
 * so the queue retries them on its schedule before the reason is final (issue 34); an unknown
 * name, a TLS error, too many redirects, 404 and the like are final at once.
 */
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';
import {
  OutboundBlockedError,
  OutboundNetworkError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  type GuardedRequest,
  type GuardedResponse,
} from '../outbound/guarded-fetch.js';
import { extractHtml, type ExtractedPage } from './html.js';
import { decodeText, extractText } from './text.js';

export interface WebPageOptions {
  timeoutMs: number;
  maxBytes: number;
}

export const WEB_PAGE_DEFAULTS: WebPageOptions = { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024 };

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const TEXT_TYPES = new Set(['text/plain']);

export type Fetcher = (url: string, req?: GuardedRequest) => Promise<GuardedResponse>;

export async function fetchWebPage(link: string, fetcher: Fetcher, options: WebPageOptions = WEB_PAGE_DEFAULTS): Promise<ExtractedPage> {
  let response: GuardedResponse;
  try {
    response = await fetcher(link, {
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      failOnTooLarge: true,
      headers: {
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
        'user-agent': 'Mozilla/5.0 (compatible; AgentDeskBot/1.0; knowledge ingestion)',
      },
    });
  } catch (error) {
    if (error instanceof OutboundBlockedError) throw new KnowledgeSourceError(error.message.startsWith('Blocked') ? error.message : knowledgeMessages.blocked);
    if (error instanceof OutboundTimeoutError) throw new KnowledgeSourceError(knowledgeMessages.pageTimeout(Math.round(options.timeoutMs / 1000)), { passing: true });
    if (error instanceof OutboundTooLargeError) throw new KnowledgeSourceError(knowledgeMessages.pageTooLarge(Math.round(options.maxBytes / (1024 * 1024))));
    if (error instanceof OutboundNetworkError) throw new KnowledgeSourceError(error.message || knowledgeMessages.pageUnreachable, { passing: passingConnectionFailure(error) });
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    const passing = response.status === 408 || response.status === 429 || response.status >= 500;
    throw new KnowledgeSourceError(knowledgeMessages.httpStatus(response.status), { passing });
  }

  const contentType = response.headers['content-type'] ?? '';
  const [rawType, ...params] = contentType.split(';');
  const type = (rawType ?? '').trim().toLowerCase();
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find(Boolean);
  const body = new Uint8Array(response.body.buffer, response.body.byteOffset, response.body.byteLength);

  if (HTML_TYPES.has(type) || (type === '' && looksLikeHtml(body))) {
    return extractHtml(decodeText(body, charset ?? metaCharset(body)), response.url);
  }
  if (TEXT_TYPES.has(type)) return { title: '', ...extractText(body, charset) };
  throw new KnowledgeSourceError(knowledgeMessages.unsupportedContentType(type || 'unknown'));
}

/** Connection failures a site recovers from (the guard keeps the socket error as the cause). */
const PASSING_CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function passingConnectionFailure(error: OutboundNetworkError): boolean {
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && PASSING_CONNECTION_CODES.has(code);
}

function looksLikeHtml(body: Uint8Array): boolean {
  const head = Buffer.from(body.subarray(0, 1024)).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body)[\s>]/.test(head);
}

/** <meta charset="..."> or <meta http-equiv="Content-Type" content="...; charset=..."> in the first 2 KB. */
function metaCharset(body: Uint8Array): string | undefined {
  const head = Buffer.from(body.subarray(0, 2048)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}
